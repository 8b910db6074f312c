import BookClubCore

struct ClubRenameCommand: Command {
    static let club = ArgumentSpec(name: "club", help: "The club.")
    static let name = ArgumentSpec(name: "name", help: "Its new name.")
    static let configuration = CommandConfiguration(
        name: "rename",
        abstract: "Rename a club.",
        arguments: [
            club,
            name,
        ])

    var reference: String
    var name: String

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument(Self.club) ?? ""
        name = arguments.argument(Self.name)?.trimmed ?? ""
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
