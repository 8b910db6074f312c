import Foundation
import Testing

@testable import BookClubCore

/// Qt's `QDataStream` as a Kobo writes an event's `ExtraData`: what it reads, and that no bytes
/// make it trap, allocate from a length it has not checked, or run long.
@Suite struct QtDataStreamTests {
    /// The `ExtraData` of the real file's event 1020 (three openings of *The Art of War*).
    static let opened =
        "000000010000001E006500760065006E007400540069006D0065007300740061006D00700073000000090000000003"
        + "000000030067A249C2000000030067A24B72000000030067A24B96"

    @Test func theRealEventIsAMapOfTimestamps() throws {
        let map = try QtDataStream.map(try #require(QtDataStream.bytes(hex: Self.opened)))
        #expect(map["eventTimestamps"] == .list([.uint(1_738_688_962), .uint(1_738_689_394), .uint(1_738_689_430)]))
        #expect(
            try KoboLibrary.timestamps(Self.opened)
                == [1_738_688_962, 1_738_689_394, 1_738_689_430].map {
                    Date(timeIntervalSince1970: $0)
                })
        #expect(try KoboLibrary.timestamps("") == [])
    }

    @Test func otherKindsOfValueAreReadOrSteppedOver() throws {
        // {"a": true, "b": "é", "c": [-1, 2.5], "d": {"e": null string}, "f": bytes 01 02, "g": a UTC QDateTime}
        var bytes: [UInt8] = [0, 0, 0, 6]
        func key(_ text: String) {
            let units = Array(text.utf16)
            bytes += [0, 0, 0, UInt8(units.count * 2)]
            for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        }
        key("a")
        bytes += [0, 0, 0, 1, 0, 1]
        key("b")
        bytes += [0, 0, 0, 10, 0, 0, 0, 0, 2, 0x00, 0xE9]
        key("c")
        bytes += [0, 0, 0, 9, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        bytes += [0, 0, 0, 6, 0] + Array(withUnsafeBytes(of: (2.5).bitPattern.bigEndian, Array.init))
        key("d")
        bytes += [0, 0, 0, 8, 0, 0, 0, 0, 1]
        key("e")
        bytes += [0, 0, 0, 10, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        key("f")
        bytes += [0, 0, 0, 12, 0, 0, 0, 0, 2, 1, 2]
        key("g")
        // Julian day 2440588 is 1970-01-01; 1000 ms; UTC.
        bytes += [0, 0, 0, 16, 0] + Array(withUnsafeBytes(of: Int64(2_440_588).bigEndian, Array.init))
        bytes += [0, 0, 0x03, 0xE8, 1]
        let map = try QtDataStream.map(bytes)
        #expect(map["a"] == .bool(true))
        #expect(map["b"] == .string("é"))
        #expect(map["c"] == .list([.int(-1), .double(2.5)]))
        #expect(map["d"]?["e"] == .string(nil))
        #expect(map["f"] == .bytes([1, 2]))
        #expect(map["g"] == .dateTime(Date(timeIntervalSince1970: 1)))
    }

    @Test(arguments: [
        ("FFFFFFFF", "a count of 4294967295 items in 0 bytes"),
        ("00000001" + "7FFFFFF0" + "0000000000", "the stream ends inside a value"),
        ("00000001" + "00000003" + "0000000000", "a string of an odd length"),
        ("00000001" + "00000002" + "0061" + "0000002A00", "a value of Qt type 42"),
        ("00000001" + "00000002" + "0061" + "0000000900" + "FFFFFFFF", "a count of 4294967295 items"),
        ("0000000000", "1 bytes after the map"),
        ("00000001" + "FFFFFFFF" + "0000000000", "a map key that is a null string"),
        ("ZZ", "not hexadecimal"),
    ])
    func hostileBytesAreRefusedWithWhere(_ hex: String, _ reason: String) {
        #expect {
            _ = try KoboLibrary.timestamps(hex)
        } throws: { error in
            (error as? QtDataStream.Failure)?.reason.contains(reason) == true
        }
    }

    @Test func nestingStopsAtItsDepthAndNoInputTraps() throws {
        // Lists in lists, each claiming one item, far deeper than allowed.
        let deep = "00000001" + "00000002" + "0061" + String(repeating: "0000000900" + "00000001", count: 1000)
        #expect(throws: QtDataStream.Failure.self) { try KoboLibrary.timestamps(deep) }
        // Every cut and a thousand random corruptions of the real event end in a value or a failure.
        let real = try #require(QtDataStream.bytes(hex: Self.opened))
        for end in 0..<real.count { _ = try? QtDataStream.map(Array(real[..<end])) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            var bytes = real
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? QtDataStream.map(bytes)
            _ = try? QtDataStream.variant(bytes)
        }
    }
}

/// The rows of a Kobo's library and what they mean, without a database.
@Suite struct KoboLibraryTests {
    @Test(arguments: [
        ("2024-09-01T20:55:40Z", 1_725_224_140.0),
        ("2025-02-04T17:16:33.795", 1_738_689_393),
        ("2013-05-15 12:34:56.000+02:00", 1_368_614_096),
    ])
    func koboTimesAreUTCUnlessTheySayOtherwise(_ text: String, _ seconds: Double) {
        #expect(KoboLibrary.time(from: text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["", "2024-13-01T00:00:00Z", "2024-09-01T25:00:00", "1e300", "2024-09-01T20:55:40 EST"])
    func otherTimesAreNone(_ text: String) {
        #expect(KoboLibrary.time(from: text) == nil)
    }

    @Test func sessionsPairEachOpeningWithTheLeavingAfterItAndAreCheckedAgainstTheTotal() {
        let day = Date(timeIntervalSince1970: 1_738_688_962)
        let opened = [day, day + 3600, day + 7200]
        // The second opening was never left (a crash): it has no session.
        let left = [day + 600, day + 7200 + 60]
        let sessions = KoboLibrary.sessions(opened: opened, left: left, key: "k", timeSpent: 0, timeZone: .utc)
        #expect(sessions.map(\.minutes) == [11])
        #expect(sessions.first?.time == KOReaderSidecar.day(from: "2025-02-04", timeZone: .utc))
        let within = KoboLibrary.sessions(opened: opened, left: left, key: "k", timeSpent: 500, timeZone: .utc)
        #expect(within.map(\.minutes) == [11], "within the slack of five minutes")
        // The device says only 2 minutes were read: the day is scaled down to them.
        let scaled = KoboLibrary.sessions(opened: opened, left: left, key: "k", timeSpent: 120, timeZone: .utc)
        #expect(scaled.map(\.minutes) == [2])
        let long = KoboLibrary.sessions(
            opened: [day], left: [day + 3600], key: "k", timeSpent: 600, timeZone: .utc)
        #expect(long.map(\.minutes) == [10])
        // A book left open for a day is not a session.
        #expect(
            KoboLibrary.sessions(opened: [day], left: [day + 86_400], key: "k", timeSpent: 0, timeZone: .utc).isEmpty)
    }

