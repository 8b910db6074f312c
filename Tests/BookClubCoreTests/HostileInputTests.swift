import BookClubCore
import Foundation
import Testing

@testable import bookclub

/// Input an attacker or a careless user gives: refused in words, never a trap, a hang or a raw
/// control character on the terminal.
@Suite struct HostileInputTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test(arguments: ["\u{1B}]0;x\u{07}", "\u{9B}31m", "--\u{202E}x", "\u{7F}"])
    func controlCharactersInArgumentsAreShownNotSent(_ argument: String) throws {
        defer { bookclub.cleanUp() }
        let result = try bookclub.run("list", argument)
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(
            !result.stderr.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" },
            "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
    }

    @Test func aPageCountNoCommandWouldTakeIsRefusedByName() throws {
        defer { bookclub.cleanUp() }
        let document = """
            {"format": "bookclub-export", "version": 1, "books": [{"id": "d1", "title": "Dune", "pages": 9223372036854775807,
             "added": "2026-01-01T00:00:00Z", "tags": [], "readings": []}], "clubs": []}
            """
        try document.write(toFile: bookclub.home + "/huge.json", atomically: true, encoding: .utf8)
        let result = try bookclub.run("import", "json", "huge.json")
        #expect(result.exitCode == 65)
        #expect(
            result.stderr.contains("huge.json") && result.stderr.contains("'Dune'") && result.stderr.contains("pages"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
    }

    @Test func anEntryPastAnyPageInTheHistoryIsRefused() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "100").exitCode == 0)
        // Folded, so that the journal no longer carries the line (it would write it back).
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0)
        let history = bookclub.storePath + ".history"
        let text = try String(contentsOfFile: history, encoding: .utf8)
        try text.replacing("\"page\":100", with: "\"page\":9223372036854775807").write(
            toFile: history, atomically: true, encoding: .utf8)
        for command in [["show", "dune"], ["stats"], ["export"]] {
            let result = try bookclub.run(command)
            #expect(result.exitCode == 65, "\(command): \(result)")
            #expect(result.stderr.contains("store.json.history"), "\(command): \(result.stderr)")
        }
    }

    /// Rows as long as the longest note once cost every row; a generous bound catches that again
    /// (it took 20 s) without timing anything finer.
    @Test func showIsLinearInTheLongestNote() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "10000")
        let lines = (1...5_000).map { page in
            #"{"book": "dune", "page": \#(page)"#
                + (page == 2_500 ? #", "note": "\#(String(repeating: "spice ", count: 34_000))""# : "") + "}"
        }
        #expect(try bookclub.run(["log", "--stdin"], input: lines.joined(separator: "\n") + "\n").exitCode == 0)
        let started = Date()
        let show = try bookclub.run(["show", "dune"], environment: ["COLUMNS": ""])
        #expect(show.exitCode == 0)
        #expect(show.stdout.split(separator: "\n").count > 5_000)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func oneFileNeverPlaysTwoRoles() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune")
        let store = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let settings = try bookclub.run(["doctor", "--fix"], environment: ["BOOKCLUB_SETTINGS": bookclub.storePath])
        #expect(settings.exitCode == 64)
        #expect(
            settings.stderr.hasPrefix("Error: the store and the settings file are the same file ("),
            "\(settings.stderr)")
        let output = try bookclub.run(
            "notes", "dune", "--output", ".local/share/bookclub/../bookclub/store.json.journal")
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("Error: the store's journal and --output are the same file ("))
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == store, "nothing was written")
        #expect(try bookclub.run("notes", "dune", "--output", "dune.md").exitCode == 0)
    }
}

