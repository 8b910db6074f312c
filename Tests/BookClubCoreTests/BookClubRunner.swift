import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `bookclub` executable against a temporary home, as a user's shell would.
struct BookClubRunner {
    struct Result: Equatable {
        var stdout: String
        var stderr: String
        var exitCode: Int32
        /// Ended by a signal rather than an exit.
        var signalled = false
    }

    let home: String
    var environment: [String: String]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TZ": Self.timeZoneName,
            "COLUMNS": "100", "LANG": "C.UTF-8",
            // No test reaches the internet: Open Library is a closed port unless a test serves it.
            "BOOKCLUB_OPENLIBRARY_URL": Self.nowhere, "BOOKCLUB_COVERS_URL": Self.nowhere,
        ]
    }

    /// A port nothing listens on (discard), refused at once.
    static let nowhere = "http://127.0.0.1:9"

    /// The reader's zone for every run: the suite's own `TZ` (CI runs it under several), else UTC.
    static let timeZoneName = ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 } ?? "UTC"

    /// The runner's zone as Foundation knows it, for computing what bookclub should print.
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(
            identifier: timeZoneName.hasPrefix(":") ? String(timeZoneName.dropFirst()) : timeZoneName)!
        return calendar
    }

    /// `2026-11-20`: the reader's day `offset` days from today, in the runner's zone.
    static func isoDay(_ offset: Int = 0) -> String {
        let calendar = calendar
        let day = calendar.dateComponents(
            [.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: Date())!)
        return String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
    }

    /// `2024-01-31T17:00:00Z`: noon of a day in the runner's zone, as bookclub stores it.
    static func noon(_ day: String) -> String {
        let parts = day.split(separator: "-").map { Int($0)! }
        let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
        return ISO8601DateFormatter().string(from: date)
    }

    var storePath: String { home + "/.local/share/bookclub/store.json" }

    /// The store's files by name, with their bytes (the lock file aside).
    func storeFiles() -> [String: Data] {
        let folder = (storePath as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.filter { !$0.hasSuffix(".lock") }.map {
                ($0, FileManager.default.contents(atPath: folder + "/" + $0) ?? Data())
            })
    }
    var settingsPath: String { home + "/.config/bookclub/settings.json" }

    /// `$BOOKCLUB_TEST_BINARY` when set (to test a release build), else the executable beside the
    /// test bundle, as `swift build` leaves it.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["BOOKCLUB_TEST_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug"),
        ]
        for folder in candidates {
            var url = folder
            while url.path != "/" {
                let binary = url.appendingPathComponent("bookclub")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: binary.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    return binary
                }
                url.deleteLastPathComponent()
            }
        }
        return candidates[2].appendingPathComponent("bookclub")
    }

    @discardableResult
    func run(_ arguments: String..., input: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        try run(arguments, input: input, environment: extra)
    }

    /// Runs bookclub to its end. With `timeLimit`, it is killed after that many seconds (by
    /// `timeout(1)`), and `Result.signalled` tells a run a signal ended (a trap, a crash, the limit).
    /// With `program`, runs that instead (a shell that runs bookclub), in the same home.
    func run(
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
        unsetting: [String] = [],
        timeLimit: Int? = nil, program: String? = nil
    ) throws -> Result {
        let process = Process()
        if let program {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else if let timeLimit {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["-s", "KILL", String(timeLimit), Self.executable.path] + arguments
        } else {
            process.executableURL = Self.executable
            process.arguments = arguments
        }
        var variables = environment.merging(extra) { $1 }
        for name in unsetting { variables[name] = nil }
        process.environment = variables
        process.currentDirectoryURL = URL(fileURLWithPath: home)
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        // Standard error is read meanwhile, so that a command that fills both pipes cannot stall.
        nonisolated(unsafe) var err = Data()
        let reader = Thread { err = stderr.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1_000) }
        let status = process.terminationStatus
        return Result(
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            exitCode: status,
            signalled: process.terminationReason == .uncaughtSignal
                || (timeLimit != nil && (status == 124 || status == 137)))
    }

    /// Starts bookclub without waiting for it, its output thrown away (for concurrency and signal tests).
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for a started process to end, for at most `seconds`: one still running then is killed
    /// and recorded as hung, so that a command that never ends fails its test rather than the whole run.
    static func waitForExit(_ process: Process, seconds: Double = 60) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            Issue.record("bookclub \(process.arguments ?? []) was still running after \(Int(seconds)) s: killed")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// Adds a book and returns its id.
    func add(_ title: String, _ options: String...) throws -> String {
        let result = try run(["add", title] + options)
        #expect(result.exitCode == 0, "add \(title): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func json(_ arguments: String...) throws -> Any {
        let result = try run(arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: home)
    }
}

/// Writes a program (a script starting `#!/bin/sh`) that a test's bookclub runs: a pager, a hook, a
/// browser. Written close-on-exec to a file of its own, then renamed into place: no program another
/// test starts meanwhile keeps it open for writing, which would make starting it fail ("text file
/// busy"), and a program running while it is written again keeps the one it started with.
func writeProgram(_ text: String, to path: String) throws {
    func failure(_ what: String) -> any Error {
        CocoaError(
            .fileWriteUnknown,
            userInfo: [
                NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(errno)))",
            ])
    }
    let written = path + ".new"
    let descriptor = open(written, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw failure("cannot create \(written)") }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
            close(descriptor)
            throw failure("cannot write \(written)")
        }
        offset += count
    }
    // Closed before it takes the name: a file open for writing cannot be started.
    guard fchmod(descriptor, 0o755) == 0, close(descriptor) == 0, rename(written, path) == 0 else {
        throw failure("cannot put \(path) in place")
    }
}
