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

extension ProgramRunner {
    /// Real processes: `posix_spawn(2)`, then `waitpid(2)`. The child starts with no signal blocked and
    /// SIGINT, SIGQUIT and SIGPIPE at their defaults, whatever bookclub does with them meanwhile.
    public static var live: ProgramRunner { ProgramRunner(find: LiveProgram.find, run: LiveProgram.run) }
}

enum LiveProgram {
    static func find(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.map({ String($0) + "/" + name }).first(where: { access($0, X_OK) == 0 })
    }

    static func run(_ program: Program) throws -> ProgramResult {
        guard let path = find(program.name, environment: program.environment) else {
            throw BookClubError.cannotStart(
                program: program.name, cause: program.name.contains("/") ? "not an executable" : "not found on PATH")
        }
        func failure(_ code: Int32 = errno) -> BookClubError {
            .cannotStart(program: path, cause: String(cString: strerror(code)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }

        switch program.input {
        case .null: posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        case .inherit: break
        case .bytes(let bytes):
            let file = try temporaryFile(holding: bytes, environment: program.environment, failure: failure)
            childEnds.append(file)
            posix_spawn_file_actions_adddup2(&actions, file, STDIN_FILENO)
        }
        var captured: Int32?
        switch program.output {
        case .null: posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        case .inherit: break
        case .standardError: posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        case .capture:
            // Both ends close on exec: the child keeps only its standard output, so the pipe ends
            // when the child (and whatever it started) does.
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw failure() }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            captured = ends[0]
            childEnds.append(ends[1])
            posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        }
        defer { if let captured { close(captured) } }
        if !program.showsErrors { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var (noSignals, defaults) = (sigset_t(), sigset_t())
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        for number in [SIGINT, SIGQUIT, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)  // with POSIX_SPAWN_SETPGROUP: a group of its own
        let group = program.ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | group))

        var cArguments = ([path] + program.arguments).map { strdup($0) } + [nil]
        var cVariables = program.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cArguments + cVariables { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, &cArguments, &cVariables)
        for fd in childEnds { close(fd) }
        childEnds = []
        guard spawned == 0 else { throw failure(spawned) }

        let target = program.ownProcessGroup ? -pid : pid
        var deadline = program.timeout.map { ContinuousClock.now + .seconds(min(max($0, 0), 1e9)) }
        var result = ProgramResult(ending: .exited(0))
        if let captured, case .capture(let limit) = program.output {
            result.truncated = drain(captured, limit: limit, into: &result.output, until: deadline)
            if result.truncated { kill(target, SIGKILL) }
        }
        var status: Int32 = 0
        var timedOut = false
        // waitpid has no time-out of its own: with one, it is polled.
        while case let waited = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG), waited != pid {
            if waited < 0 && errno != EINTR { throw failure() }
            guard waited == 0 else { continue }
            if let end = deadline, ContinuousClock.now >= end {
                kill(target, SIGKILL)
                (timedOut, deadline) = (true, nil)
            } else {
                usleep(2_000)
            }
        }
        result.ending =
            timedOut ? .timedOut : status & 0x7F != 0 ? .signaled(status & 0x7F) : .exited((status >> 8) & 0xFF)
        return result
    }

    /// Reads `fd` to its end, or until `deadline`; `true` when there was more than `limit` bytes (those
    /// up to the limit are kept).
    private static func drain(
        _ fd: Int32, limit: Int, into output: inout Data, until deadline: ContinuousClock.Instant?
    ) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while deadline.map({ ContinuousClock.now < $0 }) ?? true {
            // In slices when there is a time-out, so that it is seen while the program prints nothing.
            let polled = poll(&ready, 1, deadline == nil ? -1 : 10)
            if polled == 0 || (polled < 0 && errno == EINTR) { continue }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            guard output.count + count <= limit else {
                output += buffer[..<(limit - output.count)]
                return true
            }
            output += buffer[..<count]
        }
        return false
    }

    /// An unlinked temporary file holding `bytes`, read from its start, in the environment's `TMPDIR`
    /// (an absolute one) or `/tmp`.
    private static func temporaryFile(
        holding bytes: Data, environment: [String: String], failure: (Int32) -> BookClubError
    ) throws -> Int32 {
        let folder = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((folder + "/bookclub-input-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { throw failure(errno) }
        _ = fcntl(file, F_SETFD, FD_CLOEXEC)
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        guard written == bytes.count, lseek(file, 0, SEEK_SET) == 0 else {
            let code = errno
            close(file)
            throw failure(code)
        }
        return file
    }
}
