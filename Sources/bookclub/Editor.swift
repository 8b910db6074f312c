import BookClubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    static func run(_ command: String, path: String) throws {
        let arguments = ["/bin/sh", "-c", command + " \"$@\"", command, path]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &cArguments, environ)
        guard spawned == 0 else {
            throw CommandFailure(
                "Cannot start the editor '\(command)': \(String(cString: strerror(spawned))); nothing was logged.")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            throw CommandFailure(
                exited
                    ? "The editor '\(command)' exited with status \(code); nothing was logged."
                    : "The editor '\(command)' was stopped by signal \(status & 0x7F); nothing was logged.")
        }
    }
}