    @Test func whatIsNotTheReadersBookIsSkippedAndSaidWhy() {
        func row(_ id: String, _ cells: [String: KoboLibrary.Cell]) -> KoboLibrary.Row {
            ["id": .text(id), "title": .text("T " + id), "owner": .text("u")].merging(cells) { $1 }
        }
        let rows = [
            row("a", ["mimeType": .text("application/x-kobo-html+pocket")]),
            row("b", ["accessibility": .number(6)]),
            row("c", ["accessibility": .number(4)]),
            row("d", ["wishlist": .text("TRUE")]),
            row("e", ["expiration": .number(3)]),
            row("f", ["downloaded": .text("false")]),
            row("g", ["owner": .text("")]),
            row("file:///mnt/onboard/h.epub", ["owner": .text(""), "isbn": .text("urn:uuid:1234")]),
            row("i", ["authors": .text("Ann,Bo ,Unknown"), "isbn": .text("0-441-01359-7"), "series": .text("S")]),
            row("j", ["percentRead": .number(1e300), "lastRead": .text("2024-09-01T20:55:40Z")]),
        ]
        let imported = KoboLibrary.read(
            books: rows, chapters: [], bookmarks: [], events: [], origin: "k", timeZone: .utc)
        #expect(
            imported.skipped.map(\.reason) == [
                "a Pocket article", "a preview", "a recommendation", "on the wishlist", "expired",
                "not downloaded to the device", "of no account on the device",
            ])
        #expect(imported.books.map(\.title) == ["T file:///mnt/onboard/h.epub", "T i", "T j"])
        #expect(imported.books[0].isbn == nil, "a sideloaded book's UUID is no ISBN")
        #expect(imported.books[1].author == "Ann, Bo")
        #expect(imported.books[1].isbn == "9780441013593")
        #expect(imported.books[1].details["kobo:Series"] == ["S"])
        #expect(imported.books[2].progress == nil)
        #expect(imported.problems.map(\.place) == ["'T j'"])
    }
}

