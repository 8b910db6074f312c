import BookClubCore

struct UndoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "undo",
        abstract: "Revert the last command that changed your books or clubs.",
        discussion: """
            Run it again to revert the one before, up to 20 commands back (see bookclub history). \
            Settings and selections are not part of it.
            """,
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        guard let change = try env.storage.undo(lockTimeout: try env.settings().state.lockTimeout) else {
            throw CommandFailure("Nothing to undo.")
        }
        if json { try env.writeJSON(ChangeJSON(change)) }
        env.output.write("Undid `\(change.command.terminalSafe)`: \(change.summary.terminalSafe).", as: .message)
    }
}
