import BookClubCore

struct ClubJoinCommand: Command {
    static let folder = Argument(name: "folder", help: "The club's folder, as its founder shared it.", parse: .path)
    static let founder = Option(
        long: "founder", kind: .value("fingerprint"),
        help: "The founder's key fingerprint (SHA256:…), as they gave it; needed when not asked on a terminal.")
    static let configuration = CommandConfiguration(
        name: "join",
        abstract: "Ask to join a club shared through a folder.",
        discussion: """
            Pins the founder's key, as ssh pins a host's: from --founder, or, on a terminal, once you \
            confirm the fingerprint the founder gave you. Publishes your name and public key, and nothing \
            else, until a host admits you (bookclub club admit on their machine). Then link your copy of \
            the club's book (bookclub club link) and your progress is shared as the clubProgress setting \
            says.
            """,
        examples: [
            "bookclub club join ~/Sync/scifi-club --name Ben",
            #"bookclub club join ~/Sync/scifi-club --founder "$FOUNDER""#,
        ],
        arguments: [folder],
        options: [founder, ClubOptions.memberName, CommonOptions.json])

    var folder: String
    var founder: String?
    var name: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        folder = try arguments[Self.folder] ?? ""
        name = try ClubOptions.name(arguments)
        json = arguments[CommonOptions.json]
        founder = try arguments[Self.founder]?.trimmed
        if let founder, !founder.hasPrefix("SHA256:") || founder.count != 50 {
            throw ParseError.invalidValue(
                value: founder, label: "--founder <fingerprint>",
                reason: "expected a key fingerprint, SHA256: and 43 characters, as ssh-keygen -l prints it")
        }
    }

    func run(in session: Session) throws {
        let path = session.absolutePath(folder)
        let name = name ?? session.readerName
        // In a git clone, the club's folder may come with the first pull: git runs in the nearest
        // folder there is, and a mistyped path is never made.
        var existing = path
        while session.fileSystem.kind(existing) != .folder, let slash = existing.lastIndex(of: "/"),
            slash != existing.startIndex
        {
            existing = String(existing[..<slash])
        }
        let git = Git(folder: existing, environment: session.variables, runner: session.runner)
        try git?.pull()
        var (sync, report) = try ClubSync.join(
            folderPath: path, home: session.clubHome, keygen: session.keygen, keyPath: session.clubKeyPath(),
            name: name, device: session.makeID(), founder: founder,
            confirm: { found in
                guard session.terminal.standardInputIsTerminal else {
                    throw CommandFailure(
                        "Not joined: give the founder's key fingerprint with --founder (\(found.name)'s founder can read it in bookclub club members), as standard input is not a terminal to ask on."
                    )
                }
                session.output.prompt(
                    TerminalText(
                        "\(found.name) was founded by the key \(found.fingerprint). Is it the one its founder gave you? [y/N] "
                    ))
                return ["y", "yes"].contains(session.readLine()?.lowercased().trimmed ?? "")
            }, now: session.now())
        session.warn(report, club: try sync.club())
        let club = try session.syncClub(&sync)
        if json {
            try session.writeJSON(SharedClubJSON.summary(club, sync.state))
        } else {
            session.output.write(TerminalText(sync.state.fingerprint), as: .data)
        }
        session.output.write(
            TerminalText(
                "Asked to join \(sync.state.clubName) as \(name), with the key \(sync.state.fingerprint): a host admits you with bookclub club admit \(sync.state.clubName.shellWord) \(name.shellWord)"
            ),
            as: .message)
        // A club book the library holds under another ISBN or title is linked by hand.
        for book in sync.unlinked(in: club) {
            session.output.write(
                TerminalText(
                    "Link your copy of \(book.title) when you have it: bookclub club link \(sync.state.clubName.shellWord) BOOK"
                ),
                as: .message)
        }
    }
}
