import BookClubCore

struct ClubSyncCommand: Command {
    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Sync shared clubs now.",
        discussion: """
            Reads what the other members published (each new batch's signature checked once), publishes \
            your linked books' progress and, as founder, the club's meetings; in a git work tree pulls \
            first and pushes your log after. Omitted: every club this store shares or joined. For cron.
            """,
        examples: ["bookclub club sync", "bookclub club sync scifi"],
        arguments: [ClubOptions.club],
        options: [CommonOptions.json])

    var reference: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let states =
            try reference.map { [try session.clubHome.choose($0)] }
            ?? session.clubHome.clubs().compactMap { try session.clubHome.state(of: $0) }
        // A cron line on a machine in no club has nothing to do: that is not a failure.
        guard !states.isEmpty else {
            session.output.write("This store shares no club and joined none: nothing to sync.", as: .message)
            return
        }
        var summaries: [SharedClubJSON.Summary] = []
        for state in states {
            var sync = ClubSync(home: session.clubHome, keygen: session.keygen, state: state)
            let club = try session.syncClub(&sync)
            summaries.append(SharedClubJSON.summary(club, sync.state))
            session.output.write(
                TerminalText(
                    "\(club.name): \(NumberText.count(club.members.filter { $0.state != .pending && $0.state != .removed }.count, "member")), \(NumberText.count(club.posts.count, "post"))"
                ),
                as: .message)
        }
        if json { try session.writeJSON(summaries) }
    }
}
