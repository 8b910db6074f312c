import BookClubCore

struct UndoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "undo",
        abstract: "Revert the last command that changed your books or clubs.",
        discussion: """
            Run it again to revert the one before, up to 20 commands back (see bookclub history). \
            Settings and selections are not part of it.
            """,
        examples: ["bookclub undo", "bookclub undo --json"],
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        guard let change = try session.storage.undo(lockTimeout: try session.settings().state.lockTimeout) else {
            throw CommandFailure("Nothing to undo.")
        }
        if json { try session.writeJSON(ChangeJSON(change)) }
        session.output.write("Undid `\(change.command)`: \(change.summary).", as: .message)
    }
}
