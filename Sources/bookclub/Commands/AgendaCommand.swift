import BookClubCore

struct AgendaCommand: Command {
    static let days = OptionSpec(
        long: "days", kind: .value("days"), help: "How many days ahead to look.", defaultValue: "30")
    static let club = OptionSpec(long: "club", kind: .value("club"), help: "Only this club's meetings.")
    static let configuration = CommandConfiguration(
        name: "agenda",
        abstract: "Upcoming meetings of every club, and where you stand against each one's target.",
        discussion: """
            For each meeting: the pages to go and the pages a day that get you there; a meeting whose \
            target you will miss at your recent pace (your entries of the last 14 days) is flagged. \
            With a club selected (select --club), only that club's meetings.
            """,
        options: [
            days,
            club,
            CommonOptions.json,
        ])

    var days: Int
    var club: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        days = try arguments.integer(Self.days, in: 0...3650) ?? 30
        club = arguments.value(Self.club)
        json = arguments.flag(CommonOptions.json)
    }

    /// The clubs to show: the one named, else the selected one, else every club (`nil`).
    private func clubs(in library: Library, env: Environment) throws -> [Club]? {
        if let club { return [try library.resolveClub(club)] }
        guard let selected = try env.scene().state.club, let club = library.clubs.first(where: { $0.id == selected })
        else { return nil }
        return [club]
    }

    func run(in env: Environment) throws {
        let now = env.now()
        // The pace of each meeting's book comes from its recent entries: those books come with their history.
        let store = try env.library(
            scope: .everything.withHistory { library in
                // A club that names nothing is reported below.
                let clubs: [Club]?
                do { clubs = try self.clubs(in: library, env: env) } catch { return [] }
                return Set(Agenda.items(in: library, clubs: clubs, now: now, days: days).compactMap(\.meeting.bookID))
            })
        let items = Agenda.items(in: store.state, clubs: try clubs(in: store.state, env: env), now: now, days: days)
        if json {
            try env.writeJSON(items.map { AgendaJSON($0, library: store.state) })
            return
        }
        guard !items.isEmpty else {
            env.output.write(
                "No meetings in the next \(days) days. Plan one: bookclub club meeting CLUB --date WHEN --book BOOK",
                as: .message)
            return
        }
        let style = env.style
        for item in items {
            let date = DateText.minute(item.meeting.date, timeZone: env.timeZone)
            var line =
                item.club.name.terminalSafe + "  "
                + MeetingText.describe(item.meeting, library: store.state).terminalSafe
            let standing = MeetingText.standing(item)
            if !standing.isEmpty {
                line +=
                    ": "
                    + (item.standing == .behind
                        ? style.red(standing) : item.standing == .reached ? style.green(standing) : standing)
            }
            // On a terminal a long line wraps under its text, past the date.
            let indent = date.displayWidth + 2
            env.output.write(
                style.bold(date) + "  "
                    + TextWrapping.hanging(line, width: env.terminal.lineWidth, firstColumn: indent, indent: indent),
                as: .data)
        }
    }
}
