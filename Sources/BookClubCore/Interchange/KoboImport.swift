#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `bookclub import kobo PATH` reads: a Kobo's `KoboReader.sqlite`, or the one of a mounted
/// Kobo (`.kobo/KoboReader.sqlite` under the folder), through `SQLiteFile`. What the rows mean is
/// `KoboLibrary`'s.
///
/// Every query names its columns and reads `content`, `Bookmark` and `Event` only: never `user`,
/// which holds the account's e-mail address and tokens.
public struct KoboImport {
    public var fileSystem: FileSystem
    /// Runs `sqlite3`.
    public var runner: ProgramRunner
    /// The variables `sqlite3` runs with (its `PATH` finds it).
    public var environment: [String: String]
    public var timeZone: Zone
    /// A folder that is not there yet, for a copy of a database that has a `-wal` file.
    public var scratch: String

    /// A larger `ExtraData` of an event is not read (it holds a few times, a hundred bytes).
    public static let largestExtraData = 1 << 20
    /// Where a Kobo keeps its database, under the folder it is mounted at.
    public static let databasePath = ".kobo/KoboReader.sqlite"

    public init(
        fileSystem: FileSystem, runner: ProgramRunner, environment: [String: String], timeZone: Zone, scratch: String
    ) {
        (self.fileSystem, self.runner) = (fileSystem, runner)
        (self.environment, self.timeZone, self.scratch) = (environment, timeZone, scratch)
    }

    /// The database at `path`, or under the folder at `path`.
    /// - Parameters:
    ///   - path: an absolute path.
    ///   - shown: the path as the reader gave it, for messages.
    /// - Throws: `BookClubError.badImport` for a file that is not a Kobo's database, or a folder with
    ///   none; `.io` for one that cannot be read; `.unavailable` without `sqlite3`.
    public func read(_ path: String, shownAs shown: String) throws -> ReaderImport {
        var (file, shownFile) = (path, shown)
        if fileSystem.kind(path) == .folder {
            let found = [Self.databasePath, "KoboReader.sqlite"].first { name in
                fileSystem.kind(path + "/" + name) == nil && (try? fileSystem.size(path + "/" + name)) ?? nil != nil
            }
            guard let found else {
                throw BookClubError.badImport(
                    path: shown, line: nil,
                    detail: "no \(Self.databasePath) in it; give the folder a Kobo is mounted at, or the file")
            }
            file = path + "/" + found
            shownFile = (shown.hasSuffix("/") ? shown : shown + "/") + found
        }
        let database = try SQLiteFile(
            file, shownAs: shownFile, what: "a Kobo's library", fileSystem: fileSystem, runner: runner,
            environment: environment, scratch: scratch)
        let tables = try database.tables()
        guard tables.contains("content") else {
            throw BookClubError.badImport(
                path: shownFile, line: nil,
                detail: "not a Kobo's library (it has no content table); a Kobo keeps it at \(Self.databasePath)")
        }
        let content = try database.columns(of: "content")
        let books = try rows(of: "content", KoboLibrary.bookColumns, where: "ContentType = 6", in: database)
        var chapters: [KoboLibrary.Row] = []
        var bookmarks: [KoboLibrary.Row] = []
        var events: [KoboLibrary.Row] = []
        if tables.contains("Bookmark") {
            bookmarks = try rows(of: "Bookmark", KoboLibrary.bookmarkColumns, where: nil, in: database)
        }
        if !bookmarks.isEmpty, content.contains("BookID") {
            chapters = try rows(
                of: "content", KoboLibrary.chapterColumns,
                where: "ContentType = 899 AND BookID IN (SELECT VolumeID FROM Bookmark)", in: database)
        }
        if tables.contains("Event") {
            events = try rows(
                of: "Event", KoboLibrary.eventColumns,
                where: "EventType IN (\(KoboLibrary.openedEvent), \(KoboLibrary.leftEvent))", in: database)
        }
        return KoboLibrary.read(
            books: books, chapters: chapters, bookmarks: bookmarks, events: events, origin: shownFile,
            timeZone: timeZone)
    }

    /// The rows of `columns` of `table`: a column the table lacks is `NULL`, unless it is required.
    func rows(of table: String, _ columns: [KoboLibrary.Column], where condition: String?, in database: SQLiteFile)
        throws -> [KoboLibrary.Row]
    {
        let present = try database.columns(of: table)
        let missing = columns.filter { $0.required && !present.contains($0.name) }.map(\.name)
        guard missing.isEmpty else {
            throw BookClubError.badImport(
                path: database.shown, line: nil,
                detail: "not a Kobo's library (its \(table) table has no \(missing.joined(separator: ", ")))")
        }
        let query = Self.query(table, columns, present: present, where: condition)
        return try database.rows(query, as: KoboLibrary.Row.self)
    }

    /// `SELECT "Title" AS title, NULL AS series, … FROM content WHERE …`: every column named, a blob
    /// as `hex(…)` when it is no larger than `largestExtraData`.
    static func query(_ table: String, _ columns: [KoboLibrary.Column], present: Set<String>, where condition: String?)
        -> String
    {
        let list = columns.map { column in
            guard present.contains(column.name) else { return "NULL AS \(column.alias)" }
            let name = "\"\(column.name)\""
            guard column.blob else { return "\(name) AS \(column.alias)" }
            return
                "CASE WHEN length(CAST(\(name) AS BLOB)) <= \(largestExtraData) THEN hex(\(name)) END AS \(column.alias)"
        }
        return "SELECT " + list.joined(separator: ", ") + " FROM \"\(table)\""
            + (condition.map { " WHERE " + $0 } ?? "")
    }
}
