import BookClubCore

struct ClubRenameCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rename",
        abstract: "Rename a club.",
        arguments: [
            ArgumentSpec(name: "club", help: "The club."),
            ArgumentSpec(name: "name", help: "Its new name."),
        ])

    var reference: String
    var name: String

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument("club") ?? ""
        name = arguments.argument("name")?.trimmed ?? ""
        guard !name.isEmpty else {
            throw ParseError.invalidValue(value: name, label: "<name>", reason: "a name cannot be empty")
        }
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        let club = try store.state.resolveClub(reference)
        if store.state.clubs.contains(where: { $0.id != club.id && $0.name.lowercased() == name.lowercased() }) {
            throw BookClubError.duplicateClub(name)
        }
        store.binding(\.clubs[store.state.clubIndex(of: club.id)!].name).wrappedValue = name
        env.output.write("Renamed '\(club.name.terminalSafe)' to '\(name.terminalSafe)'.", as: .message)
    }
}
