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
    }

    let home: String
    var environment: [String: String]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TZ": "UTC",
            "COLUMNS": "100", "LANG": "C.UTF-8",
        ]
    }

    var storePath: String { home + "/.local/share/bookclub/store.json" }
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
                if FileManager.default.fileExists(atPath: binary.path, isDirectory: &isDirectory), !isDirectory.boolValue {
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

    func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: home)
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            exitCode: process.terminationStatus)
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
