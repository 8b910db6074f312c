import BookClubCore

struct ClubShareCommand: Command {
    static let club = Argument(name: "club", help: "The club to share: its id, name or words of it.")
    static let folder = Argument(
        name: "folder", help: "A folder the members share: a git work tree, Syncthing, Dropbox.", parse: .path)
    static let configuration = CommandConfiguration(
        name: "share",
        abstract: "Share a club through a folder, as its founder.",
        discussion: """
            Makes FOLDER the club's (created if needed): each member's machine writes its own log there, \
            members/<id>.jsonl, each batch signed with an SSH key (bookclub makes one for you unless the \
            clubKey setting names yours). Members ask to join with bookclub club join FOLDER, and you \
            admit them with bookclub club admit. Only what concerns the club leaves your library: your \
            name and key, the club's meetings, the progress of the books you link, and what you post.
            """,
        examples: ["bookclub club share scifi ~/Sync/scifi-club --name Ana"],
        arguments: [club, folder],
        options: [ClubOptions.memberName, CommonOptions.json])

    var club: String
    var folder: String
    var name: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        club = try arguments[Self.club] ?? ""
        folder = try arguments[Self.folder] ?? ""
        name = try ClubOptions.name(arguments)
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let library = try session.library().state
        let chosen = try ClubChoice(club, in: session).choose(in: library)
        let name = name ?? session.readerName
        let path = session.absolutePath(folder)
        var (sync, report) = try ClubSync.share(
            chosen, folderPath: path, home: session.clubHome, keygen: session.keygen,
            keyPath: session.clubKeyPath(), name: name, device: session.makeID(), now: session.now())
        session.warn(report, club: try sync.club())
        let club = try session.syncClub(&sync)
        if json {
            try session.writeJSON(SharedClubJSON.summary(club, sync.state))
        } else {
            session.output.write(TerminalText(sync.state.fingerprint), as: .data)
        }
        session.output.write(
            "Shared \(chosen.name) through \(path) as its founder, \(name). Members join with: bookclub club join \(path.shellWord) --founder \(sync.state.fingerprint)",
            as: .message)
    }
}
