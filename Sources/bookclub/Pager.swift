import BookClubCore

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
    static func page(_ text: String, command: String, variables: [String: String]) -> Bool {
        guard let program = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init),
            Subprocess.find(program, environment: variables) != nil
        else { return false }
        var environment = variables
        // As git sets them: quit when one screen holds it all, keep colours, leave the screen as it is.
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        if environment["LV"] == nil { environment["LV"] = "-c" }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let words: [String] = ["/bin/sh", "-c", command]
        var arguments = words.map { strdup($0) } + [nil]
        var cVariables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for argument in arguments + cVariables { free(argument) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, &arguments, &cVariables)
        close(ends[0])
        guard spawned == 0 else {
            close(ends[1])
            return false
        }
        // A pager that quits early closes the pipe: the write then fails with EPIPE rather than the
        // signal ending bookclub. Ctrl-C and Ctrl-\ are the pager's while it runs.
        let handlers = [SIGPIPE, SIGINT, SIGQUIT].map { ($0, signal($0, SIG_IGN)) }
        defer { for (number, handler) in handlers { signal(number, handler) } }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            bytes = bytes.dropFirst(written)
        }
        close(ends[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return true
    }
}
