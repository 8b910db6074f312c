import BookClubCore
import Foundation
import Testing

@testable import bookclub

#if canImport(Glibc)
    import Glibc
#endif

/// The built `bookclub`, run against a temporary home: standard output, standard error, exit code and
/// the files written are checked separately.
@Suite struct EndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    /// Entries and readings get ids of version 7, each after the one before it; books, clubs and
    /// states random ones of version 4, whose first digits tell them apart.
    @Test func theIDsOfEntriesAreOrderedAndTheRestRandom() {
        let ids = (0..<1000).map { _ in Services.randomIDs.uuid() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.uuid.6 >> 4 == 7)  // version 7: the time, a counter, random bits
            #expect(id.uuid.8 >> 6 == 0b10)  // the variant of RFC 9562
            #expect(UUID(uuidString: id.uuidString) == id)
        }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0.uuidString < $1.uuidString }, "in the order made")
        let hexes = (0..<1000).map { _ in Services.randomIDs.hex() }
        #expect(Set(hexes).count == hexes.count)
        #expect(hexes.allSatisfy { Array($0)[12] == "4" }, "version 4")
        #expect(Set(hexes.map { $0.prefix(4) }).count > 900, "their first digits differ")
    }

    @Test func aReadersFirstSession() throws {
        defer { bookclub.cleanUp() }
        let added = try bookclub.run("add", "Dune", "--author", "Frank Herbert", "--pages", "412", "--tag", "sf")
        #expect(added.exitCode == 0)
        #expect(added.stdout.range(of: #"^[0-9a-f]{32}\n$"#, options: .regularExpression) != nil)
        #expect(added.stderr == "Added 'Dune' by Frank Herbert.\n")

        let logged = try bookclub.run("progress", "dune", "120", "--note", "the spice")
        #expect(logged == .init(stdout: "", stderr: "'Dune': p. 120 of 412 (29%).\n", exitCode: 0))

        let list = try bookclub.run("list")
        #expect(list.exitCode == 0)
        #expect(list.stderr == "")
        let id = String(added.stdout.prefix(8))
        #expect(list.stdout == "\(id)  Dune  Frank Herbert  █████▉░░░░░░░░░░░░░░  29%  p. 120/412\n")
        #expect(!list.stdout.contains("\u{1B}"))

        let store = try String(contentsOfFile: bookclub.storePath, encoding: .utf8)
        let journal = try String(contentsOfFile: bookclub.storePath + ".journal", encoding: .utf8)
        #expect(store.hasPrefix("{\n  \"books\" : ["))
        #expect(store.contains("\"schemaVersion\" : 4"))
        #expect(store.contains("\"title\" : \"Dune\"") || journal.contains("\"title\":\"Dune\""))
        let permissions =
            try FileManager.default.attributesOfItem(atPath: bookclub.storePath)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let history = try String(contentsOfFile: bookclub.storePath + ".history", encoding: .utf8)
        #expect(history.contains("the spice"))
    }

    @Test func theSameValueTwiceAddsNothing() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("progress", "dune", "120")
        let before = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let again = try bookclub.run("progress", "dune", "120")
        #expect(
            again
                == .init(stdout: "", stderr: "'Dune' is already at p. 120 of 412 (29%); nothing logged.\n", exitCode: 0)
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == before)
    }

    @Test func showAndNotesReadTheWholeHistory() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("The Left Hand of Darkness", "--pages", "304")
        try bookclub.run("progress", "left hand", "40", "--note", "Genly arrives", "--date", "2026-11-01")
        try bookclub.run("progress", "left hand", "+60", "--date", "2026-11-02T21:30")
        try bookclub.run("progress", "left hand", "50%", "--note", "on the ice", "--date", "2026-11-03")
        let show = try bookclub.run("show", "left")
        #expect(show.exitCode == 0)
        #expect(show.stdout.contains("Sun 1 Nov 2026 12:00  p. 40   13%  Genly arrives"))
        #expect(show.stdout.contains("Mon 2 Nov 2026 21:30  p. 100  33%"))
        #expect(show.stdout.contains("Tue 3 Nov 2026 12:00          50%  on the ice"))
        let notes = try bookclub.run("notes", "left")
        #expect(
            notes.stdout == """
                # The Left Hand of Darkness
                p. 152 of 304 (50%)

                - p. 40, Sun 1 Nov 2026: Genly arrives
                - 50%, Tue 3 Nov 2026: on the ice

                """)
        let json = try #require(try bookclub.json("show", "left", "--json") as? [String: Any])
        let readings = try #require(json["readings"] as? [[String: Any]])
        let entries = try #require(readings.first?["entries"] as? [[String: Any]])
        #expect(entries.count == 3)
        #expect(entries.first?["page"] as? Int == 40)
        #expect(json["progress"] as? Double == 0.5)
    }

    @Test func finishUnfinishAbandonReread() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("progress", "dune", "400", "--date", "2026-11-19")
        #expect(try bookclub.run("finish", "dune", "--date", "2026-11-20").stderr == "Finished 'Dune'.\n")
        let refused = try bookclub.run("progress", "dune", "410")
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("run `bookclub unfinish dune`"))
        #expect(try bookclub.run("finish", "dune").stderr == "'Dune' is already finished; nothing changed.\n")
        #expect(try bookclub.run("unfinish", "dune").exitCode == 0)
        #expect(try bookclub.run("progress", "dune", "410").exitCode == 0)
        #expect(try bookclub.run("abandon", "dune", "--note", "lost the thread").exitCode == 0)
        #expect(try bookclub.run("list").stdout == "")
        #expect(try bookclub.run("list", "--abandoned").stdout.contains("abandoned"))
        #expect(try bookclub.run("reread", "dune").stderr == "Started reading 2 of 'Dune'.\n")
        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(book["status"] as? String == "reading")
        #expect((book["readings"] as? [Any])?.count == 2)
    }

    @Test func editAndRemove() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "400", "--tag", "sf")
        let edited = try bookclub.run(
            "edit", "dune", "--pages", "412", "--author", "Frank Herbert", "--add-tag", "classic", "--remove-tag", "SF",
            "--json")
        #expect(edited.exitCode == 0)
        let book = try JSONSerialization.jsonObject(with: Data(edited.stdout.utf8)) as? [String: Any]
        #expect(book?["pages"] as? Int == 412)
        #expect(book?["tags"] as? [String] == ["classic"])
        let notConfirmed = try bookclub.run("remove", "dune")
        #expect(notConfirmed.exitCode == 1)
        #expect(notConfirmed.stderr.contains("give --yes"))
        #expect(try bookclub.run("remove", "dune", "--yes").stderr == "Removed 'Dune'.\n")
        #expect((try bookclub.json("list", "--all", "--json") as? [Any])?.isEmpty == true)
    }

    /// A person reading "Remove ...? [y/N]" holds no lock: a cron job writes meanwhile, and what was
    /// asked about is checked again under the lock before anything goes.
    @Test func removeAsksBeforeItLocks() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Kindred", "--pages", "264")
        try bookclub.run("club", "add", "Butler Readers")
        try bookclub.run("settings", "set", "lockTimeout", "0.5")
        func remove(_ arguments: [String], whileAsked other: [String]) throws -> (InProcess.Run, BookClubRunner.Result?)
        {
            var during: BookClubRunner.Result?
            let run = InProcess.run(arguments, home: bookclub.home) {
                during = try? bookclub.run(other)
                return "y"
            }
            return (run, during)
        }
        // Another book changes while the question waits: the removal goes ahead.
        var (run, during) = try remove(["remove", "dune"], whileAsked: ["progress", "kindred", "10"])
        #expect(during?.exitCode == 0, "\(during?.stderr ?? "")")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.hasSuffix("Removed 'Dune'.\n"))
        // The book asked about changes: nothing is removed.
        (run, during) = try remove(["remove", "kindred"], whileAsked: ["progress", "kindred", "20"])
        #expect(during?.exitCode == 0, "\(during?.stderr ?? "")")
        #expect(run.code == 1)
        #expect(
            run.stderr.hasSuffix("Error: Nothing removed: it changed while you were asked; run the command again.\n"))
        #expect(try bookclub.run("show", "kindred").exitCode == 0)
        // The same for a club.
        (run, during) = try remove(["club", "remove", "Butler Readers"], whileAsked: ["club", "add", "Other"])
        #expect(during?.exitCode == 0, "\(during?.stderr ?? "")")
        #expect(run.code == 0, "\(run.stderr)")
        (run, during) = try remove(["club", "remove", "Other"], whileAsked: ["club", "rename", "Other", "Others"])
        #expect(during?.exitCode == 0, "\(during?.stderr ?? "")")
        #expect(run.code == 1)
    }

    @Test func scenesKeepTheirOwnSelection() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Kindred", "--pages", "264")
        try bookclub.run("select", "dune", environment: ["BOOKCLUB_SCENE": "one"])
        try bookclub.run("select", "kindred", environment: ["BOOKCLUB_SCENE": "two"])
        try bookclub.run("progress", "100", environment: ["BOOKCLUB_SCENE": "one"])
        try bookclub.run("progress", "50", environment: ["BOOKCLUB_SCENE": "two"])
        let books = try #require(try bookclub.json("list", "--json") as? [[String: Any]])
        #expect(
            Dictionary(uniqueKeysWithValues: books.map { ($0["title"] as! String, $0["page"] as? Int) }) == [
                "Dune": 100, "Kindred": 50,
            ])
        let none = try bookclub.run("progress", "10")
        #expect(none.exitCode == 1)
        #expect(none.stderr.contains("select one with `bookclub select BOOK`"))
        #expect(try bookclub.run("select", environment: ["BOOKCLUB_SCENE": "one"]).stdout.hasSuffix("  Dune\n"))
    }

    @Test func settingsCommands() throws {
        defer { bookclub.cleanUp() }
        #expect(try bookclub.run("settings", "get", "lockTimeout").stdout == "10\n")
        #expect(try bookclub.run("settings", "set", "lockTimeout", "2").exitCode == 0)
        #expect(try bookclub.run("settings", "get", "lockTimeout").stdout == "2\n")
        let settings = try String(contentsOfFile: bookclub.settingsPath, encoding: .utf8)
        #expect(settings.contains("\"lockTimeout\" : 2"))
        let bad = try bookclub.run("settings", "set", "syncProgress", "maybe")
        #expect(
            bad
                == .init(
                    stdout: "",
                    stderr: """
                        Error: The value 'maybe' is invalid for '<value>': syncProgress takes true or false
                        Usage: bookclub settings set <key> <value> [--json]
                          See 'bookclub settings set --help' for more information.

                        """, exitCode: 64))
        let unknown = try bookclub.run("settings", "get", "colour")
        #expect(unknown.stderr == "Error: Unknown setting 'colour'. Did you mean 'color'?\n")
        let list = try #require(try bookclub.json("settings", "list", "--json") as? [[String: Any]])
        #expect(
            list.map { $0["key"] as? String } == [
                "updateArtwork", "syncProgress", "syncFolder", "color", "lockTimeout", "hookTimeout", "yearlyGoal",
                "contact",
                "networkTimeout", "coverSizeLimit", "answerSizeLimit", "clubProgress", "clubKey",
            ])
        #expect(try bookclub.run("settings", "reset", "--all").exitCode == 0)
        #expect(try bookclub.run("settings", "get", "lockTimeout").stdout == "10\n")
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath), "settings never touch the store")
    }

    @Test func editorDrafts() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let write = #"f() { printf '200\nthe sleeper\n  must awaken \n# ignored\n' > "$1"; }; f"#
        let edited = try bookclub.run("progress", "dune", "--edit", environment: ["EDITOR": write])
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        #expect(edited.stderr == "'Dune': p. 200 of 412 (49%).\n")
        let notes = try bookclub.run("notes", "dune", "--json")
        #expect(notes.stdout.contains("the sleeper\\n  must awaken"))
        let empty = try bookclub.run(
            "progress", "dune", "--edit", environment: ["VISUAL": "cp /dev/null", "EDITOR": write])
        #expect(empty == .init(stdout: "", stderr: "Error: Empty draft; nothing was logged.\n", exitCode: 1))
        let failing = try bookclub.run("progress", "dune", "--edit", environment: ["EDITOR": "false"])
        #expect(failing.exitCode == 1)
        #expect(failing.stderr.contains("exited with status 1"))
    }

    @Test func quietKeepsDataAndErrorsOnly() throws {
        defer { bookclub.cleanUp() }
        let added = try bookclub.run("add", "Dune", "--pages", "412", "--quiet")
        #expect(added.stderr == "")
        #expect(added.stdout.count == 33)
        #expect(try bookclub.run("-q", "progress", "dune", "1").stderr == "")
        #expect(try bookclub.run("progress", "dune", "9999", "-q").stderr.hasPrefix("Error: "))
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("list", "--color", "always").stdout.contains("\u{1B}["))
        #expect(!(try bookclub.run("list", "--color", "always", "--no-color").stdout.contains("\u{1B}[")))
        #expect(
            !(try bookclub.run("list", "--color", "auto", environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}[")))
        try bookclub.run("settings", "set", "color", "always")
        #expect(try bookclub.run("list").stdout.contains("\u{1B}["))
        // The setting is an explicit choice too; TERM=dumb means never only under auto.
        #expect(try bookclub.run("list", environment: ["TERM": "dumb"]).stdout.contains("\u{1B}["))
        try bookclub.run("settings", "set", "color", "auto")
        let terminal = InProcess.run(["list"], home: bookclub.home, onTerminal: true)
        #expect(terminal.stdout.contains("\u{1B}["))
        let dumb = InProcess.run(["list"], home: bookclub.home, variables: ["TERM": "dumb"], onTerminal: true)
        #expect(!dumb.stdout.contains("\u{1B}["))
        let noColor = InProcess.run(["list"], home: bookclub.home, variables: ["NO_COLOR": "1"], onTerminal: true)
        #expect(!noColor.stdout.contains("\u{1B}["))
    }

    @Test func jsonIsTheOnlyOutputAndEmptyIsAnEmptyArray() throws {
        defer { bookclub.cleanUp() }
        let empty = try bookclub.run("list", "--json")
        #expect(empty.stdout == "[\n\n]\n" && empty.exitCode == 0)
        #expect(
            empty.stderr == "There is no store at \(bookclub.home)/.local/share/bookclub/store.json yet; "
                + "the first command that changes something makes it.\n", "a store path mistyped is not silent")
        #expect(try bookclub.run("list", "--json", "--quiet").stderr == "")
        _ = try bookclub.add("Dune", "--pages", "412")
        let logged = try bookclub.run("progress", "dune", "45%", "--json")
        let book = try JSONSerialization.jsonObject(with: Data(logged.stdout.utf8)) as? [String: Any]
        #expect(book?["progress"] as? Double == 0.45)
        #expect(book?["finished"] as? Bool == false)
        #expect(book?["title"] as? String == "Dune")
    }

    @Test func controlCharactersFromUserDataAreShownEscaped() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Evil\u{1B}[31mTitle", "--pages", "10")
        let list = try bookclub.run("list", "--all")
        #expect(!list.stdout.contains("\u{1B}"))
        #expect(list.stdout.contains("Evil\\u{1B}[31mTitle"))
    }

    @Test func twentyConcurrentWritersAllLand() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "10000")
        let results = try (0..<20).map { index in
            try bookclub.start(["progress", "dune", "+1", "--note", "writer \(index)"])
        }.map { process -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(results == Array(repeating: 0, count: 20))
        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(book["page"] as? Int == 20)
        let entries = (book["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]]
        #expect(Set(entries?.compactMap { $0["note"] as? String } ?? []) == Set((0..<20).map { "writer \($0)" }))
    }

    @Test func helpIsTheSameEverywhereAndFitsEightyColumns() throws {
        defer { bookclub.cleanUp() }
        // Every registered command, so that a new one is checked without being listed here.
        let commands = CLI.commands.map(\.path)
        #expect(commands.count >= 33 && commands.contains("undo") && commands.contains("club meeting"))
        for command in commands.map({ $0.split(separator: " ").map(String.init) }) {
            let dash = try bookclub.run(command + ["--help"], environment: ["COLUMNS": "80"])
            #expect(dash.exitCode == 0)
            #expect(dash.stderr == "")
            #expect(dash.stdout.hasPrefix("OVERVIEW: "))
            #expect(try bookclub.run(command + ["-h"], environment: ["COLUMNS": "80"]) == dash)
            #expect(try bookclub.run(["help"] + command, environment: ["COLUMNS": "80"]) == dash)
            #expect(try bookclub.run(command + ["--help", "-h"], environment: ["COLUMNS": "80"]) == dash)
            #expect(dash.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(command)")
        }
        let root = try bookclub.run(environment: ["COLUMNS": "80"])
        #expect(root.exitCode == 0)
        #expect(root.stdout.contains("SUBCOMMANDS:"))
        #expect(try bookclub.run("settings").stdout.contains("See 'bookclub help settings <subcommand>'"))
        #expect(try bookclub.run("--version") == .init(stdout: "0.1.0\n", stderr: "", exitCode: 0))
        #expect(
            !FileManager.default.fileExists(atPath: bookclub.home + "/.local"), "help and version never open the store")
    }

    @Test func completionScriptsParse() throws {
        defer { bookclub.cleanUp() }
        let script = try bookclub.run("--generate-completion-script", "bash")
        #expect(script.exitCode == 0)
        #expect(script.stdout.contains("progress"))
        let path = bookclub.home + "/bookclub.bash"
        try script.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/bin/bash")
        check.arguments = ["-n", path]
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
    }

    /// A command about one book writes that book alone: the snapshot stays byte for byte, the journal
    /// gains the book and a commit line, and every other book is as it was.
    @Test func aWriteAppendsTheBookItChangedToTheJournal() throws {
        defer { bookclub.cleanUp() }
        for title in ["Dune", "Kindred", "The Dispossessed", "Piranesi"] {
            #expect(try bookclub.run("add", title, "--pages", "300").exitCode == 0)
        }
        // The last `add` of a fresh store may have folded the journal: start from what is there now.
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let journal = try String(contentsOfFile: bookclub.storePath + ".journal", encoding: .utf8)
        let logged = try bookclub.run("progress", "dispossessed", "150")
        #expect(logged == .init(stdout: "", stderr: "'The Dispossessed': p. 150 of 300 (50%).\n", exitCode: 0))
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == snapshot)
        let after = try String(contentsOfFile: bookclub.storePath + ".journal", encoding: .utf8)
        #expect(after.hasPrefix(journal))
        let added = after.dropFirst(journal.count).split(separator: "\n")
        // The book, the history's new line and the undo record the commit carries, the commit.
        #expect(added.count == 4)
        #expect(added.dropFirst().first?.hasPrefix("{\"entry\":{\"book\":") == true)
        #expect(added.dropFirst(2).first?.hasPrefix("{\"at\":") == true)
        #expect(
            added.first?.hasPrefix("{\"book\":{") == true
                && added.first?.contains("\"title\":\"The Dispossessed\"") == true)
        #expect(added.last?.hasPrefix("{\"commit\":{\"historyLength\":") == true)
        let list = try bookclub.run("list")
        #expect(list.exitCode == 0)
        // The book being read first; the others, not started, newest first (added within a second or more).
        let titles = list.stdout.split(separator: "\n").map {
            String($0.dropFirst(10).prefix(16)).trimmingCharacters(in: .whitespaces)
        }
        #expect(titles.first == "The Dispossessed")
        #expect(Set(titles.dropFirst()) == ["Dune", "Kindred", "Piranesi"])
        #expect(list.stdout.contains("p. 150/300"))
    }
}