/// `bookclub import kobo` on the real `KoboReader.sqlite`.
@Suite(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
struct KoboEndToEndTests {
    static let file = RealExports.shared("ereaders/kobo-KoboReader.sqlite")

    /// A runner that runs the real `sqlite3` and keeps every query it was given.
    final class Recording: @unchecked Sendable {
        var queries: [String] = []
        var runner: ProgramRunner {
            ProgramRunner(
                find: ProgramRunner.live.find,
                run: { [unowned self] program in
                    queries.append(program.arguments.last ?? "")
                    return try ProgramRunner.live.run(program)
                })
        }
    }

    /// The columns of the `user` table of the real file: the account's e-mail, tokens and keys.
    static let userColumns = [
        "UserID", "UserKey", "UserDisplayName", "UserEmail", "___DeviceID", "FacebookAuthToken", "HasMadePurchase",
        "IsOneStoreAccount", "IsChildAccount", "RefreshToken", "AuthToken", "AuthType", "Loyalty",
        "IsLibraryMigrated", "SyncContinuationToken", "Subscription", "LibrarySyncType", "LibrarySyncTime",
        "SyncTokenAppVersion", "Storefront", "NewUserPromoCurrency", "NewUserPromoValue", "KoboAccessToken",
        "KoboAccessTokenExpiry", "AnnotationsSyncToken", "PrivacyPermissions", "AnnotationsMigrated",
        "NotebookSyncTime", "NotebookSyncToken",
    ]

    @Test func theRealFileBringsItsBooksHighlightsNotesAndSessionsAndNeverTheAccount() throws {
        let recording = Recording()
        let kobo = KoboImport(
            fileSystem: .live, runner: recording.runner, environment: ProcessInfo.processInfo.environment,
            timeZone: .utc, scratch: NSTemporaryDirectory() + "bookclub-kobo-\(UUID().uuidString)")
        let imported = try kobo.read(Self.file, shownAs: "KoboReader.sqlite")
        #expect(
            imported.books.map(\.title) == [
                "The Seven Principles For Making Marriage Work", "The Love Prescription",
                "The Myth of Academic Excellence and Scientific Curiosity", "The Art of War",
            ])
        #expect(imported.skipped.map(\.place) == ["'Bonded in Death'", "'Trauriger Tiger'"])
        #expect(imported.skipped.allSatisfy { $0.reason == "not downloaded to the device" })
        #expect(imported.problems.isEmpty)
        let love = imported.books[1]
        #expect(love.author == "John Gottman PhD, Julie Schwartz Gottman PhD")
        #expect(love.details["kobo:Series"] == ["The Seven Days Series #1"])
        #expect(love.isbn == "9780525508137")
        #expect(love.progress == nil, "opened, but ReadStatus 0 and 0 %")
        let seven = imported.books[0]
        #expect(
            seven.progress == ReaderImport.Progress(fraction: 0.23, time: Date(timeIntervalSince1970: 1_725_224_140)))
        #expect(imported.books[2].author == nil, "`Unknown` is no author")
        let war = imported.books[3]
        #expect(war.isbn == nil)
        #expect(war.externalID == "file:///mnt/onboard/Sun Tzu/Art of War, The - Sun Tzu.kepub.epub")
        #expect(war.highlights.count == 4)
        #expect(war.highlights.map(\.note) == ["Such a cool quote! Amazing!", nil, nil, "Test"])
        #expect(war.highlights.allSatisfy { $0.chapter == "Sun Wu and His Book" && $0.source == .kobo })
        #expect(war.highlights[1].text.hasPrefix("The attribution"), "trimmed")
        #expect(war.highlights[3].text.hasSuffix("given to the world."), "trimmed")
        #expect(war.highlights[0].time == Date(timeIntervalSince1970: 1_738_689_393), "whole seconds")
        #expect(imported.notesAttached == 2)
        // 406 + 31 + 5 seconds on 4 February 2025; the device says 444.
        #expect(war.sessions.map(\.minutes) == [7])
        #expect(war.sessions.first?.time == KOReaderSidecar.day(from: "2025-02-04", timeZone: .utc))

        #expect(!recording.queries.isEmpty)
        for query in recording.queries {
            let words = Set(query.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map { $0.lowercased() })
            #expect(!words.contains("user"), "\(query)")
            #expect(words.isDisjoint(with: Self.userColumns.map { $0.lowercased() }), "\(query)")
            #expect(!query.contains("*"), "\(query)")
            #expect(!query.contains("ExtraData") || query.contains("hex(\"ExtraData\")"), "\(query)")
        }
    }

    @Test func importingTwiceChangesNothingTheSecondTimeAndNothingIsLeftBeside() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let folder = (Self.file as NSString).deletingLastPathComponent
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let imported = try bookclub.run("import", "kobo", Self.file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(
            imported.stderr.hasSuffix(
                "Imported 4 highlights of 4 books (4 new to bookclub); 3 progress entries logged, 2 notes put with "
                    + "their highlights, 2 books skipped (2 not downloaded to the device).\n"))
        #expect(imported.stderr.contains("Skipped 'Bonded in Death': not downloaded to the device.\n"))
        let store = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let again = try bookclub.run("import", "kobo", Self.file, "--json")
        #expect(again.exitCode == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == store)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let books = try #require(report["books"] as? [[String: Any]])
        #expect(books.allSatisfy { $0["added"] as? Bool == false && $0["progressLogged"] as? Int == 0 })
        #expect((report["skipped"] as? [Any])?.count == 2)
        #expect(report["source"] as? String == "kobo")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)

        let war = try #require(try bookclub.json("show", "art of war", "--json") as? [String: Any])
        let entries = (war["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]]
        #expect(entries?.compactMap { $0["minutes"] as? Int } == [7])
        #expect((war["details"] as? [String: [String]])?["kobo:ContentID"]?.first?.hasPrefix("file:///mnt") == true)
        let love = try #require(try bookclub.json("show", "love prescription", "--json") as? [String: Any])
        #expect((love["details"] as? [String: [String]])?["kobo:Series"] == ["The Seven Days Series #1"])
        #expect(love["status"] as? String == "unstarted")
    }

    @Test func aMountedKoboIsReadFromItsFolderAndAFolderWithoutOneIsRefused() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let device = bookclub.home + "/KOBOeReader"
        try FileManager.default.createDirectory(atPath: device + "/.kobo", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.file, toPath: device + "/.kobo/KoboReader.sqlite")
        let imported = try bookclub.run("import", "kobo", device, "--dry-run")
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("(\(device)/.kobo/KoboReader.sqlite): 4 new highlights"))
        try FileManager.default.createDirectory(atPath: bookclub.home + "/empty", withIntermediateDirectories: true)
        let empty = try bookclub.run("import", "kobo", "empty")
        #expect(empty.exitCode == 65)
        #expect(
            empty.stderr
                == "Error: empty: no .kobo/KoboReader.sqlite in it; give the folder a Kobo is mounted at, or the file; nothing was imported.\n"
        )
        #expect(try bookclub.run("import", "kobo", "missing").exitCode == 74)
        #expect(try bookclub.run("import", "kobo", "-").exitCode == 65)
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
    }
}

