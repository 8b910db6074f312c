import Foundation
import Testing

@testable import BookClubCore

/// A Calibre library read through the real `sqlite3`: the two real databases of
/// `../shared/fixtures/calibre`, and small libraries with custom columns made here with `sqlite3`.
enum Calibre {
    /// The path of a real database: `metadata-tome-47.db`.
    static func fixture(_ name: String) -> String { RealExports.shared("calibre/" + name) }

    static var isPresent: Bool { FileManager.default.fileExists(atPath: fixture("README.md")) }

    static let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

    static func library(_ path: String, shownAs shown: String? = nil) throws -> CalibreLibrary {
        try CalibreLibrary(
            path, shownAs: shown ?? (path as NSString).lastPathComponent, fileSystem: .live, runner: .live,
            environment: environment, scratch: NSTemporaryDirectory() + "bookclub-calibre-" + UUID().uuidString)
    }

    static func importFile(
        _ path: String, readColumn: String? = nil, dateReadColumn: String? = nil, prefix: String = "b"
    ) throws -> ImportFile {
        var next = 0
        return try library(path).importFile(
            readColumn: readColumn, dateReadColumn: dateReadColumn, now: Fixture.now,
            makeID: {
                next += 1
                return prefix + String(next)
            }, ids: .random)
    }

    /// A folder of its own in the temporary folder, removed by `remove`.
    static func scratchFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "bookclub-calibre-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `sqlite3 DATABASE` with `script` on its standard input.
    static func sqlite(_ database: String, _ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-bail", database]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 failed on \(script.prefix(200))")
    }

    /// The part of Calibre's schema bookclub reads, with two custom columns: `#read` (yes/no),
    /// `#date_read` (a date), and `#genre` (text, normalized), as Calibre 7 creates them.
    static let schema = """
        CREATE TABLE books (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL DEFAULT 'Unknown',
          sort TEXT, timestamp TIMESTAMP, pubdate TIMESTAMP, series_index REAL NOT NULL DEFAULT 1.0,
          author_sort TEXT, isbn TEXT DEFAULT '', lccn TEXT DEFAULT '', path TEXT NOT NULL DEFAULT '',
          flags INTEGER NOT NULL DEFAULT 1, uuid TEXT, has_cover BOOL DEFAULT 0, last_modified TIMESTAMP);
        CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, sort TEXT, link TEXT NOT NULL DEFAULT '');
        CREATE TABLE books_authors_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, author INTEGER NOT NULL);
        CREATE TABLE custom_columns (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, name TEXT NOT NULL,
          datatype TEXT NOT NULL, mark_for_delete BOOL DEFAULT 0 NOT NULL, editable BOOL DEFAULT 1 NOT NULL,
          display TEXT DEFAULT '{}' NOT NULL, is_multiple BOOL DEFAULT 0 NOT NULL, normalized BOOL NOT NULL);
        INSERT INTO custom_columns (id, label, name, datatype, normalized) VALUES
          (1, 'read', 'Read', 'bool', 0), (2, 'date_read', 'Date read', 'datetime', 0), (3, 'genre', 'Genre', 'text', 1);
        CREATE TABLE custom_column_1 (id INTEGER PRIMARY KEY AUTOINCREMENT, book INTEGER, value BOOL NOT NULL DEFAULT 1,
          UNIQUE(book));
        CREATE TABLE custom_column_2 (id INTEGER PRIMARY KEY AUTOINCREMENT, book INTEGER, value timestamp NOT NULL,
          UNIQUE(book));
        CREATE TABLE custom_column_3 (id INTEGER PRIMARY KEY AUTOINCREMENT, value TEXT NOT NULL, link TEXT NOT NULL DEFAULT '');
        CREATE TABLE books_custom_column_3_link (id INTEGER PRIMARY KEY AUTOINCREMENT, book INTEGER NOT NULL,
          value INTEGER NOT NULL);
        INSERT INTO authors (id, name) VALUES (1, 'Octavia E. Butler'), (2, 'Ursula K. Le Guin'),
          (3, 'Lastname| Firstname');
        INSERT INTO books (id, title, timestamp, pubdate, uuid) VALUES
          (1, 'Kindred', '2024-01-02 03:04:05.123456+00:00', '0101-01-01 00:00:00+00:00', 'u-1'),
          (2, 'The Dispossessed', '2024-01-03 10:00:00+02:00', '1974-05-01 00:00:00+00:00', 'u-2'),
          (3, 'Parable of the Sower', '2024-01-04 00:00:00+00:00', '1993-01-01 00:00:00+00:00', 'u-3'),
          (4, 'Unread', '2024-01-05 00:00:00+00:00', '', 'u-4');
        INSERT INTO books_authors_link (id, book, author) VALUES (1, 1, 1), (2, 2, 2), (3, 3, 1), (4, 4, 3);
        INSERT INTO custom_column_1 (book, value) VALUES (1, 1), (2, 0), (3, 1);
        INSERT INTO custom_column_2 (book, value) VALUES (1, '2024-06-29 11:00:00+00:00'), (2, '2024-07-01 11:00:00+00:00');
        """
}

