import BookClubCore

struct ClubListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List the clubs with their next meeting.",
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        let library = try env.library().state
        let now = env.now()
        if json {
            try env.writeJSON(library.clubs.map { ClubJSON($0, library: library, now: now) })
            return
        }
        guard !library.clubs.isEmpty else {
            env.output.write("No clubs yet. Add one: bookclub club add \"Sci-Fi Club\"", as: .message)
            return
        }
        let rows = library.clubs.map { club -> [String] in
            let next =
                club.nextMeeting(after: now).map {
                    "next: " + DateText.minute($0.date, timeZone: env.timeZone) + "  "
                        + MeetingText.describe($0, library: library)
                } ?? "no meeting planned"
            return [String(club.id.prefix(8)), club.name.terminalSafe, next.terminalSafe]
        }
        for line in Table(rows: rows, flexibleColumn: 2).render(
            width: env.terminal.lineWidth,
            style: { column, text in
                column == 0 ? env.style.dim(text) : column == 1 ? env.style.bold(text) : text
            })
        {
            env.output.write(line, as: .data)
        }
    }
}
