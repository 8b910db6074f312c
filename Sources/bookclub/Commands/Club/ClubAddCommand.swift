import BookClubCore

struct ClubAddCommand: Command {
    static let description = OptionSpec(long: "description", kind: .value("text"), help: "What the club is about.")
    static let name = ArgumentSpec(name: "name", help: "The club's name.")
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a book club and print its id.",
        arguments: [name],
        options: [
            description,
            CommonOptions.json,
        ])

    var name: String
    var description: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        name = arguments.argument(Self.name)?.trimmed ?? ""
        guard !name.isEmpty else {
            throw ParseError.invalidValue(value: name, label: "<name>", reason: "a name cannot be empty")
        }
        description = arguments.value(Self.description).flatMap(\.nonBlank)
        json = arguments.flag(CommonOptions.json)
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