@Suite(.enabled(if: Calibre.isPresent, "the real files are not here (../shared/fixtures/calibre); skipped"))
struct CalibreTests {
    @Test func theTomeLibraryBringsEveryBookWithItsAuthorsIdentifiersSeriesAndRatings() throws {
        let file = try Calibre.importFile(Calibre.fixture("metadata-tome-47.db"))
        let books = file.items.map(\.book)
        #expect(file.format == .calibre)
        #expect(books.count == 48)
        #expect(books.allSatisfy { $0.status == .unstarted && $0.readings.isEmpty })
        #expect(books.count { $0.isbn != nil } == 35)
        #expect(books.count { $0.rating != nil } == 9)
        #expect(books.count { $0.details?["calibre:series"] != nil } == 18)
        #expect(books.reduce(0) { $0 + ($1.details?["calibre:identifiers"]?.count ?? 0) } == 72)
        #expect(Set(books.compactMap(\.rating)).isSubset(of: [1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]))
        #expect(books.allSatisfy { $0.details?["calibre:uuid"]?.count == 1 })

        let eluria = try #require(books.first { $0.title == "The Little Sisters of Eluria" })
        #expect(eluria.details?["calibre:series_index"] == ["0.5"])
        #expect(eluria.author == "Stephen King")

        let fidgety = try #require(books.first { $0.title == "10% Happier" })
        #expect(fidgety.author == "Dan Harris")
        #expect(fidgety.contributors?.map(\.name) == ["Jeffrey Warren", "Carlye Adler"], "in link order")
        #expect(fidgety.added == Date(timeIntervalSince1970: 1_672_153_540), "2022-12-27 15:05:40+00:00")
        #expect(books.allSatisfy { $0.details?["calibre:identifiers"]?.contains { $0.hasPrefix("isbn:") } != true })
        #expect(books.contains { $0.details?["calibre:identifiers"]?.contains { $0.hasPrefix("goodreads:") } == true })
    }

    @Test func theTalebookLibraryKeepsItsCJKTextHalfStarsAndNoEmptyDate() throws {
        let file = try Calibre.importFile(Calibre.fixture("metadata-talebook-cjk.db"))
        let books = file.items.map(\.book)
        #expect(books.count == 13)
        let solitude = try #require(books.first { $0.title == "百年孤独" })
        #expect(solitude.author == "加西亚·马尔克斯")
        #expect(solitude.isbn == "9787544253994")
        #expect(solitude.rating == 4.5, "Calibre's 9 of 10")
        #expect(solitude.details?["calibre:identifiers"] == ["mobi-asin:bab6302a-b344-4e79-8ef4-c31391cdae81"])
        #expect(solitude.details?["calibre:pubdate"] == ["2011-06-01"])
        #expect(books.count { $0.isbn != nil } == 13)
        #expect(books.count { $0.details?["calibre:pubdate"] == nil } >= 1, "0101-01-01 is Calibre's empty date")
        #expect(!books.contains { $0.details?["calibre:pubdate"]?.first?.hasPrefix("0101") == true })
        #expect(books.count { $0.rating != nil } == 13)
        #expect(books.count { $0.details?["calibre:series"] != nil } == 9)
    }

    @Test(arguments: ["metadata-tome-47.db", "metadata-talebook-cjk.db"])
    func aSecondImportChangesNothing(_ name: String) throws {
        var library = Library()
        let first = library.merge(try Calibre.importFile(Calibre.fixture(name)))
        #expect(first.merged.isEmpty)
        let before = library
        let again = library.merge(try Calibre.importFile(Calibre.fixture(name), prefix: "again"))
        #expect(again.added.isEmpty)
        #expect(again.merged.allSatisfy { $0.matchIsInStore && !$0.changedTheBook })
        #expect(library == before)
        #expect(library.problem() == nil)
    }