/// Every exit code of DESIGN.md section 3, with the exact message a user sees.
@Suite struct ExitCodeTests {
    struct ErrorCase: CustomTestStringConvertible, Sendable {
        var id: String
        var arguments: [String]
        var stderr: String
        var exitCode: Int32
        var testDescription: String { id }
    }

    static let cases: [ErrorCase] = [
        ErrorCase(
            id: "unknown option", arguments: ["list", "--finshed"],
            stderr: """
                Error: Unknown option '--finshed'. Did you mean '--finished'?
                Usage: bookclub list [--reading] [--finished] [--abandoned] [--unstarted] [--all] [--tag <tag>] [--stars] [--json]
                  See 'bookclub list --help' for more information.

                """, exitCode: 64),
        ErrorCase(
            id: "unknown command", arguments: ["lst"],
            stderr: """
                Error: Unexpected argument 'lst'. Did you mean 'list'?
                Usage: bookclub [--store <path>] [--settings <path>] [--quiet] [--color <when>] [--no-color] [--no-hooks] [--no-pager] <subcommand>
                  See 'bookclub --help' for more information.

                """, exitCode: 64),
        ErrorCase(
            id: "malformed value", arguments: ["progress", "dune", "lots"],
            stderr: """
                Error: The value 'lots' is invalid for '<value>': expected a page (120), a percent (45%), pages since the last entry (+20) or, in an audiobook, a time (3:25)
                Usage: bookclub progress [<book>] [<value>] [--note <text>] [--date <when>] [--edit] [--json]
                  See 'bookclub progress --help' for more information.

                """, exitCode: 64),
        ErrorCase(
            id: "bad date", arguments: ["finish", "dune", "--date", "someday"],
            stderr: """
                Error: The value 'someday' is invalid for '--date <when>': expected a date such as today, yesterday, friday, last friday, next thursday 19:00, 2 days ago, -2d, 20 nov, nov 20 2026, 2026-11-20 or 2026-11-20T19:00
                Usage: bookclub finish [<book>] [--date <when>] [--note <text>] [--rating <stars>] [--review <text>] [--json]
                  See 'bookclub finish --help' for more information.

                """, exitCode: 64),
        ErrorCase(
            id: "missing argument", arguments: ["add"],
            stderr: """
                Error: Missing expected argument '<title>'
                Help:  <title>  The book's title; may be left out with --isbn.
                Usage: bookclub add [<title>] [--author <author>] [--pages <pages>] [--isbn <isbn>] [--cover <name>] [--tag <tag> ...] [--format <format>] [--audio] [--length <time>] [--json]
                  See 'bookclub add --help' for more information.

                """, exitCode: 64),
        ErrorCase(
            id: "overflowing number", arguments: ["progress", "dune", "99999999999999999999"],
            stderr: """
                Error: The value '99999999999999999999' is invalid for '<value>': expected a page (120), a percent (45%), pages since the last entry (+20) or, in an audiobook, a time (3:25)
                Usage: bookclub progress [<book>] [<value>] [--note <text>] [--date <when>] [--edit] [--json]
                  See 'bookclub progress --help' for more information.

                """, exitCode: 64),
        ErrorCase(
            id: "no such book", arguments: ["progress", "neuromancer", "12"],
            stderr: "Error: No book matches 'neuromancer'. See `bookclub list --all`.\n", exitCode: 1),
        ErrorCase(
            id: "ambiguous book", arguments: ["show", "dun"],
            stderr:
                "Error: 'dun' matches 2 books: Dune, added 2026 (aaaaaaaa); Dune Messiah, added 2026 (bbbbbbbb). Use more of the title or the id.\n",
            exitCode: 1),
        ErrorCase(
            id: "past the last page", arguments: ["progress", "messiah", "300"],
            stderr: "Error: Page 300 is past the end of 'Dune Messiah' (256 pages).\n", exitCode: 1),
    ]

