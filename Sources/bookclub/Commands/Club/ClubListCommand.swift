import BookClubCore

struct ClubListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List the clubs with their next meeting.",
        examples: ["bookclub club list"],
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let (library, _, clubBooks) = try session.libraryJoiningClubs()
        let now = session.now()
        if json {
            try session.writeJSON(library.clubs.map { ClubJSON($0, library: library, now: now) })
            return
        }
        guard !library.clubs.isEmpty else {
            session.output.write("No clubs yet. Add one: bookclub club add \"Sci-Fi Club\"", as: .message)
            return
        }
        let rows = library.clubs.map { club -> [TerminalText] in
            let next =
                club.nextMeeting(after: now).map {
                    "next: " + DateText.minute($0.date, timeZone: session.timeZone) + "  "
                        + MeetingText.describe($0, library: library, clubBooks: clubBooks)
                } ?? "no meeting planned"
            return ["\(club.id.prefix(8))", "\(club.name)", "\(next)"]
        }
        for line in Table(rows: rows, flexibleColumn: 2).render(
            width: session.terminal.lineWidth,
            style: { column, text in
                column == 0 ? session.style.dim(text) : column == 1 ? session.style.bold(text) : text
            })
        {
            session.output.write(line, as: .data)
        }
    }
}
