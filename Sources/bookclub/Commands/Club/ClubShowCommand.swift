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
        let library = try session.library().state
        let club = try ClubChoice(reference, in: session).choose(in: library)
        let now = session.now()
        if json {
            try session.writeJSON(ClubJSON(club, library: library, now: now))
            return
        }
        session.output.write(session.style.bold("\(club.name)"), as: .data)
        if let description = club.description { session.output.write("\(description)", as: .data) }
        session.output.write(session.style.dim("id \(club.id)"), as: .data)
        let current = club.currentBookID(at: now).flatMap { library[id: $0] }
        session.output.write(
            "Reading: "
                + (current.map { "\($0.title) (\(ProgressText.describe($0)))" } ?? "nothing planned"),
            as: .data)
        session.output.write("", as: .data)
        for line in ClubMeetingsCommand.render(
            club.meetings.map { (club, $0) }, library: library, session: session, showClub: false)
        {
            session.output.write(line, as: .data)
        }
    }
}
