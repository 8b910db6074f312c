import BookClubCore

struct AgendaCommand: Command {
    static let days = Option(
        long: "days", kind: .value("days"), help: "How many days ahead to look.", defaultValue: "30",
        parse: .integer(in: 0...3650))
    static let club = Option(long: "club", kind: .value("club"), help: "Only this club's meetings.")
    static let configuration = CommandConfiguration(
        name: "agenda",
        abstract: "Upcoming meetings of every club, and where you stand against each one's target.",
        discussion: """
            For each meeting: the pages to go and the pages a day that get you there; a meeting whose \
            target you will miss at your recent pace (your entries of the last 14 days) is flagged. \
            With a club selected (select --club), only that club's meetings.
            """,
        examples: ["bookclub agenda", "bookclub agenda --days 60 --club scifi"],
        options: [
            days,
            club,
            CommonOptions.json,
        ])

    var days: Int
    var club: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        days = try arguments[Self.days] ?? 30
        club = try arguments[Self.club]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let shared = session.sharedClubsRead()
        let (library, items) = try session.compute(
            PlanAgenda(
                club: club, scene: session.scene().state, now: session.now(), days: days,
                joined: shared.map(\.joined)))
        let clubBooks = session.clubBooks(shared)
        let clubs = Dictionary(
            shared.map { ($0.joined.club.id, $0.joined.club) }, uniquingKeysWith: { first, _ in first })
        func standings(_ item: AgendaItem) -> [MemberStanding]? {
            guard let club = clubs[item.club.id], let meeting = club.meetings.first(where: { $0.id == item.meeting.id })
            else { return nil }
            return club.standings(at: meeting)
        }
        if json {
            try session.writeJSON(
                items.map { item in
                    var json = AgendaJSON(item, library: library)
                    json.members = standings(item).map { $0.map(SharedClubJSON.Standing.init) }
                    return json
                })
            return
        }
        guard !items.isEmpty else {
            session.output.write(
                "No meetings in the next \(NumberText.count(days, "day")). Plan one: bookclub club meeting CLUB --date WHEN --book BOOK",
                as: .message)
            return
        }
        let style = session.style
        for item in items {
            let date = DateText.minute(item.meeting.date, timeZone: session.timeZone)
            var line: TerminalText =
                "\(item.club.name)  \(MeetingText.describe(item.meeting, library: library, clubBooks: clubBooks))"
            let standing = TerminalText(MeetingText.standing(item))
            if !standing.isEmpty {
                line +=
                    ": "
                    + (item.standing == .behind
                        ? style.red(standing) : item.standing == .reached ? style.green(standing) : standing)
            }
            // On a terminal a long line wraps under its text, past the date.
            let indent = date.displayWidth + 2
            session.output.write(
                style.bold("\(date)") + "  "
                    + TextWrapping.hanging(line, width: session.terminal.lineWidth, firstColumn: indent, indent: indent),
                as: .data)
            for standing in standings(item) ?? [] {
                session.output.write(
                    .spaces(indent + 2)
                        + TextWrapping.hanging(
                            SharedClubText.standing(standing), width: session.terminal.lineWidth,
                            firstColumn: indent + 2, indent: indent + 4), as: .data)
            }
        }
    }
}