/// A command that fails changes no file: every check that can fail runs before the first byte is
/// written, and what was written before a later failure is put back.
@Suite struct FailedCommandsChangeNothingTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    var files: [String] {
        ["", ".journal", ".history", ".undo"].map { bookclub.storePath + $0 }
    }

    /// Every file of the store, as bytes (or what a link points to), to compare before and after.
    func contents() -> [String?] {
        files.map { path in
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                return "link to " + target
            }
            return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    func expectRefused(
        _ arguments: [String], code: Int32, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = contents()
        let result = try bookclub.run(arguments)
        #expect(result.exitCode == code, "\(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.hasPrefix("Error: ") && result.stderr.contains(text), "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(contents() == before, "a file changed", sourceLocation: sourceLocation)
        let history = try bookclub.run("history")
        #expect(
            !history.stdout.contains(arguments.joined(separator: " ")), "\(history.stdout)",
            sourceLocation: sourceLocation)
    }

    func prepare() throws {
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Emma", "--pages", "474")
        #expect(try bookclub.run("progress", "dune", "100").exitCode == 0)
        #expect(try bookclub.run("progress", "emma", "50").exitCode == 0)
    }

    /// A save that must write a new snapshot (of an earlier schema, here) reads every book first: one that
    /// cannot be read fails the command before the history or the undo log is touched.
    @Test func aSaveThatCannotFoldWritesNothing() throws {
        defer { bookclub.cleanUp() }
        try prepare()
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0)
        let snapshot = try String(contentsOfFile: bookclub.storePath, encoding: .utf8)
        // An earlier schema is rewritten at the next save; a book no command could write fails it.
        try snapshot.replacing("\"title\" : \"Emma\"", with: "\"title\" : 12").replacing(
            "\"schemaVersion\" : 3", with: "\"schemaVersion\" : 2"
        )
        .write(toFile: bookclub.storePath, atomically: true, encoding: .utf8)
        try expectRefused(["abandon", "dune"], code: 65, mentioning: "store.json")
    }

    @Test func aMissingHistoryIsNotReplacedByAnEmptyOne() throws {
        defer { bookclub.cleanUp() }
        try prepare()
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0, "folded: the journal carries no line")
        try FileManager.default.removeItem(atPath: bookclub.storePath + ".history")
        try expectRefused(["progress", "dune", "+5"], code: 65, mentioning: "store.json.history")
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath + ".history"))
    }

    @Test func anUndoLogThatIsALinkLoopChangesNothing() throws {
        defer { bookclub.cleanUp() }
        try prepare()
        let undo = bookclub.storePath + ".undo"
        try FileManager.default.removeItem(atPath: undo)
        try FileManager.default.createSymbolicLink(atPath: undo, withDestinationPath: undo)
        try expectRefused(
            ["progress", "emma", "60%"], code: 74,
            mentioning: "store.json.undo: is a symbolic link; bookclub replaces its files")
    }

    @Test func aHistoryLinkedToTheJournalChangesNothing() throws {
        defer { bookclub.cleanUp() }
        try prepare()
        let history = bookclub.storePath + ".history"
        try FileManager.default.removeItem(atPath: history)
        try FileManager.default.createSymbolicLink(
            atPath: history, withDestinationPath: bookclub.storePath + ".journal")
        // Nothing typed was wrong: a link where a file belongs is an I/O matter, not a usage error.
        try expectRefused(["progress", "dune", "+5"], code: 74, mentioning: "store.json.journal")
    }

    @Test(arguments: ["a folder", "a named pipe"])
    func aCompanionThatIsNotAFileChangesNothing(_ kind: String) throws {
        defer { bookclub.cleanUp() }
        try prepare()
        let undo = bookclub.storePath + ".undo"
        try FileManager.default.removeItem(atPath: undo)
        if kind == "a folder" {
            try FileManager.default.createDirectory(atPath: undo, withIntermediateDirectories: false)
        } else {
            mkfifo(undo, 0o600)
        }
        let before = try bookclub.run("show", "dune", "--json").stdout
        let result = try bookclub.run("progress", "dune", "+5")
        #expect(
            result.exitCode == 74
                && result.stderr.contains("store.json.undo: is \(kind); bookclub keeps a file of its own there"),
            "\(result)")
        #expect(try bookclub.run("show", "dune", "--json").stdout == before)
    }

    /// `undo` cuts the history and writes the undo log anew: a pipe there is refused, not waited on.
    @Test func undoRefusesAHistoryThatIsAPipe() throws {
        defer { bookclub.cleanUp() }
        try prepare()
        let history = bookclub.storePath + ".history"
        try FileManager.default.removeItem(atPath: history)
        #expect(mkfifo(history, 0o600) == 0)
        let store = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let result = try bookclub.run("undo")
        #expect(
            result.exitCode == 74
                && result.stderr.contains("store.json.history: is a named pipe; bookclub keeps a file"),
            "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == store)
    }
}

