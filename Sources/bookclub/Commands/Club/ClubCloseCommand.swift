import BookClubCore

struct ClubCloseCommand: Command {
    static let configuration = CommandConfiguration(
        name: "close",
        abstract: "Close a shared club's poll and print its count.",
        discussion: """
            The ballots that count are each member's latest that this home had read when it closed the \
            poll, so every home counts the same, whenever the rest arrives. Hosts close polls; under \
            the members policy, so does the poll's opener.
            """,
        examples: ["bookclub club close scifi", "bookclub club close scifi 1a2b3c4d"],
        arguments: [ClubOptions.club, ClubOptions.poll],
        options: [CommonOptions.json])

    var reference: String?
    var poll: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        poll = try arguments[ClubOptions.poll]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        try ClubOptions.requireMember(sync, club, "Nothing closed")
        let now = session.now()
        let chosen = try ClubOptions.poll(poll, of: club, now: now)
        let me = sync.state.fingerprint
        guard chosen.closedBy == nil else {
            throw CommandFailure(
                "The poll \(chosen.poll.question) is \(PollText.status(chosen, club: club, now: now, timeZone: session.timeZone)) already."
            )
        }
        guard club.mayClose(chosen, me) else {
            throw CommandFailure(
                "Only a host of \(club.name)\(club.pollPolicy == .members ? " or the poll's opener" : "") closes a poll."
            )
        }
        let closed = try session.syncClub(&sync, publishing: [.close(poll: chosen.poll.id)])
        guard let counted = closed.poll(chosen.poll.id) else { return }
        if json {
            try session.writeJSON(PollJSON(counted, club: closed, me: me, now: now))
            return
        }
        for line in PollText.lines(
            counted, club: closed, me: me, now: now, timeZone: session.timeZone, style: session.style,
            width: session.terminal.lineWidth)
        {
            session.output.write(line, as: .data)
        }
    }
}
