import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HTTP GET through the `curl` program: the static executable cannot link FoundationNetworking. Its
/// arguments are passed to it directly, never through a shell, and every URL starts with a base
/// bookclub was given, so nothing typed becomes an option of curl.
struct Curl {
    let runner: ProgramRunner
    let environment: [String: String]
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
    init(environment: [String: String], runner: ProgramRunner, userAgent: String, timeout: Double) throws {
        guard runner.find("curl", environment) != nil else {
            throw BookClubError.unavailable("bookclub needs the curl program to reach Open Library; install curl")
        }
        self.runner = runner
        self.environment = environment
        self.userAgent = userAgent
        self.timeout = timeout
    }

    /// Fetches `url`, not following a redirect (the caller does, each its own request): an answer over
    /// `limit` bytes is refused. The body comes on curl's standard output, followed by a line of its
    /// own with the status and where a redirect leads.
    func get(_ url: String, limit: Int, service: String) throws -> Response {
        let seconds = String(max(1, Int(timeout.rounded(.up))))
        let arguments = [
            "--silent", "--proto", "=http,https", "--max-time", seconds, "--connect-timeout", seconds,
            "--max-filesize", String(limit), "--user-agent", userAgent, "--output", "-", "--write-out",
            "\n%{http_code} %{redirect_url}", url,
        ]
        let result = try runner.run(
            Program("curl", arguments, environment: environment, output: .capture(limit: limit + 4096)))
        let tooLarge = BookClubError.badAnswer("\(service) sent an answer larger than \(limit / 1_000_000) MB")
        switch result.status {
        case _ where result.truncated: throw tooLarge
        case 0: break
        case 6: throw BookClubError.unavailable("Cannot reach \(service): its name does not resolve (no network?)")
        case 7: throw BookClubError.unavailable("Cannot reach \(service): the connection was refused (no network?)")
        case 28:
            throw BookClubError.unavailable("\(service) did not answer within the networkTimeout of \(seconds) s")
        case 63: throw tooLarge
        default: throw BookClubError.unavailable("Cannot reach \(service): curl failed with exit code \(result.status)")
        }
        let output = result.output
        let end = output.lastIndex(of: 0x0A) ?? output.endIndex
        let parts = String(decoding: output[end...].dropFirst(), as: UTF8.self).split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let status = Int(first), (100...599).contains(status) else {
            throw BookClubError.badAnswer("\(service) sent no HTTP status")
        }
        guard end - output.startIndex <= limit else { throw tooLarge }
        return Response(
            status: status, location: parts.count > 1 ? String(parts[1]) : "", body: Data(output[..<end]))
    }
}
