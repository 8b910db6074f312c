import Foundation
import Testing

@testable import BookClubCore

/// KOReader's sidecar files: the strict reader of their Lua tables, both formats of highlights, and
/// `bookclub import koreader` on a folder laid out as a mounted e-reader.
@Suite struct KOReaderSidecarTests {
    static let folder = Fixture.folder.appendingPathComponent("koreader")
    static let newYork = Fixture.zone("America/New_York")

    static func sidecar(_ book: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent("Books/\(book).sdr/metadata.epub.lua"))
    }

    @Test func theLuaSubsetReadsAndNothingIsEvaluated() throws {
        let value = try LuaReader.read(
            Data(
                #"""
                -- a comment
                return {
                    ["text"] = "a \"quote\", a tab\t, \\ and a line\
                break \u{1F4DA} \226\128\148 \x41",
                    ["n"] = -1.5e2, ["t"] = true, ["f"] = false, ["gone"] = nil,
                    ["list"] = { [1] = "one", [2] = { ["deep"] = 'single' }, },
                    bare = 3; [7] = 0.25,
                }
                """#.utf8))
        #expect(value["text"]?.string == "a \"quote\", a tab\t, \\ and a line\nbreak 📚 — A")
        #expect(value["n"]?.number == -150)
        #expect(value["t"]?.bool == true)
        #expect(value["f"]?.bool == false)
        #expect(value["gone"] == nil)
        #expect(value["list"]?.array.first?.string == "one")
        #expect(value["list"]?.array.last?["deep"]?.string == "single")
        #expect(value["bare"]?.number == 3)
        #expect(value.array.map(\.number) == [0.25])
    }

    @Test(arguments: [
        (#"return { ["a"] = "never ends }"#, 1, "a string that never ends"),
        ("return {\n  [\"a\"] = \"one\",\n  [\"b\"] = \"two\n}", 3, "a string that never ends on its line"),
        (#"return { ["a"] = os.execute("rm -rf /") }"#, 1, "expected a value"),
        (#"return { ["a"] = 1 + 2 }"#, 1, "expected `,` or `}`"),
        (#"return { ["a"] = 1, ["a"] = 2 }"#, 1, "a key given twice"),
        ("return { [\"a\"] = 1 } x", 1, "something after the table"),
        (#"return "not a table""#, 1, "expected a table"),
        (#"return { ["a"] = "\q" }"#, 1, "an unknown escape"),
        (#"return { ["a"] = 1e999 }"#, 1, "is not a number"),
        ("return {" + String(repeating: "{", count: 40), 1, "tables nested more than 32 deep"),
        ("return {\n\n[\"a\"] = {", 3, "a table that never ends"),
    ])
    func whatIsNotTheSubsetIsRefusedWithItsLine(_ text: String, _ line: Int, _ reason: String) {
        #expect {
            try LuaReader.read(Data(text.utf8))
        } throws: { error in
            guard let failure = error as? LuaReader.Failure else { return false }
            return failure.line == line && failure.reason.contains(reason)
        }
    }

    @Test func theNewFormatBringsHighlightsProgressAndStatus() throws {
        let (book, bookmarks) = try KOReaderSidecar.read(
            Self.sidecar("Dune - Frank Herbert"), origin: "dune", modified: nil, timeZone: Self.newYork)
        #expect(book.title == "Dune")
        #expect(book.author == "Frank Herbert")
        #expect(book.isbn == "9780441013593")
        #expect(book.externalID == "5a1b2c3d4e5f60718293a4b5c6d7e8f9")
        #expect(bookmarks == 1)
        #expect(
            book.highlights.map(\.text) == [
                "Fear is the mind-killer.", "The spice extends life.\tThe spice expands consciousness. ノルウェイ",
            ])
        #expect(book.highlights.map(\.page) == [8, 40])
        #expect(book.highlights.map(\.chapter) == ["Book One: Dune", "Book One: Dune"])
        #expect(book.highlights.last?.note == "The \"spice\" — ask the club\nabout this one")
        #expect(book.highlights.first?.time == Date(timeIntervalSince1970: 1_722_553_533))  // 19:05:33 in New York
        #expect(book.highlights.allSatisfy { $0.source == .koreader && $0.id.hasPrefix("koreader-") })
        #expect(book.progress?.fraction == 0.4567)
        #expect(book.progress?.time == KOReaderSidecar.day(from: "2024-08-02", timeZone: Self.newYork))
        #expect(book.finished == nil)
    }

    @Test func theOldFormatHasItsMeaningInverted() throws {
        let (book, bookmarks) = try KOReaderSidecar.read(
            Self.sidecar("kindred"), origin: "kindred", modified: nil, timeZone: .utc)
        // No doc_props: the book is named by its file, `Title - Author.epub`.
        #expect(book.title == "Kindred")
        #expect(book.author == "Octavia E. Butler")
        #expect(bookmarks == 1)
        #expect(
            book.highlights.map(\.text) == ["I lost an arm on my last trip home.", "The ease seemed to frighten me."])
        #expect(book.highlights.map(\.note) == [nil, "Bring this to the meeting"], "`in The River` is KOReader's own")
        #expect(book.highlights.map(\.page) == [14, 47])
        #expect(book.finished == KOReaderSidecar.day(from: "2023-05-10", timeZone: .utc))
    }

    /// A sidecar of the 2021 format, written for this test: `highlight` holds four passages (one of a
    /// PDF, with no positions), `bookmarks` a note on two of them, the passage again on another,
    /// KOReader's own `in <chapter>` on a third and on two page bookmarks.
    static let format2021 = Data(
        #"""
        -- we can read Lua syntax here!
        return {
            ["bookmarks"] = {
                [1] = {
                    ["chapter"] = "Two", ["datetime"] = "2021-03-02 21:00:00", ["notes"] = "in Two",
                    ["page"] = "/body/DocFragment[3]/body/p[4]/text().0",
                },
                [2] = {
                    ["chapter"] = "One", ["datetime"] = "2021-03-01 09:00:00", ["highlighted"] = true,
                    ["notes"] = "The first passage.", ["page"] = "/body/DocFragment[2]/body/p[1]/text().0",
                    ["pos0"] = "/body/DocFragment[2]/body/p[1]/text().0",
                    ["pos1"] = "/body/DocFragment[2]/body/p[1]/text().18", ["text"] = "Why first?",
                },
                [3] = {
                    ["chapter"] = "One", ["datetime"] = "2021-03-01 09:05:00", ["highlighted"] = true,
                    ["notes"] = "The second, same page.", ["page"] = "/body/DocFragment[2]/body/p[2]/text().0",
                    ["pos0"] = "/body/DocFragment[2]/body/p[2]/text().0",
                    ["pos1"] = "/body/DocFragment[2]/body/p[2]/text().22", ["text"] = "The second, same page.",
                },
                [4] = {
                    ["chapter"] = "Two", ["datetime"] = "2021-03-02 20:00:00", ["highlighted"] = true,
                    ["notes"] = "A third, later.", ["page"] = "/body/DocFragment[3]/body/p[1]/text().0",
                    ["pos0"] = "/body/DocFragment[3]/body/p[1]/text().0",
                    ["pos1"] = "/body/DocFragment[3]/body/p[1]/text().15", ["text"] = "in Two",
                },
                [5] = {
                    ["datetime"] = "2021-03-03 07:30:00", ["highlighted"] = true, ["notes"] = "A fourth, of a PDF.",
                    ["page"] = 44, ["text"] = "Bring it to the club",
                },
                [6] = {
                    ["chapter"] = "Two", ["datetime"] = "2021-03-02 21:10:00", ["highlighted"] = true,
                    ["notes"] = "in Two", ["page"] = 31, ["text"] = "in Two",
                },
            },
            ["doc_props"] = { ["authors"] = "A. Writer", ["title"] = "Shapes of 2021" },
            ["highlight"] = {
                [30] = {
                    [1] = {
                        ["chapter"] = "Two", ["datetime"] = "2021-03-02 20:00:00", ["drawer"] = "lighten",
                        ["pos0"] = "/body/DocFragment[3]/body/p[1]/text().0",
                        ["pos1"] = "/body/DocFragment[3]/body/p[1]/text().15", ["text"] = "A third, later.",
                    },
                },
                [12] = {
                    [2] = {
                        ["chapter"] = "One", ["datetime"] = "2021-03-01 09:05:00", ["drawer"] = "lighten",
                        ["pos0"] = "/body/DocFragment[2]/body/p[2]/text().0",
                        ["pos1"] = "/body/DocFragment[2]/body/p[2]/text().22", ["text"] = "The second, same page.",
                    },
                    [1] = {
                        ["chapter"] = "One", ["datetime"] = "2021-03-01 09:00:00", ["drawer"] = "lighten",
                        ["pos0"] = "/body/DocFragment[2]/body/p[1]/text().0",
                        ["pos1"] = "/body/DocFragment[2]/body/p[1]/text().18", ["text"] = "The first passage.",
                    },
                },
                [44] = {
                    [1] = { ["datetime"] = "2021-03-03 07:30:00", ["drawer"] = "underscore", ["text"] = "A fourth, of a PDF." },
                },
                [50] = {
                    [1] = {
                        ["chapter"] = "Three", ["datetime"] = "2021-03-04 22:00:00", ["drawer"] = "lighten",
                        ["pos0"] = "/body/DocFragment[4]/body/p[7]/text().0",
                        ["pos1"] = "/body/DocFragment[4]/body/p[7]/text().9", ["text"] = "No bookmark.",
                    },
                },
            },
            ["partial_md5_checksum"] = "00112233445566778899aabbccddeeff",
        }
        """#.utf8)

    @Test func the2021FormatBringsEveryPassageOfHighlightOnceWithTheNoteOfItsBookmark() throws {
        let (book, bookmarks) = try KOReaderSidecar.read(
            Self.format2021, origin: "shapes", modified: nil, timeZone: Self.newYork)
        #expect(book.title == "Shapes of 2021")
        #expect(
            book.highlights.map(\.text) == [
                "The first passage.", "The second, same page.", "A third, later.", "A fourth, of a PDF.",
                "No bookmark.",
            ])
        #expect(book.highlights.map(\.page) == [12, 12, 30, 44, 50])
        #expect(
            book.highlights.map(\.note) == ["Why first?", nil, nil, "Bring it to the club", nil],
            "the passage again and `in Two` are no note")
        #expect(book.highlights.map(\.chapter) == ["One", "One", "Two", nil, "Three"])
        #expect(book.highlights.first?.time == Date(timeIntervalSince1970: 1_614_607_200))  // 09:00 in New York
        #expect(book.highlights.last?.time == Date(timeIntervalSince1970: 1_614_913_200))  // 22:00 on the 4th
        #expect(bookmarks == 2, "the page bookmark, and the `in Two` of no passage")
        // An id from the position, as when bookmarks brought them: a re-import adds nothing.
        #expect(
            book.highlights.first?.id
                == "koreader-"
                + ReaderImport.digest("00112233445566778899aabbccddeeff", "/body/DocFragment[2]/body/p[1]/text().0"))
        #expect(
            book.highlights[3].id == "koreader-"
                + ReaderImport.digest("00112233445566778899aabbccddeeff", "page 44 A fourth, of a PDF."))
    }

    @Test func aSidecarThatNamesNoBookIsAProblemWithItsPlace() {
        #expect(throws: ReaderImport.Problem(place: "x.lua", reason: "no title in doc_props, and no doc_path")) {
            try KOReaderSidecar.read(
                Data(#"return { ["percent_finished"] = 0.5 }"#.utf8), origin: "x.lua", modified: nil, timeZone: .utc)
        }
        #expect(throws: ReaderImport.Problem(place: "y.lua, line 2", reason: "a string that never ends on its line")) {
            try KOReaderSidecar.read(
                Data("return {\n[\"doc_path\"] = \"/a\n".utf8), origin: "y.lua", modified: nil, timeZone: .utc)
        }
    }

    /// Random cuts, flips and repeats of sidecars of every format (2024's, 2023's, and the 2021 one
    /// with passages in `highlight` and notes in `bookmarks`): the reader never traps or hangs.
    @Test func fuzzedSidecarsNeverTrap() throws {
        // The 2021 seed reads whole as it is, before it is cut up.
        let (book, _) = try KOReaderSidecar.read(Self.format2021, origin: "f", modified: nil, timeZone: .utc)
        #expect(book.highlights.count == 5)
        #expect(book.highlights.contains { $0.text == "No bookmark." })
        #expect(!book.highlights.contains { $0.text == "in Two" })
        var random = SeededGenerator(state: 2027)
        let seeds = [
            try Array(Self.sidecar("Dune - Frank Herbert")), try Array(Self.sidecar("kindred")), Array(Self.format2021),
        ]
        var read = 0
        for _ in 0..<4000 {
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    bytes[at] = [UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0xFF].randomElement(
                        using: &random)!
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...30, using: &random)))
                case 2: bytes.insert(contentsOf: Array(repeating: UInt8(ascii: "{"), count: 50), at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 200)], at: at)
                }
                if bytes.isEmpty { bytes = seeds[0] }
            }
            if let (book, _) = try? KOReaderSidecar.read(Data(bytes), origin: "f", modified: nil, timeZone: .utc) {
                read += 1
                #expect(!book.title.isEmpty)
                #expect(book.highlights.allSatisfy { !$0.text.isEmpty })
            }
        }
        #expect(read > 0)
    }
}

/// The real sidecars of `../shared/fixtures/ereaders/koreader-sidecars`, one of each format.
@Suite(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
struct KOReaderRealSidecarTests {
    /// The file's time, for what the sidecar does not date.
    static let modified = Date(timeIntervalSince1970: 1_700_000_000)

    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var title: String
        var author: String?
        var isbn: String? = nil
        var checksum: String? = nil
        var pages: [Int] = []
        var progress: Double? = nil
        var progressDay: String? = nil
        var finished: String? = nil
        var bookmarks = 0
        var description: String { file }
    }

    static let sidecars: [Expected] = [
        Expected(
            file: "new-annotations.feel-good-productivity.metadata.epub.lua",
            title: "Feel-good Productivity : How to Do More of What Matters to You (9781250865052)",
            author: "Abdaal, Ali", isbn: "9781250865052", checksum: "6567949969f0a697bcdadc922f2c6b32",
            pages: [14, 15],
            progress: 0.77556818181818, progressDay: "2024-02-26"),
        Expected(
            file: "old-bookmarks-highlight-2021.blue-mind.metadata.epub.lua",
            title: "Blue Mind: How Water Makes You Happier, More Connected and Better at What You Do",
            author: "Céline Cousteau, Wallace J. Nichols", checksum: "d6146523c5f0ea5bb9855311960d490b",
            pages: [75, 76, 77], progress: 0.1463963963964, bookmarks: 1),
        Expected(
            file: "minimal-complete.thinking-fast-slow.metadata.epub.lua", title: "Thinking, Fast and Slow",
            author: "Daniel Kahneman", finished: "2023-09-14"),
        Expected(
            file: "minimal-2019.book1.metadata.epub.lua",
            title: "Durch Wüste und Harem / Gesammelte Reiseromane, Band I",
            author: "Karl May", progress: 0.0017699115044248),
        Expected(
            file: "minimal-2019-complete.book2.metadata.epub.lua",
            title: "Erstes Kapitel des Buches \"Richard und Samuel\" / Die erste lange Eisenbahnfahrt (Prag-Zürich)",
            author: "Max Brod, Franz Kafka", progress: 0.017543859649123, finished: ""),
    ]

    static func read(_ file: String) throws -> (book: ReaderImport.Book, bookmarks: Int) {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: RealExports.shared("ereaders/koreader-sidecars/" + file)))
        return try KOReaderSidecar.read(
            data, origin: file, modified: modified, timeZone: KOReaderSidecarTests.newYork)
    }

    @Test(arguments: sidecars)
    func eachFormatReads(_ expected: Expected) throws {
        let zone = KOReaderSidecarTests.newYork
        let (book, bookmarks) = try Self.read(expected.file)
        #expect(book.title == expected.title)
        #expect(book.author == expected.author)
        #expect(book.isbn == expected.isbn)
        #expect(book.externalID == expected.checksum)
        #expect(book.highlights.map(\.page) == expected.pages)
        #expect(book.highlights.allSatisfy { !$0.text.isEmpty && $0.time != nil && $0.note == nil })
        #expect(Set(book.highlights.map(\.id)).count == expected.pages.count)
        #expect(bookmarks == expected.bookmarks)
        #expect(book.progress?.fraction == expected.progress)
        if expected.progress != nil {
            #expect(
                book.progress?.time
                    == (expected.progressDay.flatMap { KOReaderSidecar.day(from: $0, timeZone: zone) } ?? Self.modified)
            )
        }
        let finished = expected.finished.flatMap {
            $0.isEmpty ? Self.modified : KOReaderSidecar.day(from: $0, timeZone: zone)
        }
        #expect(book.finished == finished)
    }

    @Test func importingThe2021SidecarTwiceAddsItsThreeHighlightsOnce() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let file = RealExports.shared(
            "ereaders/koreader-sidecars/old-bookmarks-highlight-2021.blue-mind.metadata.epub.lua")
        let imported = try bookclub.run("import", "koreader", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(
            imported.stderr
                == "Imported 3 highlights of 1 book (1 new to bookclub); 1 progress entry logged, 1 bookmark skipped.\n"
        )
        let again = try bookclub.run("import", "koreader", file)
        #expect(
            again.stderr
                == "Imported 0 highlights of 1 book (0 new to bookclub); 3 already there, 1 bookmark skipped.\n")
        let shown = try #require(try bookclub.json("show", "blue mind", "--json") as? [String: Any])
        let highlights = (shown["readings"] as? [[String: Any]])?.first?["highlights"] as? [[String: Any]]
        #expect(highlights?.compactMap { $0["page"] as? Int } == [75, 76, 77])
    }

    /// KOReader 2021: three passages in `highlight`, one of them in `bookmarks` too (with no note), and
    /// a page bookmark whose `notes` is KOReader's own `in 3. The Water Premium`.
    @Test func the2021SidecarBringsItsThreePassagesWithTheirPagesAndTimes() throws {
        let (book, bookmarks) = try Self.read("old-bookmarks-highlight-2021.blue-mind.metadata.epub.lua")
        #expect(book.highlights.count == 3)
        #expect(
            book.highlights.map { String($0.text.prefix(24)) } == [
                "Here’s where our DNA ent", "The other 40 percent of ", "The factors that help bo",
            ])
        #expect(book.highlights.map(\.page) == [75, 76, 77])
        // 2021-02-15 14:24:18, 14:25:06 and 14:28:25 in New York.
        #expect(
            book.highlights.map(\.time) == [
                Date(timeIntervalSince1970: 1_613_417_058), Date(timeIntervalSince1970: 1_613_417_106),
                Date(timeIntervalSince1970: 1_613_417_305),
            ])
        #expect(book.highlights.map(\.chapter) == Array(repeating: "3. The Water Premium", count: 3))
        #expect(book.highlights.allSatisfy { $0.note == nil }, "no note was written; `in …` is KOReader's")
        #expect(!book.highlights.contains { $0.text.hasPrefix("in ") })
        #expect(bookmarks == 1)
        // The passage the bookmarks held keeps the id it had when only they were read.
        #expect(
            book.highlights.last?.id
                == "koreader-"
                + ReaderImport.digest(
                    "d6146523c5f0ea5bb9855311960d490b", "/body/DocFragment[12]/body/div/section/p[13]/text()[1].0"))
    }
}

/// `bookclub import koreader`, run as a reader would on a mounted e-reader.
@Suite struct KOReaderImportEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func aFolderBringsEachBooksHighlightsProgressAndStatusAndASecondImportAddsNothing() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--author", "Frank Herbert", "--pages", "617")
        try bookclub.run("progress", "dune", "100", "--date", "2024-07-20")
        let folder = KOReaderSidecarTests.folder.path
        let dry = try bookclub.run("import", "koreader", folder, "--dry-run")
        #expect(dry.exitCode == 0, "\(dry.stderr)")
        #expect(
            dry.stdout
                == "merge 'Dune' by Frank Herbert (Books/Dune - Frank Herbert.sdr/metadata.epub.lua): 2 new highlights, progress\nadd   'Kindred' by Octavia E. Butler (Books/kindred.sdr/metadata.epub.lua): 2 new highlights, progress, finished\n"
        )
        let imported = try bookclub.run("import", "koreader", folder)
        #expect(
            imported.stderr
                == "Imported 4 highlights of 2 books (1 new to bookclub); 2 progress entries logged, 1 book finished, 2 bookmarks skipped.\n"
        )
        let dune = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(dune["progress"] as? Double == 0.4567)
        #expect(dune["isbn"] as? String == nil, "the book's own fields are not the device's to change")
        #expect(
            (dune["details"] as? [String: [String]])?["koreader:partial_md5_checksum"] == [
                "5a1b2c3d4e5f60718293a4b5c6d7e8f9"
            ])
        let kindred = try #require(try bookclub.json("show", "kindred", "--json") as? [String: Any])
        #expect(kindred["status"] as? String == "finished")
        let highlights = (kindred["readings"] as? [[String: Any]])?.first?["highlights"] as? [[String: Any]]
        #expect(
            highlights?.compactMap { $0["text"] as? String }.contains("An older backup that must be passed over.")
                == false)

        let again = try bookclub.run("import", "koreader", folder)
        #expect(
            again.stderr
                == "Imported 0 highlights of 2 books (0 new to bookclub); 4 already there, 2 bookmarks skipped.\n")
        #expect((try bookclub.json("history", "--json") as? [[String: Any]])?.count == 3)

        // One sidecar alone, or its .sdr folder, reads the same.
        let one = try bookclub.run("import", "koreader", folder + "/Books/kindred.sdr/metadata.epub.lua")
        #expect(one.exitCode == 0)
        #expect(try bookclub.run("import", "koreader", folder + "/Books/kindred.sdr").exitCode == 0)
    }

    @Test func aBrokenSidecarIsSaidWithItsPathAndLineAndTheRestImported() throws {
        defer { bookclub.cleanUp() }
        let device = bookclub.home + "/device"
        let books = KOReaderSidecarTests.folder.appendingPathComponent("Books").path
        try FileManager.default.createDirectory(atPath: device + "/a.sdr", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: device + "/b.sdr", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: books + "/kindred.sdr/metadata.epub.lua", toPath: device + "/a.sdr/metadata.epub.lua")
        try "return {\n  [\"doc_path\"] = \"/mnt/\u{1B}]0;owned\u{07}.epub,\n}\n".write(
            toFile: device + "/b.sdr/metadata.pdf.lua", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: device + "/loop", withDestinationPath: device)
        let result = try bookclub.run("import", "koreader", "device")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "Warning: Skipped b.sdr/metadata.pdf.lua, line 2: a string that never ends on its line.\n"))
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(try bookclub.run("show", "kindred").exitCode == 0)

        let nothing = try bookclub.run("import", "koreader", bookclub.home + "/device/a.sdr/../../")
        #expect(nothing.exitCode == 0, "the home holds the device: found through it")
        try FileManager.default.createDirectory(atPath: bookclub.home + "/empty", withIntermediateDirectories: true)
        let empty = try bookclub.run("import", "koreader", "empty")
        #expect(empty.exitCode == 65)
        #expect(empty.stderr.hasPrefix("Error: "))
        #expect(empty.stderr.contains("no KOReader sidecar (metadata.*.lua)"))
        let broken = try bookclub.run("import", "koreader", "device/b.sdr")
        #expect(broken.exitCode == 65)
        #expect(broken.stderr.contains("no sidecar bookclub can read (metadata.pdf.lua, line 2"))
        #expect(try bookclub.run("import", "koreader", "missing").exitCode == 74)
    }
}

/// KOReader's `statistics.sqlite3`: pages turned become a day's reading, with its minutes.
@Suite struct KOReaderStatisticsTests {
    /// Rows as `sqlite3 -json` prints them: two evenings in Kolkata, the second past midnight in UTC.
    static let rows = """
        [{"title":"ノルウェイの森","authors":"村上春樹\\nJay Rubin","md5":"5EE88058C4346A122C4CCF80E36B1DC8","page":10,"start":1735733400,"duration":600,"pages":400},
        {"title":"ノルウェイの森","authors":"村上春樹\\nJay Rubin","md5":"5EE88058C4346A122C4CCF80E36B1DC8","page":12,"start":1735734000,"duration":900,"pages":400},
        {"title":"ノルウェイの森","authors":"村上春樹\\nJay Rubin","md5":"5EE88058C4346A122C4CCF80E36B1DC8","page":40,"start":1735839000,"duration":1200,"pages":400},
        {"title":null,"authors":null,"md5":null,"page":1,"start":1735839000,"duration":60,"pages":10},
        {"title":"Odd","authors":null,"md5":"nope","page":1,"start":1e300,"duration":60,"pages":10}]
        """

    @Test func eachDayOfABookIsOneSessionInTheReadersZone() throws {
        let kolkata = Fixture.zone("Asia/Kolkata")
        let books = try KOReaderStatistics.read(Data(Self.rows.utf8), origin: "stats", timeZone: kolkata)
        #expect(books.map(\.title) == ["ノルウェイの森"])
        #expect(books.first?.author == "村上春樹, Jay Rubin")
        #expect(books.first?.externalID == "5ee88058c4346a122c4ccf80e36b1dc8")
        let sessions = try #require(books.first?.sessions)
        #expect(sessions.map(\.minutes) == [25, 20])
        #expect(sessions.map(\.fraction) == [0.03, 0.1])
        // Noon of each day in Kolkata: 1 and 2 January 2025.
        #expect(
            sessions.map(\.time) == [
                Date(timeIntervalSince1970: 1_735_713_000), Date(timeIntervalSince1970: 1_735_799_400),
            ])
        #expect(Set(sessions.map(\.id)).count == 2)
        // The same rows read again give the same ids: a re-import adds nothing.
        #expect(
            try KOReaderStatistics.read(Data(Self.rows.utf8), origin: "stats", timeZone: kolkata).first?.sessions
                == sessions)
        #expect(try KOReaderStatistics.read(Data(), origin: "stats", timeZone: kolkata).isEmpty)
        #expect(throws: ReaderImport.Problem(place: "stats", reason: "sqlite3 printed rows bookclub cannot read")) {
            try KOReaderStatistics.read(Data("[{".utf8), origin: "stats", timeZone: kolkata)
        }
    }
}

@Suite(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
struct KOReaderStatisticsEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func theRealStatisticsBecomeADayOfReadingWithItsMinutesAndNothingIsLeftBeside() throws {
        defer { bookclub.cleanUp() }
        let file = RealExports.shared("ereaders/koreader-statistics.sqlite3")
        let folder = (file as NSString).deletingLastPathComponent
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let imported = try bookclub.run("import", "koreader", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr == "Imported 0 highlights of 1 book (1 new to bookclub); 1 progress entry logged.\n")
        let book = try #require(try bookclub.json("show", "crime", "--json") as? [String: Any])
        let entries = (book["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]]
        #expect(entries?.count == 1)
        #expect(entries?.first?["minutes"] as? Int == 3, "34 + 77 + 29 + 39 seconds")
        #expect(abs((entries?.first?["progress"] as? Double ?? 0) - 47.0 / 1146) < 1e-12, "page 47 of 1146")
        #expect(try bookclub.run("show", "crime").stdout.contains("3 min read"))
        let stats = try #require(try bookclub.json("stats", "--year", "2025", "--json") as? [String: Any])
        #expect(stats["minutesRead"] as? Int == 3)

        let again = try bookclub.run("import", "koreader", file)
        #expect(again.stderr == "Imported 0 highlights of 1 book (0 new to bookclub).\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)

        let withoutSQLite = try bookclub.run(["import", "koreader", file], environment: ["PATH": bookclub.home])
        #expect(withoutSQLite.exitCode == 69)
        #expect(
            withoutSQLite.stderr
                == "Error: Reading KOReader's statistics needs the sqlite3 program; install it (the sqlite3 package).\n"
        )
    }
}

/// The search of a folder for sidecars, in the core over the file system seam: how deep it goes,
/// what it passes over, and that what cannot be read is said rather than fatal.
@Suite struct KOReaderImportTests {
    /// Files in memory, with the folders that hold them, and the sizes of `sizes` rather than their own.
    static func fileSystem(_ files: [String: Data], sizes: [String: Int] = [:], links: Set<String> = [])
        -> FileSystem
    {
        var fileSystem = FileSystem.inMemory(files)
        var folders = Set<String>()
        for path in files.keys {
            var folder = path.parentPath
            while folder.count > 1 {
                folders.insert(folder)
                folder = folder.parentPath
            }
        }
        fileSystem.kind = { links.contains($0) ? .symbolicLink : folders.contains($0) ? .folder : nil }
        fileSystem.list = { folder in
            (Array(files.keys) + folders).filter { $0.parentPath == folder }.map(\.lastPathComponent)
        }
        let size = fileSystem.size
        fileSystem.size = { try sizes[$0] ?? size($0) }
        return fileSystem
    }

    @Test func theSearchGoesSixteenFoldersDownAndPassesOverWhatIsNotASidecar() throws {
        let sidecar = try KOReaderSidecarTests.sidecar("kindred")
        let deepest = "/r" + String(repeating: "/f", count: KOReaderImport.deepestFolder)
        var files = [
            "/r/a.sdr/metadata.epub.lua": sidecar, deepest + "/metadata.pdf.lua": sidecar,
            deepest + "/f/metadata.epub.lua": sidecar, "/r/a.sdr/metadata.epub.lua.old": sidecar,
            "/r/a.sdr/notes.lua": sidecar, "/r/big.sdr/metadata.epub.lua": sidecar,
            "/r/link.sdr/metadata.epub.lua": sidecar,
        ]
        files["/r/bad.sdr/metadata.epub.lua"] = Data("return {".utf8)
        let koreader = KOReaderImport(
            fileSystem: Self.fileSystem(
                files, sizes: ["/r/big.sdr/metadata.epub.lua": KOReaderImport.largestSidecar + 1],
                links: ["/r/link.sdr"]),
            runner: ProgramRunner(find: { _, _ in nil }, run: { _ in throw BookClubError.unavailable("no") }),
            environment: [:], timeZone: .utc, scratch: "/scratch")
        #expect(
            koreader.sidecars(under: "/r").sorted() == [
                "/r/a.sdr/metadata.epub.lua", "/r/bad.sdr/metadata.epub.lua", "/r/big.sdr/metadata.epub.lua",
                deepest + "/metadata.pdf.lua",
            ])
        let imported = try koreader.read("/r", shownAs: "reader")
        #expect(
            imported.books.map(\.origin) == ["a.sdr/metadata.epub.lua", deepest.dropFirst(3) + "/metadata.pdf.lua"])
        #expect(imported.problems.map(\.place) == ["bad.sdr/metadata.epub.lua, line 1", "big.sdr/metadata.epub.lua"])
        #expect(imported.problems.last?.reason == "larger than 16 MB: not a sidecar")

        #expect(
            throws: BookClubError.badImport(
                path: "empty", line: nil, detail: "no KOReader sidecar (metadata.*.lua) in it or under it")
        ) {
            try KOReaderImport(
                fileSystem: Self.fileSystem(["/e/x.txt": Data()]), runner: koreader.runner, environment: [:],
                timeZone: .utc, scratch: "/scratch"
            ).read("/e", shownAs: "empty")
        }
        #expect(throws: BookClubError.io(path: "gone", cause: "no such file")) {
            try koreader.read("/nowhere", shownAs: "gone")
        }
        #expect(throws: BookClubError.io(path: "link", cause: "it is a symbolic link")) {
            try koreader.read("/r/link.sdr", shownAs: "link")
        }
    }

    @Test func aStatisticsDatabaseNeedsSQLite3() throws {
        let koreader = KOReaderImport(
            fileSystem: Self.fileSystem(["/s/statistics.sqlite3": Data("SQLite format 3\0...".utf8)]),
            runner: ProgramRunner(find: { _, _ in nil }, run: { _ in throw BookClubError.unavailable("no") }),
            environment: [:], timeZone: .utc, scratch: "/scratch")
        #expect(
            throws: BookClubError.unavailable(
                "Reading KOReader's statistics needs the sqlite3 program; install it (the sqlite3 package)")
        ) {
            try koreader.read("/s/statistics.sqlite3", shownAs: "statistics.sqlite3")
        }
    }
}