    @Test(arguments: cases)
    func usageAndRequestErrors(_ errorCase: ErrorCase) throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        try FileManager.default.createDirectory(
            atPath: (bookclub.storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.twoDunes.write(toFile: bookclub.storePath, atomically: true, encoding: .utf8)
        let result = try bookclub.run(errorCase.arguments)
        #expect(result.stderr == errorCase.stderr)
        #expect(result.stdout == "")
        #expect(result.exitCode == errorCase.exitCode)
        #expect(try String(contentsOfFile: bookclub.storePath, encoding: .utf8) == Self.twoDunes)
    }

    static let twoDunes = """
        {"schemaVersion": 1, "historyLength": 0, "books": [
          {"id": "aaaaaaaa", "title": "Dune", "pages": 412, "tags": [], "added": "2026-11-01T10:00:00Z", "readings": []},
          {"id": "bbbbbbbb", "title": "Dune Messiah", "pages": 256, "tags": [], "added": "2026-11-01T10:00:00Z", "readings": []}
        ]}
        """

    @Test(arguments: [
        ("{\"schemaVersion\": 1, \"books\": [", "not valid JSON"),
        (#"{"schemaVersion": 1, "historyLength": 0, "books": [{"title": 7}]}"#, "at `books[0]"),
        (#"{"schemaVersion": 9, "books": []}"#, "schema version 9 is newer than this bookclub understands (4)"),
    ])
    func aBadStoreExits65AndStaysByteForByte(_ contents: String, _ detail: String) throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let path = bookclub.home + "/store.json"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        for arguments in [["list"], ["progress", "dune", "3"], ["add", "Kindred"]] {
            let result = try bookclub.run(["--store", path] + arguments)
            #expect(result.exitCode == 65)
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("Error: \(path): "))
            #expect(result.stderr.contains(detail))
            #expect(
                result.stderr.hasSuffix("the file was left untouched.\n")
                    || result.stderr.hasSuffix("The file was left untouched.\n"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contents.utf8))
        }
    }

