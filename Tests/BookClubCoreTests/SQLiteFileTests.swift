import Foundation
import Testing

@testable import BookClubCore

/// The one way bookclub reads a SQLite file: what only a WAL holds is read, nothing is left beside
/// the file, and a file that is not a database, or a damaged one, is refused in one line.
@Suite(.serialized) struct SQLiteFileTests {
    static let environment = ProcessInfo.processInfo.environment

    static func sqlite3(_ arguments: [String], input: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3"] + arguments
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        pipe.fileHandleForWriting.write(Data((input ?? "").utf8))
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func whatOnlyTheWALHoldsIsReadFromACopyAndNothingIsLeftBeside() throws {
        let folder = NSTemporaryDirectory() + "sqlite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/library #1?.db"
        try Self.sqlite3([
            database,
            "PRAGMA journal_mode=WAL; CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO book(title) VALUES ('in the file');",
        ])
        // A writer that stopped before its checkpoint: the second row is only in the WAL.
        try Self.sqlite3(
            [database], input: ".dbconfig no_ckpt_on_close on\nINSERT INTO book(title) VALUES ('only in the WAL');\n")
        #expect(FileManager.default.fileExists(atPath: database + "-wal"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let scratch = folder + "-scratch"
        let file = try SQLiteFile(
            database, shownAs: "library.db", what: "a library", fileSystem: .live, runner: .live,
            environment: Self.environment, scratch: scratch)
        struct Row: Decodable { var title: String }
        let rows: [Row] = try file.rows("SELECT title FROM book ORDER BY id")
        #expect(rows.map(\.title) == ["in the file", "only in the WAL"])
        #expect(try file.tables() == ["book"] && file.columns(of: "book") == ["id", "title"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before, "left beside the file")
        #expect(!FileManager.default.fileExists(atPath: scratch), "the copy was not removed")
    }

    @Test func aFileThatIsNoDatabaseOrADamagedOneIsRefusedInOneLine() throws {
        let folder = NSTemporaryDirectory() + "sqlite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func open(_ path: String) throws -> SQLiteFile {
            try SQLiteFile(
                path, shownAs: "x.db", what: "a library", fileSystem: .live, runner: .live,
                environment: Self.environment, scratch: folder + "/scratch")
        }
        try Data("not a database at all, but long enough".utf8).write(to: URL(fileURLWithPath: folder + "/text.db"))
        #expect(
            throws: BookClubError.badImport(
                path: "x.db", line: nil, detail: "not a SQLite database (another kind of file, or an encrypted one)")
        ) { try open(folder + "/text.db") }
        #expect(throws: BookClubError.io(path: "x.db", cause: "no such file")) { try open(folder + "/none.db") }
        // A database cut after its header: sqlite3 fails, and says so in one line.
        let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "shared/fixtures/ereaders/koreader-statistics.sqlite3")
        let data = try Data(contentsOf: real)
        try data.prefix(4096 + 100).write(to: URL(fileURLWithPath: folder + "/cut.db"))
        do {
            let rows: [[String: String]] = try open(folder + "/cut.db").rows("SELECT title FROM book")
            Issue.record("a cut database read \(rows)")
        } catch let error as BookClubError {
            guard case .badImport(_, _, let detail) = error else { throw error }
            #expect(detail.hasPrefix("sqlite3 could not read a library from it") && !detail.contains("\n"), "\(detail)")
        }
    }

    /// KOReader's statistics, cut and bit-flipped at random: every import ends in time with 0 or 65
    /// and a failed one leaves the store as it was.
    @Test func aDamagedStatisticsDatabaseNeverHarmsTheStore() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        #expect(try bookclub.run("add", "Dune").exitCode == 0)
        let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "shared/fixtures/ereaders/koreader-statistics.sqlite3")
        let original = Array(try Data(contentsOf: real))
        var random = SplitMix(seed: 38)
        for round in 0..<16 {
            var bytes = original
            if round % 2 == 0 {
                bytes = Array(bytes.prefix(16 + Int(random.next() % UInt64(bytes.count - 16))))
            } else {
                for _ in 0..<(1 + Int(random.next() % 16)) {
                    // Past the header, so that sqlite3 itself meets the damage.
                    let at = 16 + Int(random.next() % UInt64(bytes.count - 16))
                    bytes[at] ^= UInt8(1 << (random.next() % 8))
                }
            }
            let file = bookclub.home + "/statistics.sqlite3"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let before = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
            let result = try bookclub.run(["import", "koreader", file], timeLimit: 30)
            #expect([0, 65].contains(result.exitCode), "round \(round): \(result.exitCode) \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "round \(round)")
            if result.exitCode != 0 {
                #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == before, "round \(round)")
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bookclub.home).filter { $0.hasPrefix("statistics") }
                    == ["statistics.sqlite3"], "round \(round): left beside the file")
        }
    }
}
