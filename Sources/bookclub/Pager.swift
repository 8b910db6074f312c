import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Output taller than the terminal goes through a pager, as git's does: `$BOOKCLUB_PAGER`, else
/// `$PAGER`, else `less -FRX`, run by `/bin/sh` so that a pager may carry its own options.
enum Pager {
    /// The pager's command line; `nil` when paging is off (an empty value, or `cat`).
    static func command(_ variables: [String: String]) -> String? {
        let command = (variables["BOOKCLUB_PAGER"] ?? variables["PAGER"] ?? "less -FRX").trimmed
        return command.isEmpty || command == "cat" ? nil : command
    }

    /// Sends `text` through `command`, and waits for the pager to end. Returns `false`, having sent
    /// nothing, when its program is not found or cannot be started, so that the text is printed
    /// as it is; a pager quit before the end (`q` in less) is not a failure.
    static func page(_ text: String, command: String, variables: [String: String], runner: ProgramRunner) -> Bool {
        guard let program = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init),
            runner.find(program, variables) != nil
        else { return false }
        var environment = variables
        // As git sets them: quit when one screen holds it all, keep colours, leave the screen as it is.
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        if environment["LV"] == nil { environment["LV"] = "-c" }
        // Ctrl-C and Ctrl-\ are the pager's while it runs (it starts with them at their defaults).
        let handlers = [SIGINT, SIGQUIT].map { ($0, signal($0, SIG_IGN)) }
        defer { for (number, handler) in handlers { signal(number, handler) } }
        let pager = Program.shell(command, environment: environment, input: .bytes(Data(text.utf8)))
        return (try? runner.run(pager)) != nil
    }
}
