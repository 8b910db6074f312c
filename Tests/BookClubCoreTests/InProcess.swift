import BookClubCore
import Foundation

@testable import bookclub

/// Runs the command line in this process, with a file system of the test's choosing.
enum InProcess {
    struct Run {
        var code: Int32
        var stdout = ""
        var stderr = ""
    }

    static func run(
        _ arguments: [String], home: String, fileSystem: FileSystem = .live, stdin: [String] = [],
        variables: [String: String] = [:], onTerminal: Bool = false, answer: (() -> String?)? = nil,
        runner: ProgramRunner = .live
    ) -> Run {
        var result = Run(code: 0)
        var input = stdin[...]
        var context = Services(
            variables: [
                "HOME": home, "TZ": BookClubRunner.timeZoneName, "BOOKCLUB_OPENLIBRARY_URL": BookClubRunner.nowhere,
                "BOOKCLUB_COVERS_URL": BookClubRunner.nowhere,
            ].merging(variables) { $1 },
            terminal: Terminal(
                width: 80, lineWidth: nil, standardOutputIsTerminal: onTerminal, standardErrorIsTerminal: false,
                standardInputIsTerminal: answer != nil),
            fileSystem: fileSystem,
            write: { text, toStandardOutput in
                if toStandardOutput { result.stdout += text } else { result.stderr += text }
            })
        context.readLine = answer ?? { input.popFirst() }
        context.runner = runner
        result.code = CLI.run(arguments, services: context)
        return result
    }

}
