import BookClubCore

struct ClubAddCommand: Command {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a book club and print its id.",
        arguments: [ArgumentSpec(name: "name", help: "The club's name.")],
        options: [
            OptionSpec(long: "description", kind: .value("text"), help: "What the club is about."),
            CommonOptions.json,
        ])

    var name: String
    var description: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        name = arguments.argument("name")?.trimmed ?? ""
        guard !name.isEmpty else {
            throw ParseError.invalidValue(value: name, label: "<name>", reason: "a name cannot be empty")
        }
        description = arguments.value("description").flatMap(AddCommand.nonEmpty)
        json = arguments.flag("json")
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        let club = Club(id: env.makeID(), name: name, description: description)
        try store.update { try $0.addClub(club) }
        if json {
            try env.writeJSON(ClubJSON(club, library: store.state, now: env.now()))
        } else {
            env.output.write(club.id, as: .data)
        }
        env.output.write(
            "Added the club '\(name.terminalSafe)'. Plan a meeting: bookclub club meeting \(Environment.shellWord(name)) --date WHEN --book BOOK",
            as: .message)
    }
}
