import BookClubCore

struct ClubLeaveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "leave",
        abstract: "Leave a shared club: publish nothing more to it.",
        discussion: "What you published stays with the club; your copy of its logs stays here.",
        examples: ["bookclub club leave scifi"],
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
        guard !sync.state.left else { throw CommandFailure("You left \(sync.state.clubName) already.") }
        try session.syncClub(&sync)
        try sync.leave(now: session.now())
        let club = try session.syncClub(&sync)
        if json { try session.writeJSON(SharedClubJSON.summary(club, sync.state)) }
        session.output.write(
            TerminalText("You left \(sync.state.clubName): nothing more is published to it."), as: .message)
    }
}
