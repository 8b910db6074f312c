import BookClubCore

struct ClubAddCommand: Command {
    static let description = Option(long: "description", kind: .value("text"), help: "What the club is about.")
    static let name = Argument(name: "name", help: "The club's name.")
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a book club and print its id.",
        examples: ["bookclub club add \"Sci-Fi Club\" --description \"Tuesdays at the library\""],
        arguments: [name],
        options: [
            description,
            CommonOptions.json,
        ])

    var name: String
    var description: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        name = try arguments[Self.name]?.trimmed ?? ""
        guard !name.isEmpty else {
            throw ParseError.invalidValue(value: name, label: "<name>", reason: "a name cannot be empty")
        }
        description = try arguments[Self.description].flatMap(\.nonBlank)
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let store = try session.library(forWriting: true)
        let club = Club(id: session.makeID(), name: name, description: description)
        try store.update { try $0.addClub(club) }
        if json {
            try session.writeJSON(ClubJSON(club, library: store.state, now: session.now()))
        } else {
            session.output.write(TerminalText(club.id), as: .data)
        }
        session.output.write(
            "Added the club '\(name)'. Plan a meeting: bookclub club meeting \(name.shellWord) --date WHEN --book BOOK",
            as: .message)
    }
}
