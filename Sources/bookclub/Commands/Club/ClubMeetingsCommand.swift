import BookClubCore

struct ClubMeetingsCommand: Command {
    static let past = OptionSpec(long: "past", kind: .flag, help: "Include past meetings.")
    static let ics = OptionSpec(
        long: "ics", kind: .flag,
        help: "Print the club's meetings as iCalendar (RFC 5545), for a calendar application.")
    static let club = ArgumentSpec(
        name: "club", help: "The club. Omitted: every club (or, with --ics, the selected club).",
        isOptional: true)
    static let configuration = CommandConfiguration(
        name: "meetings",
        abstract: "List upcoming meetings, of one club or of all; or print them as an iCalendar file.",
        discussion: "Example: bookclub club meetings \"Sci-Fi Club\" --ics > scifi.ics",
        arguments: [
            club
        ],
        options: [
            past,
            ics,
            CommonOptions.json,
        ])

    var reference: String?
    var past: Bool
    var ics: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument(Self.club)
        past = arguments.flag(Self.past)
        ics = arguments.flag(Self.ics)
        json = arguments.flag(CommonOptions.json)
        if ics && json { throw ParseError.exclusiveFlags(duplicate: "--json", previous: "--ics") }
    }

    func run(in env: Environment) throws {
        let library = try env.library().state
        let now = env.now()
        if ics {
            let club = try env.resolveClub(reference, in: library)
            env.output.sink(ICalendar.render(club: club, books: library, now: now.wholeSeconds), true)
            return
        }
        let clubs = try reference.map { [try library.resolveClub($0)] } ?? library.clubs
        let meetings = clubs.flatMap { club in club.meetings.map { (club, $0) } }
            .filter { past || $0.1.date >= now }
            .sorted { $0.1.date < $1.1.date }
        if json {
            try env.writeJSON(meetings.map { MeetingJSON($0.1, club: $0.0, library: library) })
            return
        }
        guard !meetings.isEmpty else {
            env.output.write(
                past ? "No meetings." : "No upcoming meetings; --past shows the earlier ones.", as: .message)
            return
        }
        for line in Self.render(meetings, library: library, env: env, showClub: reference == nil) {
            env.output.write(line, as: .data)
        }
    }

    /// One line a meeting: id, date, (club,) book and target, place. Past meetings are dimmed.
    static func render(_ meetings: [(Club, Meeting)], library: Library, env: Environment, showClub: Bool) -> [String] {
        let now = env.now()
        let rows = meetings.map { club, meeting in
            [String(meeting.id.prefix(8)), DateText.minute(meeting.date, timeZone: env.timeZone)]
                + (showClub ? [club.name.terminalSafe] : [])
                + [
                    MeetingText.describe(meeting, library: library).terminalSafe,
                    meeting.place.map { "@ " + $0.terminalSafe } ?? "",
                ]
        }
        let isPast = meetings.map { $0.1.date < now }
        var index = 0
        return Table(rows: rows, flexibleColumn: showClub ? 3 : 2).render(width: env.terminal.lineWidth) {
            column, text in
            defer { if column == rows[0].count - 1 { index += 1 } }
            return isPast[index] ? env.style.dim(text) : column == 0 ? env.style.dim(text) : text
        }
    }
}
