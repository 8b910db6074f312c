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
    let curl: Subprocess
    let userAgent: String
    /// Seconds a request may take in all.
    let timeout: Double

    /// The answer: the HTTP status, where a redirect leads, and the body, at most `limit` bytes.
    struct Response {
        var status: Int
        var location: String
        var body: Data
    }

    /// - Throws: `BookClubError.unavailable` when `curl` is not installed.
    init(environment: [String: String], userAgent: String, timeout: Double) throws {
        guard let curl = Subprocess("curl", environment: environment) else {
            throw BookClubError.unavailable("bookclub needs the curl program to reach Open Library; install curl")
        }
        self.curl = curl
        self.userAgent = userAgent
        self.timeout = timeout
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
            "--silent", "--proto", "=http,https", "--max-time", seconds, "--connect-timeout", seconds,
            "--max-filesize", String(limit), "--user-agent", userAgent, "--output", path, "--write-out",
            "%{http_code} %{redirect_url}", url,
        ]
        let (code, output, _) = try curl.run(arguments, limit: 4096)
        let written = String(decoding: output, as: UTF8.self)
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
}