    @Test func aBadSettingsFileExits65() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        try FileManager.default.createDirectory(
            atPath: (bookclub.settingsPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try #"{"syncProgress": "yes"}"#.write(toFile: bookclub.settingsPath, atomically: true, encoding: .utf8)
        let result = try bookclub.run("settings", "list")
        #expect(
            result
                == .init(
                    stdout: "",
                    stderr:
                        "Error: \(bookclub.settingsPath): at `syncProgress`: expected a Bool; the file was left untouched.\n",
                    exitCode: 65))
    }

    @Test func anUnwritableStoreExits74() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = FileManager.default.createFile(atPath: bookclub.home + "/file", contents: Data())
        let result = try bookclub.run("--store", bookclub.home + "/file/store.json", "add", "Dune")
        #expect(result.exitCode == 74)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: \(bookclub.home)/file"))
        let directory = try bookclub.run("--store", bookclub.home, "list")
        #expect(directory.exitCode == 74)
        #expect(directory.stderr.contains("Is a directory"))
    }

    @Test func aLockHeldFromOutsideExits75() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("settings", "set", "lockTimeout", "1")
        let fd = open(bookclub.storePath + ".lock", O_RDWR)
        #expect(flock(fd, LOCK_EX) == 0)
        let started = Date()
        let result = try bookclub.run("progress", "dune", "10")
        #expect(Date().timeIntervalSince(started) < 2)
        close(fd)
        #expect(result.exitCode == 75)
        #expect(
            result.stderr
                == "Error: The store is busy: another bookclub held \(bookclub.storePath).lock for more than 1 s. Try again.\n"
        )
        #expect(try bookclub.run("list").exitCode == 0, "reading does not wait for the lock")
        #expect(try bookclub.run("progress", "dune", "10").exitCode == 0)
    }
}
