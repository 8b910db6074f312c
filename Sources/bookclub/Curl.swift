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

/// HTTP GET through the `curl` program: the static executable cannot link FoundationNetworking. Its
/// arguments are passed to it directly, never through a shell, and every URL starts with a base
/// bookclub was given, so nothing typed becomes an option of curl.
struct Curl {
    /// The `curl` program found on `PATH`.
    let program: String
    let userAgent: String
    /// Seconds a request may take in all.
    let timeout: Double
    let environment: [String: String]

    /// The answer: the HTTP status, where a redirect leads, and the body, at most `limit` bytes.
    struct Response {
        var status: Int
        var location: String
        var body: Data
    }

    /// - Throws: `BookClubError.unavailable` when `curl` is not installed.
    init(environment: [String: String], userAgent: String, timeout: Double) throws {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        guard let program = folders.map({ String($0) + "/curl" }).first(where: { access($0, X_OK) == 0 }) else {
            throw BookClubError.unavailable("bookclub needs the curl program to reach Open Library; install curl")
        }
        self.program = program
        self.userAgent = userAgent
        self.timeout = timeout
        self.environment = environment
    }

    /// Fetches `url` (not following a redirect: the caller does, each its own request) into a
    /// temporary file in `folder`, then reads it: an answer over `limit` bytes is refused, and
    /// nothing of it is left behind.
    func get(_ url: String, limit: Int, folder: String, service: String) throws -> Response {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var template = Array((folder + "/.download-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { throw BookClubError.io(path: folder, cause: String(cString: strerror(errno))) }
        defer { close(file) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(path) }

        let seconds = String(max(1, Int(timeout.rounded(.up))))
        let arguments = [
            program, "--silent", "--proto", "=http,https", "--max-time", seconds, "--connect-timeout", seconds,
            "--max-filesize", String(limit), "--user-agent", userAgent, "--output", path, "--write-out",
            "%{http_code} %{redirect_url}", url,
        ]
        let (code, written) = try run(arguments)
        switch code {
        case 0: break
        case 6: throw BookClubError.unavailable("Cannot reach \(service): its name does not resolve (no network?)")
        case 7: throw BookClubError.unavailable("Cannot reach \(service): the connection was refused (no network?)")
        case 28:
            throw BookClubError.unavailable("\(service) did not answer within the networkTimeout of \(seconds) s")
        case 63: throw BookClubError.badAnswer("\(service) sent an answer larger than \(limit / 1_000_000) MB")
        default: throw BookClubError.unavailable("Cannot reach \(service): curl failed with exit code \(code)")
        }
        let parts = written.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let status = Int(first), (100...599).contains(status) else {
            throw BookClubError.badAnswer("\(service) sent no HTTP status")
        }
        var info = stat()
        guard fstat(file, &info) == 0 else {
            throw BookClubError.io(path: path, cause: String(cString: strerror(errno)))
        }
        guard Int(info.st_size) <= limit else {
            throw BookClubError.badAnswer("\(service) sent an answer larger than \(limit / 1_000_000) MB")
        }
        guard let body = FileManager.default.contents(atPath: path) else {
            throw BookClubError.io(path: path, cause: "cannot be read")
        }
        return Response(status: status, location: parts.count > 1 ? String(parts[1]) : "", body: body)
    }

    /// Runs curl with no standard input and standard error, and returns its exit code and what it
    /// wrote on standard output (the `--write-out`).
    private func run(_ arguments: [String]) throws -> (Int32, String) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw BookClubError.unavailable("Cannot start curl: no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        var cArguments = arguments.map { strdup($0) } + [nil]
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
        var buffer = [UInt8](repeating: 0, count: 256)
        while output.count < 4096 {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = status & 0x7F != 0 ? -1 : (status >> 8) & 0xFF
        return (code, String(decoding: output, as: UTF8.self))
    }
}
