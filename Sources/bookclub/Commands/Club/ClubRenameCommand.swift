import BookClubCore

struct ClubRenameCommand: Command {
    static let club = Argument(name: "club", help: "The club.")
    static let name = Argument(name: "name", help: "Its new name.")
    static let configuration = CommandConfiguration(
        name: "rename",
        abstract: "Rename a club.",
        examples: ["bookclub club rename scifi \"Speculative Fiction\""],
        arguments: [
            club,
            name,
        ],
        options: [CommonOptions.json])

    var reference: String
    var name: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[Self.club] ?? ""
        name = try arguments[Self.name]?.trimmed ?? ""
        json = arguments[CommonOptions.json]
        guard !name.isEmpty else {
            throw ParseError.invalidValue(value: name, label: "<name>", reason: "a name cannot be empty")
        }
    }

    func run(in session: Session) throws {
        let store = try session.library(forWriting: true)
        let club = try store.state.resolveClub(reference)
        try store.update { try $0.renameClub(club.id, to: name) }
        if json, let renamed = store.state.clubs.first(where: { $0.id == club.id }) {
            try session.writeJSON(ClubJSON(renamed, library: store.state, now: session.now()))
        }
        session.output.write(
            store.hasUnsavedChanges
                ? "Renamed '\(club.name)' to '\(name)'."
                : "The club is already called '\(name)'; nothing changed.", as: .message)
    }
}
