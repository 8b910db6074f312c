import BookClubCore

/// Opens the user's editor the way git does: `$VISUAL`, else `$EDITOR`, else `vi`, run by the shell so
/// that the variable may hold arguments (`code --wait`).
enum Editor {
    static func command(environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name]?.trimmed, !value.isEmpty { return value }
        }
        return "vi"
    }

    /// Runs `/bin/sh -c 'COMMAND "$@"' COMMAND PATH` on this terminal and waits for it.
    static func run(_ command: String, path: String, environment: [String: String], runner: ProgramRunner) throws {
        let ending: ProgramResult.Ending
        do {
            ending = try runner.run(.shell(command, arguments: [path], environment: environment)).ending
        } catch BookClubError.cannotStart(_, let cause) {
            throw CommandFailure("Cannot start the editor '\(command)': \(cause); nothing was logged.")
        }
        if let problem = ending.problem {
            throw CommandFailure("The editor '\(command)' \(problem); nothing was logged.")
        }
    }
}