    @Test func customColumnsAreListedAndMakeFinishedReadings() throws {
        let folder = try Calibre.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Calibre.sqlite(folder + "/metadata.db", Calibre.schema)
        let library = try Calibre.library(folder)
        #expect(
            try library.columns() == [
                .init(id: 1, label: "read", name: "Read", datatype: "bool", normalized: false),
                .init(id: 2, label: "date_read", name: "Date read", datatype: "datetime", normalized: false),
                .init(id: 3, label: "genre", name: "Genre", datatype: "text", normalized: true),
            ])

        let plain = try Calibre.importFile(folder).items.map(\.book)
        #expect(plain.allSatisfy { $0.status == .unstarted })
        #expect(
            plain.map(\.author) == [
                "Octavia E. Butler", "Ursula K. Le Guin", "Octavia E. Butler", "Lastname, Firstname",
            ])
        #expect(plain[0].details?["calibre:pubdate"] == nil)
        #expect(plain[1].added == Date(timeIntervalSince1970: 1_704_268_800), "10:00 at +02:00 is 08:00 UTC")

        let both = try Calibre.importFile(folder, readColumn: "#read", dateReadColumn: "date_read").items.map(\.book)
        #expect(both.map(\.status) == [.finished, .unstarted, .finished, .unstarted])
        #expect(both[0].readings.first?.ending?.date == Date(timeIntervalSince1970: 1_719_658_800))
        #expect(both[2].readings.first?.ending?.date == nil, "read, on a day Calibre does not know")

        let dates = try Calibre.importFile(folder, dateReadColumn: "DATE_READ").items.map(\.book)
        #expect(dates.map(\.status) == [.finished, .finished, .unstarted, .unstarted])

        var merged = Library()
        _ = merged.merge(try Calibre.importFile(folder, readColumn: "read", dateReadColumn: "date_read"))
        let before = merged
        _ = merged.merge(try Calibre.importFile(folder, readColumn: "read", dateReadColumn: "date_read", prefix: "x"))
        #expect(merged == before)

        #expect(
            throws: BookClubError.noCustomColumn(
                library: (folder as NSString).lastPathComponent + "/metadata.db", label: "#genre",
                problem: "it is a text column, not a yes/no column", known: ["#read", "#date_read", "#genre"])
        ) { try Calibre.importFile(folder, readColumn: "genre") }
        #expect(
            throws: BookClubError.noCustomColumn(
                library: (folder as NSString).lastPathComponent + "/metadata.db", label: "#readx", problem: nil,
                known: ["#read", "#date_read", "#genre"])
        ) { try Calibre.importFile(folder, readColumn: "readx") }
        #expect(throws: BookClubError.self) { try Calibre.importFile(folder, dateReadColumn: "read") }
    }

    @Test func calibreTimesAreReadWithTheirZoneAndNothingElseIsATime() {
        #expect(CalibreLibrary.time("2023-12-27 20:21:42.893813+00:00") == Date(timeIntervalSince1970: 1_703_708_502))
        #expect(CalibreLibrary.time("2023-12-27T20:21:42Z") == Date(timeIntervalSince1970: 1_703_708_502))
        #expect(CalibreLibrary.time("2023-12-27 21:21:42+01:00") == Date(timeIntervalSince1970: 1_703_708_502))
        #expect(CalibreLibrary.time("2023-12-27 19:51:42-00:30") == Date(timeIntervalSince1970: 1_703_708_502))
        #expect(CalibreLibrary.time("2023-12-27") == Date(timeIntervalSince1970: 1_703_635_200))
        for bad in [
            "", "2023-02-30", "2023-12-27 25:00:00", "2023-12-27 20:21:42+0", "yesterday", "2023-12-27 20",
            "0000-01-01",
        ] {
            #expect(CalibreLibrary.time(bad) == nil, "\(bad)")
        }
    }

    @Test func whatIsNotACalibreLibraryIsRefused() throws {
        let folder = try Calibre.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(
            throws: BookClubError.badImport(
                path: "lib/metadata.db", line: nil, detail: "no such file: a Calibre library's folder holds metadata.db"
            )
        ) { try Calibre.library(folder, shownAs: "lib") }
        try Calibre.sqlite(folder + "/other.db", "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT);")
        #expect(
            throws: BookClubError.badImport(
                path: "other.db", line: nil, detail: "not a Calibre library (no `authors` table)")
        ) { try Calibre.importFile(folder + "/other.db") }
        #expect(
            throws: BookClubError.unavailable(
                "Reading a Calibre library needs the sqlite3 program; install it (the sqlite3 package)")
        ) {
            try CalibreLibrary(
                folder + "/other.db", shownAs: "other.db", fileSystem: .live, runner: .live,
                environment: ["PATH": folder], scratch: folder + "/scratch")
        }
    }
}