/// The real file mutated every way a damaged or hostile one may come (cuts, flipped bits, another
/// database, NUL and control characters in its text, huge values, broken Qt streams): each import
/// ends in time with 0 or 65, says why in one line when it fails, sends no raw control character
/// to the terminal, and leaves the store as it was when it fails. Small, for CI.
@Suite(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
struct KoboFuzzTests {
    /// Runs `sqlite3` on a file of the test's own.
    static func sqlite(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", path, sql]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }

    /// How to make each case from a copy of the real file at the path given.
    static func cases() -> [(String, (String) throws -> Void)] {
        var cases: [(String, (String) throws -> Void)] = []
        let size = (try? FileManager.default.attributesOfItem(atPath: KoboEndToEndTests.file)[.size] as? Int) ?? 0
        for end in [0, 15, 16, 100, 4096, size / 2, size - 1] {
            cases.append(
                (
                    "cut at \(end)",
                    { path in
                        let data = try Data(contentsOf: URL(fileURLWithPath: path))
                        try data.prefix(end).write(to: URL(fileURLWithPath: path))
                    }
                ))
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<6 {
            let flips = (0..<(1 << round)).map { _ in
                (Int.random(in: 100..<max(size, 101), using: &generator), UInt8(1 << Int.random(in: 0..<8)))
            }
            cases.append(
                (
                    "\(flips.count) bits flipped",
                    { path in
                        var data = try Data(contentsOf: URL(fileURLWithPath: path))
                        for (offset, bit) in flips where offset < data.count { data[offset] ^= bit }
                        try data.write(to: URL(fileURLWithPath: path))
                    }
                ))
        }
        let statements = [
            ("another database", "DROP TABLE content; CREATE TABLE other(a);"),
            (
                "a content table of other columns",
                "DROP TABLE content; CREATE TABLE content(x); INSERT INTO content VALUES (1);"
            ),
            ("a Bookmark of other columns", "DROP TABLE Bookmark; CREATE TABLE Bookmark(BookmarkID, VolumeID);"),
            ("no Bookmark or Event", "DROP TABLE Bookmark; DROP TABLE Event;"),
            (
                "NUL and controls in text",
                "UPDATE content SET Title = 'A' || char(0) || 'B' || char(27) || '[31m' || char(7) || char(13), "
                    + "Attribution = char(27) || ']0;x' || char(7) || ',' || char(0), Series = char(8233) "
                    + "WHERE ContentType = 6; UPDATE Bookmark SET Text = char(0) || char(27) || 'c', "
                    + "Annotation = char(1) || char(155);"
            ),
            (
                "huge values",
                "UPDATE content SET ___PercentRead = 1e308, TimeSpentReading = -9e18, ReadStatus = 2, "
                    + "DateLastRead = '9999-99-99T99:99:99Z', LastTimeFinishedReading = printf('%.50000c', 'x'), "
                    + "ISBN = printf('%.100000c', '9') WHERE ContentType = 6;"
            ),
            ("text where numbers go", "UPDATE content SET ___PercentRead = 'lots', Accessibility = x'00ff';"),
            ("broken Qt streams", "UPDATE Event SET ExtraData = x'FFFFFFFF0000001E0065';"),
            ("a Qt stream of a huge count", "UPDATE Event SET ExtraData = x'00000001000000020061000000090000FFFFFF';"),
            (
                "a Qt stream nested deep",
                "UPDATE Event SET ExtraData = x'00000001000000020061' || zeroblob(0) || "
                    + "x'" + String(repeating: "000000090000000001", count: 200) + "';"
            ),
            ("a Qt stream too large", "UPDATE Event SET ExtraData = zeroblob(2000000);"),
            (
                "a huge timestamp",
                "UPDATE Event SET ExtraData = x'000000010000001E006500760065006E007400540069006D0065007300740061006D007000730000000009000000000200000005007FFFFFFFFFFFFFFF00000003000000000000';"
            ),
            ("a book in many rows", "INSERT INTO content SELECT * FROM content WHERE ContentType = 6;"),
        ]
        for (name, statement) in statements {
            cases.append((name, { path in try sqlite(path, statement) }))
        }
        return cases
    }

    @Test func everyMutationEndsInTimeWithADocumentedCodeAndAFailureChangesNothing() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        #expect(InProcess.run(["add", "Dune"], home: bookclub.home).code == 0)
        let folder = bookclub.home + "/cases"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, (name, make)) in Self.cases().enumerated() {
            let path = folder + "/\(index).sqlite"
            try FileManager.default.copyItem(atPath: KoboEndToEndTests.file, toPath: path)
            try make(path)
            let store = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
            let started = Date()
            let result = InProcess.run(["import", "kobo", path], home: bookclub.home)
            #expect(Date().timeIntervalSince(started) < 20, "\(name)")
            #expect([0, 65].contains(result.code), "\(name): \(result.code) \(result.stderr)")
            let raw = (result.stdout + result.stderr).unicodeScalars.filter {
                $0 != "\n" && ($0.properties.generalCategory == .control || $0.value == 0x2029)
            }
            #expect(raw.isEmpty, "\(name): \(result.stderr)")
            if result.code != 0 {
                #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == store, "\(name)")
                #expect(
                    result.stderr.hasPrefix("Error: ") && result.stderr.split(separator: "\n").count == 1, "\(name)")
                #expect(result.stdout.isEmpty)
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(left.allSatisfy { $0.hasSuffix(".sqlite") }, "nothing beside: \(left)")
    }
}
