import BookClubCore

struct ClubMeetingsCommand: Command {
    static let past = Flag(long: "past", help: "Include past meetings.")
    static let ics = Flag(
        long: "ics", help: "Print the club's meetings as iCalendar (RFC 5545), for a calendar application.")
    static let club = Argument(
        name: "club", help: "The club. Omitted: every club (or, with --ics, the selected club).",
        isOptional: true)
    static let configuration = CommandConfiguration(
        name: "meetings",
        abstract: "List upcoming meetings, of one club or of all; or print them as an iCalendar file.",
        examples: ["bookclub club meetings", "bookclub club meetings \"Sci-Fi Club\" --ics > scifi.ics"],
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
        reference = try arguments[Self.club]
        past = arguments[Self.past]
        ics = arguments[Self.ics]
        json = arguments[CommonOptions.json]
        if ics && json { throw ParseError.exclusiveFlags(duplicate: "--json", previous: "--ics") }
    }

    func run(in session: Session) throws {
        let (library, joined, clubBooks) = try session.libraryJoiningClubs()
        let now = session.now()
        if ics {
            let club = try ClubChoice(reference, in: session).choose(in: library)
            var organizer: ICalendar.Attendee?
            var attendees: [Meeting.ID: [ICalendar.Attendee]] = [:]
            if let shared = joined.first(where: { $0.joined.club.id == club.id })?.joined.club {
                let founder = shared.member(shared.founder)
                organizer = ICalendar.Attendee(name: founder?.name ?? "", fingerprint: shared.founder, reply: .accepted)
                for meeting in shared.meetings {
                    attendees[meeting.id] = shared.standings(at: meeting).map { standing in
                        let reply: ICalendar.Attendee.Reply =
                            switch standing.rsvp?.answer {
                            case .yes?: .accepted
                            case .no?: .declined
                            case .maybe?: .tentative
                            case nil: .unanswered
                            }
                        return ICalendar.Attendee(
                            name: standing.member.name, fingerprint: standing.member.fingerprint, reply: reply)
                    }
                }
            }
            session.output.write(
                formatted: ICalendar.render(
                    club: club, books: library, now: now.wholeSeconds, organizer: organizer, attendees: attendees))
            return
        }
        let clubs = try reference.map { [try library.resolveClub($0)] } ?? library.clubs
        let meetings = clubs.flatMap { club in club.meetings.map { (club, $0) } }
            .filter { past || $0.1.date >= now }
            .sorted { $0.1.date < $1.1.date }
        if json {
            try session.writeJSON(meetings.map { MeetingJSON($0.1, club: $0.0, library: library) })
            return
        }
        guard !meetings.isEmpty else {
            session.output.write(
                past ? "No meetings." : "No upcoming meetings; --past shows the earlier ones.", as: .message)
            return
        }
        for line in Self.render(
            meetings, library: library, session: session, showClub: reference == nil, clubBooks: clubBooks)
        {
            session.output.write(line, as: .data)
        }
    }

    /// One line a meeting: id, date, (club,) book and target, place. Past meetings are dimmed.
    static func render(
        _ meetings: [(Club, Meeting)], library: Library, session: Session, showClub: Bool,
        clubBooks: [Meeting.ID: ClubBook] = [:]
    ) -> [TerminalText] {
        let now = session.now()
        let rows = meetings.map { club, meeting -> [TerminalText] in
            ["\(meeting.id.prefix(8))", "\(DateText.minute(meeting.date, timeZone: session.timeZone))"]
                + (showClub ? ["\(club.name)"] : [])
                + [
                    "\(MeetingText.describe(meeting, library: library, clubBooks: clubBooks))",
                    meeting.place.map { "@ \($0)" } ?? "",
                ]
        }
        let isPast = meetings.map { $0.1.date < now }
        var index = 0
        return Table(rows: rows, flexibleColumn: showClub ? 3 : 2).render(width: session.terminal.lineWidth) {
            column, text in
            defer { if column == rows[0].count - 1 { index += 1 } }
            return isPast[index] ? session.style.dim(text) : column == 0 ? session.style.dim(text) : text
        }
    }
}