/// A store is whole or refused: a snapshot names the journal it goes with, so a journal that went
/// missing, or one of another store, is found out before anything is counted from the snapshot alone.
@Suite struct MissingCompanionTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    func prepare() throws -> [String: Data] {
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "100", "--note", "the spice").exitCode == 0)
        #expect(try bookclub.run("progress", "dune", "150").exitCode == 0)
        return bookclub.storeFiles()
    }

    /// A journal lost (deleted) or cut to nothing (by a sync or disk tool) is refused by every
    /// command; `doctor --fix` goes on from the snapshot and puts back what the history holds past it,
    /// keeping aside what it cannot place: not a byte of the history is lost.
    @Test(arguments: ["missing", "empty"])
    func aStoreWhoseJournalIsLostIsRefusedAndMendedWithItsHistory(_ loss: String) throws {
        defer { bookclub.cleanUp() }
        _ = try prepare()
        _ = try bookclub.add("ノルウェイの森", "--pages", "296")
        #expect(try bookclub.run("progress", "ノルウェイ", "40", "--note", "井戸 🌊").exitCode == 0)
        // A book added and removed since the snapshot stays removed; its entry is kept aside.
        _ = try bookclub.add("Kindred", "--pages", "264")
        #expect(try bookclub.run("progress", "kindred", "12", "--note", "Dana").exitCode == 0)
        #expect(try bookclub.run("remove", "Kindred", "--yes").exitCode == 0)
        let history = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath + ".history"))
        let journal = bookclub.storePath + ".journal"
        if loss == "missing" {
            try FileManager.default.removeItem(atPath: journal)
        } else {
            try Data().write(to: URL(fileURLWithPath: journal))
        }
        let before = bookclub.storeFiles()
        for command in [["list"], ["progress", "dune", "+5"], ["show", "dune"], ["history"], ["undo"]] {
            let result = try bookclub.run(command)
            #expect(result.exitCode == 65, "\(command): \(result)")
            #expect(
                result.stderr.contains("store.json.journal: is \(loss)")
                    && result.stderr.contains("bookclub doctor --fix"), "\(command): \(result.stderr)")
        }
        #expect(bookclub.storeFiles() == before, "nothing was cut or written")
        let doctor = try bookclub.run("doctor")
        #expect(doctor.exitCode == 1 && doctor.stdout.contains("store.json.journal: is \(loss)"), "\(doctor)")

        let fix = try bookclub.run("doctor", "--fix")
        #expect(fix.exitCode == 0, "\(fix)")
        #expect(fix.stdout.contains("started a new "), "\(fix)")
        #expect(fix.stdout.contains("put back 3 progress entries from "), "\(fix)")
        // The snapshot knew Dune only: the book added after it comes back as the undo log's record of
        // the change after it holds it, with its entry.
        let back = try #require(try bookclub.json("show", "ノルウェイ", "--json") as? [String: Any])
        let note = ((back["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]])?.first?["note"]
        #expect(note as? String == "井戸 🌊")
        #expect(try bookclub.run("show", "kindred").exitCode == 1, "a removed book stays removed")
        let folder = URL(fileURLWithPath: bookclub.storePath).deletingLastPathComponent().path
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasPrefix("store.json.history.lost-journal-")
        }
        #expect(aside.count == 1 && fix.stdout.contains("kept 1 line of "), "\(aside) \(fix)")
        let kept = try #require(aside.first.flatMap { FileManager.default.contents(atPath: folder + "/" + $0) })
        #expect(String(decoding: kept, as: UTF8.self).contains("Dana"))
        #expect(
            history.count <= kept.count + (bookclub.storeFiles()["store.json.history"]?.count ?? 0),
            "no byte of it lost")

        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        let entries = try #require((book["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["page"] as? Int } == [100, 150])
        #expect(entries.first?["note"] as? String == "the spice")
        #expect(try bookclub.run("progress", "dune", "+5").exitCode == 0)
        #expect(try bookclub.run("doctor").exitCode == 0)
        let again = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        let pages = (again["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]]
        #expect(pages?.map { $0["page"] as? Int } == [100, 150, 155])
    }

    /// Undo leaves the history where the store counts it: `doctor` finds nothing to mend.
    @Test func afterAnUndoDoctorFindsNothingWrong() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "100", "--note", "the spice").exitCode == 0)
        #expect(try bookclub.run("undo").exitCode == 0)
        let doctor = try bookclub.run("doctor")
        #expect(doctor.exitCode == 0, "\(doctor)")
        #expect(!doctor.stdout.contains("never committed"), "\(doctor)")
        #expect(try bookclub.run("progress", "dune", "120").exitCode == 0)
        #expect(try bookclub.run("doctor").exitCode == 0)
    }

    @Test func aJournalOfAnotherStoreIsRefused() throws {
        defer { bookclub.cleanUp() }
        _ = try prepare()
        let other = try BookClubRunner()
        defer { other.cleanUp() }
        _ = try other.add("Kindred", "--pages", "264")
        #expect(try other.run("progress", "kindred", "40").exitCode == 0)
        try FileManager.default.removeItem(atPath: bookclub.storePath + ".journal")
        try FileManager.default.copyItem(atPath: other.storePath + ".journal", toPath: bookclub.storePath + ".journal")
        let before = bookclub.storeFiles()
        let result = try bookclub.run("progress", "dune", "+5")
        #expect(
            result.exitCode == 65 && result.stderr.contains("store.json.journal: belongs to another store"), "\(result)"
        )
        #expect(bookclub.storeFiles() == before)
        let fix = try bookclub.run("doctor", "--fix")
        #expect(fix.exitCode == 1, "a journal of another store is not replaced by doctor: \(fix)")
        #expect(bookclub.storeFiles() == before)
    }

    @Test func aMissingHistoryIsNamedWithTheWayOut() throws {
        defer { bookclub.cleanUp() }
        _ = try prepare()
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0, "folded: the journal carries no line")
        try FileManager.default.removeItem(atPath: bookclub.storePath + ".history")
        let before = bookclub.storeFiles()
        let result = try bookclub.run("show", "dune")
        #expect(result.exitCode == 65 && result.stderr.contains("store.json.history: is missing"), "\(result)")
        #expect(bookclub.storeFiles() == before)
    }
}

