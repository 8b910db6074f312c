import BookClubCore

struct ClubPollsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "polls",
        abstract: "List a shared club's polls: open ones with your ballot, closed ones with their count.",
        discussion: """
            A closed poll shows its count, round by round for a ranked poll: every member's home shows \
            the same. An open poll shows how many have voted; its count shows when it closes.
            """,
        examples: ["bookclub club polls scifi", "bookclub club polls scifi --json"],
        arguments: [ClubOptions.club],
        options: [CommonOptions.json])

    var reference: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        let now = session.now()
        let me = sync.state.fingerprint
        if json {
            try session.writeJSON(club.polls.map { PollJSON($0, club: club, me: me, now: now) })
            return
        }
        guard !club.polls.isEmpty else {
            session.output.write(
                TerminalText("\(club.name) has no polls; a host opens one with: bookclub club poll"), as: .message)
            return
        }
        // Open polls first, then the closed, the latest first.
        let polls = club.polls.filter { !$0.isClosed(at: now) } + club.polls.filter { $0.isClosed(at: now) }.reversed()
        for (index, poll) in polls.enumerated() {
            if index > 0 { session.output.write("", as: .data) }
            for line in PollText.lines(
                poll, club: club, me: me, now: now, timeZone: session.timeZone, style: session.style,
                width: session.terminal.lineWidth)
            {
                session.output.write(line, as: .data)
            }
        }
    }
}
