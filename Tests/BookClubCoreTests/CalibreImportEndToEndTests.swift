import Foundation
import Testing

/// `bookclub import calibre` end to end, on the real databases and on small ones made here.
@Suite(.enabled(if: Calibre.isPresent, "the real files are not here (../shared/fixtures/calibre); skipped"))
struct CalibreImportEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func aRealLibraryImportsOnceAndASecondImportChangesNothingNorLeavesAnythingBesideIt() throws {
        defer { bookclub.cleanUp() }
        let file = Calibre.fixture("metadata-tome-47.db")
        let folder = (file as NSString).deletingLastPathComponent
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()

        let plan = try bookclub.run("import", "calibre", file, "--dry-run")
        #expect(plan.exitCode == 0, "\(plan.stderr)")
        #expect(plan.stdout.split(separator: "\n").count == 48)
        #expect(plan.stdout.contains("add   '10% Happier' by Dan Harris: not started"))
        #expect(plan.stderr.hasSuffix("\nWould import 48 books: 48 not started; 0 already in the store.\n"))

        let imported = try bookclub.run("import", "calibre", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr == "Imported 48 books: 48 not started; 0 already in the store.\n")
        let store = bookclub.storeFiles()
        let again = try bookclub.run("import", "calibre", file, "--json")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stderr == "Imported 0 books; 48 already in the store.\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(json["source"] as? String == "calibre")
        #expect(json["alreadyInStore"] as? Int == 48)
        #expect(bookclub.storeFiles() == store, "the second import changes nothing")

        let book = try #require(try bookclub.json("show", "10% Happier", "--json") as? [String: Any])
        #expect(book["author"] as? String == "Dan Harris")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)

        let cjk = try bookclub.run("import", "calibre", Calibre.fixture("metadata-talebook-cjk.db"))
        #expect(cjk.stderr == "Imported 13 books: 13 not started; 0 already in the store.\n")
        #expect(try bookclub.run("show", "百年孤独").stdout.contains("4.5/5"))
    }

    @Test func customColumnsAreListedAndNamedOnesFinishBooks() throws {
        defer { bookclub.cleanUp() }
        let folder = bookclub.home + "/Calibre Library"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Calibre.sqlite(folder + "/metadata.db", Calibre.schema)

        let columns = try bookclub.run("import", "calibre", "Calibre Library", "--columns")
        #expect(columns.exitCode == 0, "\(columns.stderr)")
        #expect(
            columns.stdout == """
                #read       Read       bool
                #date_read  Date read  datetime
                #genre      Genre      text

                """)
        #expect(columns.stderr == "")
        let listed = try #require(
            try bookclub.json("import", "calibre", "Calibre Library", "--columns", "--json") as? [String: Any])
        #expect((listed["columns"] as? [[String: Any]])?.first?["datatype"] as? String == "bool")
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath), "--columns opens no store")

        let imported = try bookclub.run(
            "import", "calibre", "Calibre Library/", "--read-column", "#read", "--date-read-column", "date_read")
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr == "Imported 4 books: 2 finished, 2 not started; 0 already in the store.\n")
        let kindred = try #require(try bookclub.json("show", "kindred", "--json") as? [String: Any])
        #expect(kindred["status"] as? String == "finished")

        let wrong = try bookclub.run("import", "calibre", "Calibre Library", "--read-column", "genre")
        #expect(wrong.exitCode == 1)
        #expect(
            wrong.stderr
                == "Error: Calibre Library/metadata.db: the custom column #genre: it is a text column, not a yes/no column; its custom columns: #read, #date_read, #genre. Nothing was imported.\n"
        )
    }

    struct UsageCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var error: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        UsageCase(arguments: ["goodreads", "x.csv", "--columns"], error: "Error: --columns goes with calibre only"),
        UsageCase(
            arguments: ["koreader", "x", "--date-read-column", "d"],
            error: "Error: --date-read-column goes with calibre only"),
        UsageCase(
            arguments: ["calibre", "-"],
            error: "Error: The value '-' is invalid for '<file>': calibre reads a library's folder or its metadata.db"),
        UsageCase(
            arguments: ["calibre", "lib", "--columns", "--read-column", "read"],
            error: "Error: --columns lists the columns and imports nothing; it goes with no --read-column"),
        UsageCase(
            arguments: ["calibre", "lib", "--read-column", " "],
            error: "Error: The value ' ' is invalid for '<label>': a column's label cannot be empty"),
    ])
    func optionsOfCalibreAreUsageErrorsElsewhere(_ usage: UsageCase) throws {
        defer { bookclub.cleanUp() }
        let result = try bookclub.run(["import"] + usage.arguments)
        #expect(result.exitCode == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == usage.error)
    }

    @Test func withoutSQLite3OrALibraryTheImportSaysSoInOneLine() throws {
        defer { bookclub.cleanUp() }
        let file = Calibre.fixture("metadata-tome-47.db")
        let without = try bookclub.run(["import", "calibre", file], environment: ["PATH": bookclub.home])
        #expect(without.exitCode == 69)
        #expect(
            without.stderr
                == "Error: Reading a Calibre library needs the sqlite3 program; install it (the sqlite3 package).\n")
        let empty = try bookclub.run("import", "calibre", ".")
        #expect(empty.exitCode == 65)
        #expect(
            empty.stderr
                == "Error: ./metadata.db: no such file: a Calibre library's folder holds metadata.db; nothing was imported.\n"
        )
        let missing = try bookclub.run("import", "calibre", "nowhere.db")
        #expect(missing.exitCode == 74)
        #expect(missing.stderr == "Error: nowhere.db: no such file\n")
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
    }
}