/// Text from outside that a hint or a JSON document carries stays inert on a terminal, and the same
/// text when pasted or parsed.
@Suite struct TerminalSafetyTests {
    @Test func aShellWordWithControlsIsQuotedAsANSIC() {
        #expect("dune".shellWord == "dune")
        #expect("the dune".shellWord == "'the dune'")
        #expect("e\u{202E}vil".shellWord == "$'e\\u202evil'")
        #expect("\u{1B}]0;x\u{07}".shellWord == "$'\\x1b]0;x\\x07'")
        #expect("it's\u{9B}".shellWord == "$'it\\'s\\u009b'")
    }

    @Test func jsonOutputEscapesWhatATerminalWouldActOn() throws {
        let json = try JSONOutput.render(["name": "\u{9B}31m e\u{202E}vil \u{1B}", "plain": "ノルウェイの森"])
        #expect(!json.unicodeScalars.contains { $0.isTerminalUnsafe && $0 != "\n" })
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(decoded == ["name": "\u{9B}31m e\u{202E}vil \u{1B}", "plain": "ノルウェイの森"], "the same document")
    }
}

/// A file whose content is plainly another kind than its role's is refused before anything reads or
/// writes it: a copy of the store named as the settings file (a plausible slip in a dotfile) is
/// never rewritten as settings, not even by `doctor --fix`.
@Suite struct OneFileOneKindTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func aStoreNamedAsTheSettingsFileIsRefused() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let copy = bookclub.home + "/copy.json"
        try FileManager.default.copyItem(atPath: bookclub.storePath, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        for command in [["settings", "set", "yearlyGoal", "10"], ["doctor", "--fix"], ["list"]] {
            let result = try bookclub.run(command, environment: ["BOOKCLUB_SETTINGS": copy])
            #expect(result.exitCode == 64, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "Error: the settings file (\(copy)) holds a bookclub store; give --settings or BOOKCLUB_SETTINGS"),
                "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }

    /// The same at bookclub's own places is no usage error: nothing the user typed is wrong. A file
    /// of the wrong kind there is damaged data (65), a link from one to another an I/O matter (74).
    @Test func aWrongFileAtItsOwnPlaceIsDamagedDataNotAUsageError() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "5").exitCode == 0)
        #expect(try bookclub.run("settings", "set", "yearlyGoal", "12").exitCode == 0)
        let manager = FileManager.default
        let settings = bookclub.settingsPath
        let saved = try Data(contentsOf: URL(fileURLWithPath: settings))
        try manager.removeItem(atPath: settings)
        try manager.copyItem(atPath: bookclub.storePath, toPath: settings)
        var result = try bookclub.run("list")
        #expect(result.exitCode == 65, "\(result)")
        #expect(result.stderr.hasPrefix("Error: the settings file (\(settings)) holds a bookclub store"), "\(result)")
        #expect(!result.stderr.contains("Usage:"))
        try manager.removeItem(atPath: settings)
        try saved.write(to: URL(fileURLWithPath: settings))

        let journal = bookclub.storePath + ".journal"
        let real = try Data(contentsOf: URL(fileURLWithPath: journal))
        try manager.removeItem(atPath: journal)
        try manager.createSymbolicLink(atPath: journal, withDestinationPath: bookclub.storePath + ".history")
        for command in [["list"], ["progress", "dune", "10"], ["doctor"]] {
            result = try bookclub.run(command)
            #expect(result.exitCode == 74, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix("Error: the store's journal and the store's history are the same file"),
                "\(result)")
            #expect(!result.stderr.contains("Usage:"))
        }
        try manager.removeItem(atPath: journal)
        try real.write(to: URL(fileURLWithPath: journal))
        #expect(try bookclub.run("progress", "dune", "10").exitCode == 0)
    }

    @Test func settingsOrAHistoryNamedAsTheStoreAreRefused() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "50").exitCode == 0)
        #expect(try bookclub.run("settings", "set", "yearlyGoal", "12").exitCode == 0)
        let settings = bookclub.home + "/settings-copy.json"
        try FileManager.default.copyItem(atPath: bookclub.home + "/.config/bookclub/settings.json", toPath: settings)
        for (path, kind) in [(settings, "bookclub settings"), (bookclub.storePath + ".history", "a store's history")] {
            let result = try bookclub.run("--store", path, "progress", "dune", "+1")
            #expect(result.exitCode == 64 && result.stderr.contains("the store (\(path)) holds \(kind)"), "\(result)")
        }
        #expect(try bookclub.run("list").exitCode == 0, "the store itself is read as ever")
    }
}

