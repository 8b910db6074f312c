import BookClubCore

struct ClubShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a club, its current book and its meetings.",
        examples: ["bookclub club show scifi"],
        arguments: [ClubOptions.club],
        options: [CommonOptions.json])

    var reference: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let (library, joined, clubBooks) = try session.libraryJoiningClubs()
        let club = try ClubChoice(reference, in: session).choose(in: library)
        let now = session.now()
        let shared = joined.first { $0.joined.club.id == club.id }.map { ($0.joined.club, $0.sync.state.fingerprint) }
        if json {
            try session.writeJSON(ClubJSON(club, library: library, now: now, shared: shared))
            return
        }
        session.output.write(session.style.bold("\(club.name)"), as: .data)
        if let description = club.description { session.output.write("\(description)", as: .data) }
        session.output.write(session.style.dim("id \(club.id)"), as: .data)
        // The next meeting's book: the reader's copy, or a shared club's book not linked yet.
        let next = club.meetings.first { $0.date >= now && ($0.bookID != nil || clubBooks[$0.id] != nil) }
        let current = next?.bookID.flatMap { library[id: $0] }
        let reading =
            current.map { "\($0.title) (\(ProgressText.describe($0)))" }
            ?? next.map {
                MeetingText.describe(Meeting(id: $0.id, date: $0.date), library: library, clubBooks: clubBooks)
            }
        session.output.write("Reading: \(reading ?? "nothing planned")", as: .data)
        session.output.write("", as: .data)
        for line in ClubMeetingsCommand.render(
            club.meetings.map { (club, $0) }, library: library, session: session, showClub: false,
            clubBooks: clubBooks)
        {
            session.output.write(line, as: .data)
        }
        guard let (shared, me) = shared else { return }
        let style = session.style
        if let next = shared.meetings.first(where: { $0.date >= now }) {
            let standings = shared.standings(at: next)
            session.output.write("", as: .data)
            session.output.write(
                style.bold(TerminalText("Next meeting, \(DateText.minute(next.date, timeZone: session.timeZone))"))
                    + TerminalText(": \(SharedClubText.attendance(standings))"), as: .data)
            for standing in standings { session.output.write("  " + SharedClubText.standing(standing), as: .data) }
        }
        let open = shared.polls.filter { !$0.isClosed(at: now) }
        guard !open.isEmpty else { return }
        session.output.write("", as: .data)
        session.output.write(style.bold("Open polls"), as: .data)
        for poll in open {
            let voted = poll.ballots[me] == nil ? "" : ", you voted"
            session.output.write(
                "  " + style.dim(TerminalText(poll.poll.id)) + "  "
                    + TerminalText("\(poll.poll.question) (\(NumberText.count(poll.ballots.count, "ballot"))\(voted))"),
                as: .data)
        }
    }
}