/// Damaged and hostile Calibre databases, made from the real ones: each ends in time, with 0 or 65,
/// one line on standard error and no raw control character, and the store untouched on a failure.
@Suite(.enabled(if: Calibre.isPresent, "the real files are not here (../shared/fixtures/calibre); skipped"))
struct CalibreImportFuzzTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    /// A small deterministic generator (SplitMix64), so that a failing case can be run again.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// What to do to a copy of a real database, and the exit codes that may follow.
    enum Damage {
        case bytes((inout Data) -> Void)
        case sql(String)
    }

    static func cases(_ original: Data) -> [(String, Damage, Set<Int32>)] {
        var cases: [(String, Damage, Set<Int32>)] = []
        for size in [0, 15, 16, 100, 1024, 4096, original.count / 2, original.count - 1] {
            cases.append(("cut to \(size) bytes", .bytes { $0 = $0.prefix(size) }, [0, 65]))
        }
        var generator = Generator(
            state: UInt64(ProcessInfo.processInfo.environment["BOOKCLUB_CALIBRE_SEED"] ?? "") ?? 47)
        for index in 0..<12 {
            let flips = (0..<(1 + index % 4)).map { _ in
                (
                    Int.random(in: 0..<original.count, using: &generator),
                    UInt8(1 << Int.random(in: 0..<8, using: &generator))
                )
            }
            cases.append(
                ("bit flips \(flips.map(\.0))", .bytes { data in for (at, bit) in flips { data[at] ^= bit } }, [0, 65]))
        }
        cases += [
            ("without authors", .sql("DROP TABLE authors;"), [65]),
            ("books without a uuid column", .sql("ALTER TABLE books DROP COLUMN uuid;"), [65]),
            ("books is a view", .sql("ALTER TABLE books RENAME TO b; CREATE VIEW books AS SELECT * FROM b;"), [65]),
            ("no optional tables", .sql("DROP TABLE tags; DROP TABLE identifiers; DROP TABLE comments;"), [0]),
            (
                "an identifiers table of another shape", .sql("DROP TABLE identifiers; CREATE TABLE identifiers (x);"),
                [0]
            ),
            (
                "NUL and controls in text",
                .sql(
                    """
                    UPDATE books SET title = 'A' || char(0) || 'B' || char(27) || '[31m red' || char(7) WHERE id = (SELECT min(id) FROM books);
                    UPDATE authors SET name = char(8238) || name || char(13) || char(10) || 'x';
                    UPDATE tags SET name = name || char(10) || char(27) || ']0;title' || char(7);
                    """), [0]
            ),
            ("an empty title", .sql("UPDATE books SET title = '  ' WHERE id = (SELECT min(id) FROM books);"), [65]),
            (
                "huge values",
                .sql(
                    """
                    UPDATE books SET series_index = 1e308, timestamp = '9999-12-31 23:59:59+00:00', pubdate = '99999-01-01';
                    """), [65]
            ),
            ("a huge series index", .sql("UPDATE books SET series_index = 9.9e300;"), [0, 65]),
            (
                "a long title",
                .sql("UPDATE books SET title = printf('%.*c', 1000000, 'x') WHERE id = (SELECT max(id) FROM books);"),
                [0]
            ),
            ("a date that is not one", .sql("UPDATE books SET timestamp = 'yesterday';"), [65]),
            (
                "Calibre's empty date everywhere",
                .sql(
                    "UPDATE books SET timestamp = '0101-01-01 00:00:00+00:00', pubdate = '0101-01-01 00:00:00+00:00';"),
                [0]
            ),
            (
                "a rating of 11",
                .sql(
                    "PRAGMA ignore_check_constraints = 1; UPDATE ratings SET rating = 11 WHERE id = (SELECT max(id) FROM ratings);"
                ), [65]
            ),
            (
                "a rating of -1",
                .sql(
                    "PRAGMA ignore_check_constraints = 1; UPDATE ratings SET rating = -1 WHERE id = (SELECT min(id) FROM ratings);"
                ), [65]
            ),
            (
                "a rating of text",
                .sql(
                    "PRAGMA ignore_check_constraints = 1; UPDATE ratings SET rating = 'five' WHERE id = (SELECT min(id) FROM ratings);"
                ), [0]
            ),
            ("a link to no book", .sql("INSERT INTO books_authors_link (book, author) VALUES (99999999, 1);"), [0]),
            (
                "invalid UTF-8",
                .sql("UPDATE books SET title = CAST(x'fffe41' AS TEXT) WHERE id = (SELECT min(id) FROM books);"),
                [0, 65]
            ),
        ]
        return cases
    }

    @Test func damagedDatabasesEndInTimeWithADocumentedCodeAndTheStoreUntouchedOnFailure() throws {
        defer { bookclub.cleanUp() }
        let original = try Data(contentsOf: URL(fileURLWithPath: Calibre.fixture("metadata-tome-47.db")))
        #expect(try bookclub.run("add", "A book of my own").exitCode == 0)
        let folder = bookclub.home + "/fuzz"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let started = Date()
        for (index, (name, damage, codes)) in Self.cases(original).enumerated() {
            let path = folder + "/case-\(index).db"
            switch damage {
            case .bytes(let change):
                var data = original
                change(&data)
                try data.write(to: URL(fileURLWithPath: path))
            case .sql(let script):
                try original.write(to: URL(fileURLWithPath: path))
                try Calibre.sqlite(path, script)
            }
            let before = bookclub.storeFiles()
            let result = try bookclub.run(["import", "calibre", path], timeLimit: 30)
            #expect(!result.signalled, "\(name): no trap, in time")
            #expect(codes.contains(result.exitCode), "\(name): exit \(result.exitCode): \(result.stderr)")
            #expect(
                !result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F },
                "\(name): no raw control character")
            if result.exitCode != 0 {
                #expect(bookclub.storeFiles() == before, "\(name): the store is untouched")
                #expect(
                    result.stderr.hasPrefix("Error: ") && result.stderr.split(separator: "\n").count == 1, "\(name)")
                #expect(result.stdout == "")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        #expect(Date().timeIntervalSince(started) < 60, "the fuzz cases stay a matter of seconds")
    }
}
