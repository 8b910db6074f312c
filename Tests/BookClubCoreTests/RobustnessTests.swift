import Foundation
import Testing

/// What a careless or unlucky user does, through the built binary: nothing is lost or half-written,
/// and nothing claims a success that did not happen.
@Suite struct RobustnessTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func aSaveThatFailsPrintsNoSuccess() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try FileManager.default.createDirectory(
            atPath: bookclub.storePath + ".history", withIntermediateDirectories: true)
        let store = bytes(bookclub.storePath)
        let result = try bookclub.run("progress", "dune", "120", "--json")
        #expect(result.exitCode == 74)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: \(bookclub.storePath).history: "))
        #expect(!result.stderr.contains("p. 120"))
        #expect(bytes(bookclub.storePath) == store)
    }

    @Test func aHistoryCutShortIsRefusedAndLeftAlone() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("progress", "dune", "120", "--note", "the spice")
        // Folded, so that the journal no longer carries the line (it would write it back).
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0)
        let history = bookclub.storePath + ".history"
        let cut = Data(try #require(bytes(history)).prefix(20))
        try cut.write(to: URL(fileURLWithPath: history))
        let store = bytes(bookclub.storePath)
        for arguments in [["progress", "dune", "130"], ["show", "dune"]] {
            let result = try bookclub.run(arguments)
            #expect(result.exitCode == 65)
            #expect(result.stderr.contains("where the store expects"))
            #expect(bytes(history) == cut)
            #expect(bytes(bookclub.storePath) == store)
        }
    }

    @Test func unfinishKeepsTheNoteOfTheEnding() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("progress", "dune", "300")
        try bookclub.run("abandon", "dune", "--note", "too slow")
        try bookclub.run("unfinish", "dune")
        let notes = try bookclub.run("notes", "dune").stdout
        #expect(notes.contains("- abandoned, then resumed, ") && notes.contains(": too slow\n"), "\(notes)")
    }

    @Test func backdatedEntriesCountFromTheEntryBeforeThem() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("progress", "dune", "100", "--date", "2026-01-01")
        try bookclub.run("progress", "dune", "200", "--date", "2026-01-10")
        let backdated = try bookclub.run("progress", "dune", "+10", "--date", "2026-01-02")
        #expect(backdated.stderr.contains("logged p. 110 on "))
        #expect(backdated.stderr.contains("you are at p. 200 of 412"))
        let again = try bookclub.run("progress", "dune", "110", "--date", "2026-01-03")
        #expect(again.stderr.contains("nothing logged"))
        let future = try bookclub.run("progress", "dune", "300", "--date", "2999-01-01")
        #expect(future.exitCode == 64)
        #expect(
            future.stderr.hasPrefix(
                "Error: The value '2999-01-01' is invalid for '--date <when>': that is in the future\n"))
    }

    @Test func editKeepsBooksDistinctAndPagesConsistent() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--author", "Frank Herbert", "--pages", "412")
        _ = try bookclub.add("Dune Messiah", "--author", "Frank Herbert", "--pages", "256")
        try bookclub.run("progress", "messiah", "250")
        let duplicate = try bookclub.run("edit", "dune", "--title", "Dune Messiah")
        #expect(
            duplicate
                == .init(
                    stdout: "", stderr: "Error: A book titled 'Dune Messiah' by the same author is already there.\n",
                    exitCode: 1))
        let pages = try bookclub.run("edit", "messiah", "--pages", "100")
        #expect(pages.exitCode == 1)
        #expect(pages.stderr.contains("has an entry at p. 250"))
        #expect(try bookclub.run("edit", "dune", "--pages", "").exitCode == 0)
        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(book["pages"] == nil)
    }

    @Test func removeNeverGuesses() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Dune Messiah", "--pages", "256")
        #expect(try bookclub.run("remove", "dune", "--yes").exitCode == 0)
        let again = try bookclub.run("remove", "dune", "--yes")
        #expect(again.exitCode == 1)
        #expect(
            again.stderr.hasPrefix("Error: 'dune' is not a whole title; it names Dune Messiah, added ")
                && again.stderr.hasSuffix("To remove it, give its whole title or its id.\n"), "\(again.stderr)")
        #expect(
            try bookclub.run("remove", "neuromancer", "--yes").stderr
                == "Error: No book matches 'neuromancer'. See `bookclub list --all`.\n")
        #expect(try bookclub.json("list", "--all", "--json") as? [[String: Any]] != nil)
        #expect((try bookclub.json("list", "--all", "--json") as? [Any])?.count == 1)
    }

    /// As no-color.org has it: a flag or the setting overrides `NO_COLOR`, which overrides `auto`;
    /// `TERM=dumb` is never, under `auto`.
    @Test func noColorYieldsToAnExplicitChoice() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        func coloured(_ arguments: [String], _ environment: [String: String]) throws -> Bool {
            try bookclub.run(["list"] + arguments, environment: environment).stdout.contains("\u{1B}[")
        }
        #expect(try coloured(["--color", "always"], ["NO_COLOR": "1"]))
        #expect(try !coloured(["--color", "auto"], ["NO_COLOR": "1"]))
        #expect(try !coloured([], ["NO_COLOR": "1"]))
        #expect(try coloured(["--color", "always"], ["TERM": "dumb"]))
        try bookclub.run("settings", "set", "color", "always")
        #expect(try coloured([], ["NO_COLOR": "1"]), "the setting is the reader's own choice too")
        #expect(try !coloured(["--no-color"], [:]))
    }

    @Test func emptyPathsAreUsageErrors() throws {
        defer { bookclub.cleanUp() }
        let result = try bookclub.run("--store", "", "list")
        #expect(result.exitCode == 64)
        #expect(
            result.stderr.hasPrefix("Error: The value '' is invalid for '--store <path>': a path cannot be empty\n"))
    }

    @Test func aCorruptSettingsFileCanBeReset() throws {
        defer { bookclub.cleanUp() }
        try FileManager.default.createDirectory(
            atPath: (bookclub.settingsPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "{ not json".write(toFile: bookclub.settingsPath, atomically: true, encoding: .utf8)
        #expect(try bookclub.run("settings", "list").exitCode == 65)
        #expect(try bookclub.run("settings", "reset", "--all").exitCode == 0)
        #expect(try bookclub.run("settings", "get", "color").stdout == "auto\n")
    }

    @Test func aStoreNoCommandCouldHaveWrittenIsRefused() throws {
        defer { bookclub.cleanUp() }
        let path = bookclub.home + "/store.json"
        let text =
            #"{"schemaVersion": 2, "historyLength": 0, "books": [{"id": "a1", "title": "Dune", "pages": -304, "tags": [], "added": "2026-11-01T10:00:00Z", "readings": []}]}"#
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try bookclub.run("--store", path, "list")
        #expect(
            result
                == .init(
                    stdout: "",
                    stderr:
                        "Error: \(path): at `books[0].pages` ('Dune'): expected a page count from 1 to 100000; the file was left untouched.\n",
                    exitCode: 65))
    }

    @Test func scenesWithLookAlikeNamesKeepTheirOwnFiles() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Kindred", "--pages", "264")
        try bookclub.run("select", "dune", environment: ["BOOKCLUB_SCENE": "a/b"])
        try bookclub.run("select", "kindred", environment: ["BOOKCLUB_SCENE": "a_b"])
        #expect(try bookclub.run("select", environment: ["BOOKCLUB_SCENE": "a/b"]).stdout.hasSuffix("  Dune\n"))
        #expect(FileManager.default.fileExists(atPath: bookclub.home + "/.local/state/bookclub/scenes/a%2Fb.json"))
    }

    @Test func undoRevertsCommandsInTurnAndHistoryListsThem() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("progress", "dune", "120", "--note", "the spice")
        try bookclub.run("progress", "dune", "+30")
        try bookclub.run("finish", "dune")
        let history = try #require(try bookclub.json("history", "--json") as? [[String: Any]])
        #expect(
            history.map { $0["command"] as? String } == [
                "finish dune", "progress dune +30", "progress dune 120 --note 'the spice'", "add Dune --pages 412",
            ])
        #expect(
            history.map { $0["summary"] as? String } == [
                "'Dune': finished", "'Dune': p. 150", "'Dune': p. 120", "added 'Dune'",
            ])
        #expect(
            try bookclub.run("undo")
                == .init(stdout: "", stderr: "Undid `finish dune`: 'Dune': finished.\n", exitCode: 0))
        #expect(try bookclub.run("undo").stderr == "Undid `progress dune +30`: 'Dune': p. 150.\n")
        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(book["page"] as? Int == 120)
        #expect(book["status"] as? String == "reading")
        try bookclub.run("undo")
        try bookclub.run("undo")
        #expect(try bookclub.run("undo") == .init(stdout: "", stderr: "Error: Nothing to undo.\n", exitCode: 1))
        #expect((try bookclub.json("list", "--all", "--json") as? [Any])?.isEmpty == true)
    }

    /// A writer killed while it wrote the sync state (or any file of the store) leaves a temporary file:
    /// `doctor` names it, and the next writer, or `doctor --fix`, removes it.
    @Test func temporariesOfTheSyncStateAreSweptByTheNextWriter() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let folder = bookclub.home + "/.local/share/bookclub/"
        let leftovers = [".store.json.sync.tmp-41-7", ".store.json.history.recovering.tmp-41-8"].map { folder + $0 }
        for leftover in leftovers { _ = FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8)) }
        let check = try bookclub.run("doctor")
        for leftover in leftovers {
            #expect(check.stdout.contains("problem  \(leftover) was left by an interrupted write"), "\(check.stdout)")
        }
        #expect(try bookclub.run("progress", "dune", "10").exitCode == 0)
        for leftover in leftovers { #expect(!FileManager.default.fileExists(atPath: leftover)) }
    }

    @Test func doctorFindsAndFixesWhatItSafelyCan() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Kindred", "--pages", "264")
        try bookclub.run("progress", "dune", "100", "--date", "2026-01-05")
        try bookclub.run("progress", "dune", "50", "--date", "2026-01-01")
        try bookclub.run("select", "kindred", environment: ["BOOKCLUB_SCENE": "other"])
        try bookclub.run("remove", "Kindred", "--yes")
        let leftover = bookclub.home + "/.local/share/bookclub/.store.json.tmp-1-2"
        _ = FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8))

        let check = try bookclub.run("doctor")
        #expect(check.exitCode == 1)
        #expect(check.stdout.contains("ok       store: 1 book, 2 entries, 0 clubs\n"))
        #expect(check.stdout.contains("note     'Dune' has entries logged out of time order"))
        #expect(
            check.stdout.contains(
                "problem  the scene 'other' selects a book that is no longer there (--fix clears it)\n"))
        #expect(check.stdout.contains("problem  \(leftover) was left by an interrupted write (--fix removes it)\n"))
        #expect(
            check.stderr == "Error: doctor found 2 problems; see above, and `bookclub doctor --fix`.\n",
            "a failure is never silent")

        let fixed = try bookclub.run("doctor", "--fix")
        #expect(fixed.exitCode == 0, "\(fixed.stdout)")
        #expect(
            fixed.stdout.contains(
                "fixed    the scene 'other' selects a book that is no longer there; the selection was cleared\n"))
        #expect(fixed.stdout.contains("fixed    removed \(leftover)"))
        #expect(!FileManager.default.fileExists(atPath: leftover))
        // The journal is folded into store.json, which then holds every change (to edit it by hand).
        #expect(
            fixed.stdout.contains(
                "fixed    folded \(bookclub.storePath).journal into \(bookclub.storePath), which now holds every change\n"
            ))
        #expect(
            try String(contentsOfFile: bookclub.storePath + ".journal", encoding: .utf8).split(separator: "\n").count
                == 1)
        #expect(try String(contentsOfFile: bookclub.storePath, encoding: .utf8).contains("\"page\" : 100"))
        #expect(try bookclub.run("doctor", "--fix").stdout.contains("folded") == false, "nothing more to fold")
        #expect(
            try bookclub.run("undo").stderr == "Undid `remove Kindred --yes`: removed 'Kindred'.\n",
            "undo reaches past the fold")
        try bookclub.run("progress", "kindred", "10")
        let again = try #require(try bookclub.json("doctor", "--json") as? [[String: String]])
        #expect(!again.contains { $0["kind"] == "problem" })
        #expect(
            (try bookclub.json("show", "dune", "--json") as? [String: Any])?["page"] as? Int == 100, "nothing was lost")
        #expect((try bookclub.json("show", "kindred", "--json") as? [String: Any])?["page"] as? Int == 10)
    }

    /// Every earlier schema, from the committed fixtures in `Fixtures/`.
    @Test(arguments: [1, 2, 3])
    func storesOfEarlierSchemasAreMigratedAndKept(_ version: Int) throws {
        defer { bookclub.cleanUp() }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let original = try Data(contentsOf: fixtures.appendingPathComponent("store-v\(version).json"))
        let path = bookclub.home + "/store.json"
        try original.write(to: URL(fileURLWithPath: path))
        // Version 3 has a journal, and an undo log.
        for suffix in [".history", ".journal", ".undo"] {
            let fixture = fixtures.appendingPathComponent("store-v\(version).json\(suffix)").path
            if FileManager.default.fileExists(atPath: fixture) {
                try FileManager.default.copyItem(atPath: fixture, toPath: path + suffix)
            }
        }
        let show = try #require(try bookclub.json("--store", path, "show", "dune", "--json") as? [String: Any])
        let entries = (show["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]]
        #expect(entries?.map { $0["page"] as? Int } == [120, 150])
        #expect(FileManager.default.contents(atPath: path) == original, "reading does not migrate")
        #expect(try bookclub.run("--store", path, "progress", "dune", "+10").exitCode == 0)
        #expect(
            FileManager.default.contents(atPath: path + ".v\(version)") == original,
            "the original is kept beside the store")
        if version == 3 {
            #expect(
                FileManager.default.contents(atPath: path + ".v3.journal")
                    == FileManager.default.contents(
                        atPath: fixtures.appendingPathComponent("store-v3.json.journal").path),
                "with its journal")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"schemaVersion\" : 4"))
        #expect(
            (try bookclub.json("--store", path, "show", "dune", "--json") as? [String: Any])?["page"] as? Int == 160)
        if version >= 2 { #expect(try bookclub.run("--store", path, "club", "list").stdout.contains("Sci-Fi")) }
        if version == 3 {
            let undone = try bookclub.run("--store", path, "undo").stderr
            #expect(undone.hasPrefix("Undid `--store \(path) progress dune +10`"), "the undo log goes on: \(undone)")
            #expect(try bookclub.run("--store", path, "undo").stderr.hasPrefix("Undid `club add Sci-Fi`"))
        }
    }
}
