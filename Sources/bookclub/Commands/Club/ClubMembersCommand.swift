import BookClubCore

struct ClubMembersCommand: Command {
    static let configuration = CommandConfiguration(
        name: "members",
        abstract: "List a shared club's members, their keys and state.",
        discussion: "States: pending (asked to join), member, host, left, removed. Syncs the club first.",
        examples: ["bookclub club members scifi", "bookclub club members scifi --json"],
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
        if json {
            try session.writeJSON(SharedClubJSON.members(club, me: sync.state.fingerprint))
            return
        }
        for line in SharedClubText.members(
            club, me: sync.state.fingerprint, width: session.terminal.lineWidth, style: session.style)
        {
            session.output.write(line, as: .data)
        }
    }
}
