#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A SQLite database from a device or another program (Kobo's `KoboReader.sqlite`, a Calibre
/// library's `metadata.db`, KOReader's statistics), read through the `sqlite3` program: the one way
/// bookclub reads such a file.
///
/// - Queries name their columns; blobs are selected as `hex(…)`.
/// - Nothing is left beside the file: a database without a `-wal` file is opened `immutable=1`; one
///   with a `-wal` file (whose changes only the WAL may hold) is read from a copy of both, made in
///   `scratch` and removed after.
/// - Each query has a time limit and a limit on what it prints; a file that is not a SQLite
///   database (another kind of file, or an encrypted one), a locked or damaged one, is refused with a
///   line that says so.
public struct SQLiteFile {
    /// The most a query may print.
    public static let largestOutput = 1 << 30
    /// Seconds a query may take.
    public static let timeLimit = 120.0

    /// The database's path, absolute.
    public let path: String
    /// The path as the reader gave it, for messages.
    public let shown: String
    /// What the file should be, for messages ("KOReader's statistics").
    public let what: String
    let fileSystem: FileSystem
    let runner: ProgramRunner
    let environment: [String: String]
    /// A folder that is not there yet, for a copy: made and removed here.
    let scratch: String

    /// - Throws: `BookClubError.unavailable` without `sqlite3`; `.badImport` for a file that is not a
    ///   SQLite database; `.io` for one that cannot be read.
    public init(
        _ path: String, shownAs shown: String, what: String, fileSystem: FileSystem, runner: ProgramRunner,
        environment: [String: String], scratch: String
    ) throws {
        (self.path, self.shown, self.what, self.fileSystem) = (path, shown, what, fileSystem)
        (self.runner, self.environment, self.scratch) = (runner, environment, scratch)
        guard runner.find("sqlite3", environment) != nil else {
            throw BookClubError.unavailable(
                "Reading \(what) needs the sqlite3 program; install it (the sqlite3 package)")
        }
        if let other = fileSystem.kind(path) {
            throw BookClubError.io(path: shown, cause: "it is \(other.rawValue), not a database")
        }
        guard try fileSystem.size(path) != nil else { throw BookClubError.io(path: shown, cause: "no such file") }
        guard try fileSystem.readRange(path, 0, 16) == Self.header else {
            throw BookClubError.badImport(
                path: shown, line: nil, detail: "not a SQLite database (another kind of file, or an encrypted one)")
        }
    }

    /// The first 16 bytes of every SQLite database.
    static let header = Data(utf8: "SQLite format 3\0")

    /// The rows `query` selects, decoded from `sqlite3 -json`.
    public func rows<Row: Decodable>(_ query: String, as type: Row.Type = Row.self) throws -> [Row] {
        let json = try run(query)
        // sqlite3 prints nothing at all for no rows.
        guard json.contains(where: { !Self.isSpace($0) }) else { return [] }
        do {
            return try JSONDecoder().decode([Row].self, from: json)
        } catch {
            throw BookClubError.badImport(
                path: shown, line: nil, detail: "its rows are not of the shape bookclub reads (\(error))")
        }
    }

    /// The tables and views of the database, by name.
    public func tables() throws -> Set<String> {
        struct Name: Decodable { var name: String }
        let names: [Name] = try rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        return Set(names.map(\.name))
    }

    /// The columns of a table, by name (empty for no such table).
    public func columns(of table: String) throws -> Set<String> {
        struct Name: Decodable { var name: String }
        let quoted = "'" + table.replacing("'", with: "''") + "'"
        let names: [Name] = try rows("SELECT name FROM pragma_table_info(\(quoted))")
        return Set(names.map(\.name))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// `sqlite3 -readonly -json` over the file (or its copy, when it has a `-wal` file).
    private func run(_ query: String) throws -> Data {
        let wal = path + "-wal"
        let hasWAL = (try? fileSystem.plainSize(wal)).flatMap { $0 } ?? 0 > 0
        var target = Self.uri(path) + "?immutable=1"
        var copy: String?
        if hasWAL {
            let folder = scratch
            try fileSystem.makeFolder(folder)
            for (from, to) in [(path, folder + "/db.sqlite"), (wal, folder + "/db.sqlite-wal")] {
                guard let data = try fileSystem.read(from) else {
                    throw BookClubError.io(path: from, cause: "no such file")
                }
                try fileSystem.writeAtomically(to, data)
            }
            copy = folder
            target = Self.uri(folder + "/db.sqlite")
        }
        defer {
            if let copy {
                for name in fileSystem.list(copy) { _ = fileSystem.remove(copy + "/" + name) }
                _ = fileSystem.remove(copy)
            }
        }
        let program = Program(
            "sqlite3", ["-readonly", "-json", target, query], environment: environment,
            output: .capture(limit: Self.largestOutput), timeout: Self.timeLimit, ownProcessGroup: true)
        let result = try runner.run(program)
        guard !result.truncated else {
            throw BookClubError.badImport(path: shown, line: nil, detail: "more rows than bookclub reads (1 GB)")
        }
        switch result.ending {
        case .exited(0):
            return result.output
        case .timedOut:
            throw BookClubError.badImport(
                path: shown, line: nil, detail: "sqlite3 took more than \(Int(Self.timeLimit)) seconds to read it")
        default:
            throw BookClubError.badImport(
                path: shown, line: nil,
                detail:
                    "sqlite3 could not read \(what) from it (it \(result.ending.problem ?? "failed")): a damaged file, one locked by a program writing to it, or not \(what)"
            )
        }
    }

    /// A `file:` URI of a path, with the characters a URI gives meaning to escaped.
    static func uri(_ path: String) -> String {
        var uri = "file:"
        for character in path {
            switch character {
            case "%": uri += "%25"
            case "?": uri += "%3F"
            case "#": uri += "%23"
            default: uri.append(character)
            }
        }
        return uri
    }
}
