import BookClubCore
import Foundation

/// Opens the user's editor the way git does: `$VISUAL`, else `$EDITOR`, else `vi`, run by the shell so
/// that the variable may hold arguments (`code --wait`).
enum Editor {
    static func command(environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return "vi"
    }

    static func run(_ command: String, path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " \"$@\"", command, path]
        do {
            try process.run()
        } catch {
            throw BookClubError.editorFailed("Cannot start the editor '\(command)': \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BookClubError.editorFailed(
                "The editor '\(command)' exited with status \(process.terminationStatus); nothing was logged.")
        }
    }
}
