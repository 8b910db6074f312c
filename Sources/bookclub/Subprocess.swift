import BookClubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A standard program bookclub runs where the platform has no library (`curl`, `sqlite3`): found on
/// `PATH`, given its arguments directly (never through a shell), with no standard input or error.
struct Subprocess {
    /// The program's path.
    let program: String
    let environment: [String: String]

    /// `nil` when no folder of `PATH` holds an executable `name`.
    init?(_ name: String, environment: [String: String]) {
        guard let program = Self.find(name, environment: environment) else { return nil }
        self.program = program
        self.environment = environment
    }

    /// The path of the executable `name` in a folder of `PATH`, or `name` itself when it is a path.
    static func find(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.map({ String($0) + "/" + name }).first(where: { access($0, X_OK) == 0 })
    }

    /// Runs the program and returns its exit code (-1 when a signal ended it) and at most `limit`
    /// bytes of its standard output, and whether it wrote more than that.
    func run(_ arguments: [String], limit: Int) throws -> (code: Int32, output: [UInt8], truncated: Bool) {
        let name = program.split(separator: "/").last.map(String.init) ?? program
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw BookClubError.unavailable("Cannot start \(name): no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        var cArguments = ([program] + arguments).map { strdup($0) } + [nil]
        var cVariables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for argument in cArguments + cVariables { free(argument) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program, &actions, nil, &cArguments, &cVariables)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else {
            throw BookClubError.unavailable("Cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var truncated = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            if output.count + count > limit {
                truncated = true
                kill(pid, SIGKILL)
                break
            }
            output += buffer[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = status & 0x7F != 0 ? -1 : (status >> 8) & 0xFF
        return (code, output, truncated)
    }
}