/// Text that came from outside (an e-reader's file, another machine's log, the command line) is shown
/// with its control characters escaped in everything bookclub prints for people, whatever the command
/// and wherever the output goes; formats kept exact (JSON, CSV) escape it their own way.
@Suite(.serialized) struct HostileTextTests {
    /// The commands that print a book, a club or the year, each on the hostile home.
    static let reports: [[String]] = [
        ["notes", "dune"], ["notes", "ulysses"], ["notes", "left hand"], ["notes", "emma"], ["notes", "kindred"],
        ["notes", "--club", "scifi"], ["agenda"], ["agenda", "--days", "3650"], ["show", "dune"],
        ["show", "ulysses"], ["show", "left hand"], ["show", "kindred"], ["show", "emma"], ["list", "--all"],
        ["list", "--all", "--stars"], ["history"], ["stats"], ["stats", "--year", "2020"], ["stats", "--html"],
        ["stats", "--year", "2024"], ["stats", "--year", "2025", "--html"], ["club", "show", "scifi"],
        ["club", "list"], ["club", "meetings"],
        ["sync", "status"], ["sync"], ["doctor"], ["export", "--format", "markdown"], ["select", "dune"],
        ["show", "nothing like it"], ["progress", "dune", "+1", "--note", HostileHome.evil("more")],
        ["undo"], ["remove", "emma", "--yes"], ["club", "remove", "scifi", "--yes"],
    ]

    @Test func everyReportShowsTheControlCharactersOfImportsSyncedLogsAndArguments() throws {
        let home = try HostileHome()
        defer { home.cleanUp() }
        let pristine = PowerCut.Disk.read(home.laptop.home)
        var problems: [String] = []
        for arguments in Self.reports {
            try pristine.write(to: home.laptop.home)
            for colour in [[], ["--color", "always"]] {
                let result = try home.laptop.run(arguments + colour)
                #expect([0, 1].contains(result.exitCode), "\(arguments): \(result)")
                problems += HostileHome.problems(
                    colour.isEmpty ? result : Self.withoutOurColours(result), arguments + colour)
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // The text is there, shown.
        try pristine.write(to: home.laptop.home)
        let notes = try home.laptop.run("notes", "dune").stdout
        #expect(notes.hasPrefix("# Dune\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{9B}31m\\u{7F}\\u{202E}\\t"), "\(notes)")
        #expect(notes.contains("> Fear is the mind-killer.\\u{1B}]0;pwned"), "\(notes)")
        let club = try home.laptop.run("notes", "--club", "scifi").stdout
        #expect(club.contains("# scifi\\u{1B}]0;pwned") && club.contains("Where: the library\\u{1B}"), "\(club)")
        #expect(club.contains("\\u{0}"), "NUL from the synced log is shown too: \(club)")
    }

    /// A note of several lines keeps its lines, in `show` as rows of their own and in `notes` as the
    /// item's lines; what else the note holds is shown.
    @Test func aNoteOfSeveralLinesKeepsItsLines() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let note = "first\u{1B}[2J line\nsecond\tline\u{9B}"
        #expect(try bookclub.run("progress", "dune", "100", "--note", note, "--date", "2026-11-20").exitCode == 0)
        let notes = try bookclub.run("notes", "dune").stdout
        #expect(
            notes.hasSuffix("- p. 100, Fri 20 Nov 2026: first\\u{1B}[2J line\n  second\\tline\\u{9B}\n"), "\(notes)")
        let show = try bookclub.run("show", "dune").stdout.split(separator: "\n")
        #expect(show.contains { $0.hasSuffix("p. 100  24%  first\\u{1B}[2J line") }, "\(show)")
        #expect(show.contains { $0.hasSuffix("  second\\tline\\u{9B}") }, "\(show)")
    }

    /// Every command of the tree, found as the help finds it, is run on the hostile home: its own
    /// examples, bare, and with each reference, plain and coloured. A new command is checked without
    /// a line here.
    @Test func everyCommandOfTheTreeShowsThem() throws {
        let home = try HostileHome()
        defer { home.cleanUp() }
        let pristine = PowerCut.Disk.read(home.laptop.home)
        var problems: [String] = []
        var runs: [String: Int] = [:]
        for (path, type) in CLI.commands {
            let words = path.split(separator: " ").map(String.init)
            let variants =
                type.configuration.examples.map(Self.words(ofExample:))
                + [words, words + ["--json"]] + HostileHome.references.map { words + [$0] }
            for arguments in variants where !arguments.contains("--edit") {
                try pristine.write(to: home.laptop.home)
                // JSON is never coloured.
                for colour in arguments.contains("--json") ? [[]] : [[], ["--color", "always"]] {
                    let result = try home.laptop.run(arguments + colour, timeLimit: 30)
                    #expect(!result.signalled, "\(arguments): \(result)")
                    problems += HostileHome.problems(
                        colour.isEmpty ? result : Self.withoutOurColours(result), arguments + colour)
                    runs[path, default: 0] += 1
                }
            }
        }
        #expect(Set(runs.keys) == Set(CLI.commands.map(\.path)), "every command ran")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// An example's words as a shell splits them, up to a pipe or a redirection: `bookclub`, quotes
    /// and `~` as the shell has them.
    static func words(ofExample example: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in example {
            if let open = quote {
                if character == open { quote = nil } else { word = (word ?? "") + String(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                word = word ?? ""
            } else if character == " " {
                if let finished = word { words.append(finished) }
                word = nil
            } else if word == nil && (character == "|" || character == ">" || character == "<") {
                break
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let word, quote == nil || !word.isEmpty { words.append(word) }
        return Array(words.drop { $0 == "bookclub" })
    }

    /// The output without the colour sequences bookclub writes (SGR: `ESC [ digits ; m`), which are
    /// its own layout; what is left must hold no control character of the data.
    static func withoutOurColours(_ result: BookClubRunner.Result) -> BookClubRunner.Result {
        var plain = result
        plain.stdout = result.stdout.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        plain.stderr = result.stderr.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        return plain
    }
}
