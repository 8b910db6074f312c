import BookClubCore
import Foundation
import Testing

@testable import bookclub

/// `bookclub import`, run as a user would: the built binary against a temporary home.
@Suite struct ImportEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    /// Copies a hand-written export into the home, where the commands run.
    func place(_ name: String, as copy: String? = nil) throws {
        try Fixture.export(name).write(to: URL(fileURLWithPath: bookclub.home + "/" + (copy ?? name)))
    }

    func storeBytes() -> Data? {
        FileManager.default.contents(atPath: bookclub.storePath)
    }

    func statuses() throws -> [String: String] {
        let books = try #require(try bookclub.json("list", "--all", "--json") as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: books.map { ($0["title"] as! String, $0["status"] as! String) })
    }

    @Test func importingAFileAndImportingItAgain() throws {
        defer { bookclub.cleanUp() }
        try place("goodreads-24.csv")
        let imported = try bookclub.run("import", "goodreads", "goodreads-24.csv")
        #expect(
            imported
                == .init(
                    stdout: "",
                    stderr:
                        "Imported 5 books: 1 reading, 1 finished, 2 abandoned, 1 not started; 0 already in the store.\n",
                    exitCode: 0))
        #expect(
            try statuses() == [
                "The Silk Roads: A New History of the World": "abandoned", "The Design of Everyday Things": "abandoned",
                "Capital in the Twenty First Century": "unstarted", "Piranesi": "finished",
                "The Hunger Games": "reading",
            ])
        let piranesi = try #require(try bookclub.json("show", "piranesi", "--json") as? [String: Any])
        #expect(piranesi["rating"] as? Double == 3)
        #expect(piranesi["isbn"] as? String == "9781635575637")
        #expect(
            (piranesi["readings"] as? [[String: Any]])?.first?["ended"] as? String == BookClubRunner.noon("2024-01-31"),
            "noon of that day where the reader is")

        let before = try #require(storeBytes())
        let again = try bookclub.run("import", "goodreads", "goodreads-24.csv")
        #expect(again == .init(stdout: "", stderr: "Imported 0 books; 5 already in the store.\n", exitCode: 0))
        #expect(storeBytes() == before, "a second import changes nothing, not even the file")

        let history = try #require(try bookclub.json("history", "--json") as? [[String: Any]])
        #expect(history.map { $0["summary"] as? String } == ["added 5 books"])
        #expect(try bookclub.run("undo").exitCode == 0)
        #expect(try statuses().isEmpty, "one import is one change, undone at once")
    }

    /// `list` leaves the imported columns (`details`) unread (`ListTests` holds what it reads to the
    /// books read whole): the table has a line a book, `--json` still has the details, and listing
    /// writes nothing.
    @Test(.enabled(if: RealExports.isPresent, "the real exports are not here (../shared/fixtures/imports); skipped"))
    func listingTheRealExportsReadsEveryBookAndWritesNothing() throws {
        defer { bookclub.cleanUp() }
        for (format, name) in [("goodreads", "goodreads-2024-24col.csv"), ("storygraph", "storygraph.csv")] {
            let path = RealExports.folder.appendingPathComponent(name).path
            #expect(try bookclub.run("import", format, path).exitCode == 0)
        }
        // Once from the snapshot the imports wrote, once with books of details changed in the journal.
        for round in ["snapshot", "journal"] {
            let books = try #require(try bookclub.json("list", "--all", "--json") as? [[String: Any]])
            let detailed = books.filter { ($0["details"] as? [String: Any])?.isEmpty == false }
            #expect(books.count > 300 && detailed.count > 300, "\(round)")
            let before = bookclub.storeFiles()
            let table = try bookclub.run("list", "--all")
            #expect(table.exitCode == 0 && table.stderr.isEmpty, "\(round): \(table.stderr)")
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.count == books.count, "\(round)")
            for book in books {
                let id = String((book["id"] as! String).prefix(8))
                #expect(lines.contains { $0.hasPrefix(id + "  ") }, "\(round): \(book["title"] ?? "")")
            }
            #expect(bookclub.storeFiles() == before, "\(round): listing writes nothing")
            for book in detailed.prefix(3) {
                #expect(try bookclub.run("edit", book["id"] as! String, "--add-tag", "listed").exitCode == 0)
            }
        }
        let tagged = try #require(try bookclub.json("list", "--all", "--tag", "listed", "--json") as? [[String: Any]])
        #expect(tagged.count == 3 && tagged.allSatisfy { ($0["details"] as? [String: Any])?.isEmpty == false })
    }

    @Test func aDryRunListsWhatWouldChangeAndChangesNothing() throws {
        defer { bookclub.cleanUp() }
        try place("goodreads-31.csv")
        let dry = try bookclub.run("import", "goodreads", "goodreads-31.csv", "--dry-run")
        #expect(dry.exitCode == 0)
        #expect(
            dry.stdout == """
                add   'The Left Hand of Darkness' by Ursula K. Le Guin (line 2): finished
                add   'Dune' by Frank Herbert (line 4): finished
                add   'Kindred' by Octavia E. Butler (line 5): finished
                add   'How to Be an Antiracist' by Ibram X. Kendi (line 6): reading
                add   'It Walks by Night' by John Dickson Carr (line 7): not started
                add   'Children of the Mind' by Orson Scott Card (line 8): abandoned
                add   'How to Read a Novel' by John Sutherland (line 9): not started
                add   'The Silmarillion' by J.R.R. Tolkien (line 10): abandoned
                merge 'the left hand of darkness' by Ursula K. Le Guin (line 11): the same title and author as line 2; 1 new reading; kept in details the differing title, pages, goodreads:Binding, goodreads:Book Id, goodreads:Year Published, added

                """)
        #expect(
            dry.stderr
                == "There is no store at \(bookclub.home)/.local/share/bookclub/store.json yet; the first command that changes something makes it.\n"
                + "Would import 8 books: 1 reading, 3 finished, 2 abandoned, 2 not started; 0 already in the store, 1 repeated in the file; merged into them: 1 new reading, 0 fields filled, 6 differing values kept in details.\n"
        )
        #expect(!FileManager.default.fileExists(atPath: bookclub.home + "/.local"), "no store, no lock file")

        let imported = try bookclub.run("import", "goodreads", "goodreads-31.csv")
        #expect(
            imported.stderr == """
                Merged 'the left hand of darkness' by Ursula K. Le Guin (line 11): the same title and author as line 2; 1 new reading; kept in details the differing title, pages, goodreads:Binding, goodreads:Book Id, goodreads:Year Published, added.
                Imported 8 books: 1 reading, 3 finished, 2 abandoned, 2 not started; 0 already in the store, 1 repeated in the file; merged into them: 1 new reading, 0 fields filled, 6 differing values kept in details.

                """)
        let before = try #require(storeBytes())
        try place("goodreads-23.csv")
        let second = try bookclub.run("import", "goodreads", "goodreads-23.csv", "-n")
        #expect(
            second.stderr == "Would import 3 books: 1 finished, 1 abandoned, 1 not started; 0 already in the store.\n")
        #expect(storeBytes() == before)
        #expect(try statuses().count == 8)
    }

    @Test func showTellsTheRatingAndTheReviewAsText() throws {
        defer { bookclub.cleanUp() }
        try place("goodreads-31.csv")
        try bookclub.run("import", "goodreads", "goodreads-31.csv")
        let show = try bookclub.run("show", "the left hand of darkness")
        #expect(show.exitCode == 0)
        let lines = show.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines[1]
                == "by Ursula K. Le Guin · 304 pages · ISBN 9780441478125 · rated ★★★★★ 5/5 · tags: fiction, sci-fi")
        #expect(
            show.stdout.hasSuffix(
                """
                Reading 2, finished Mon 30 Dec 2019
                  no progress logged

                Review
                  Genly Ai on Gethen.

                  "The only thing that makes life possible is permanent, intolerable uncertainty."
                  A line break the review kept.

                """))
        #expect(try bookclub.run("show", "dune").stdout.hasSuffix("Private notes\n  Lent to Sam\n"))
    }

    @Test func standardInputAndJSON() throws {
        defer { bookclub.cleanUp() }
        let input = String(decoding: try Fixture.export("storygraph.csv"), as: UTF8.self)
        let result = try bookclub.run(["import", "storygraph", "-", "--json"], input: input)
        #expect(result.exitCode == 0)
        #expect(
            result.stderr
                == "Imported 9 books: 1 reading, 5 finished, 1 abandoned, 2 not started; 0 already in the store.\n")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["source"] as? String == "storygraph")
        #expect(summary["file"] as? String == "standard input")
        #expect(summary["dryRun"] as? Bool == false)
        #expect(summary["added"] as? Int == 9)
        #expect(summary["alreadyInStore"] as? Int == 0)
        #expect(summary["statuses"] as? [String: Int] == ["reading": 1, "finished": 5, "abandoned": 1, "unstarted": 2])
        let books = try #require(summary["books"] as? [[String: Any]])
        #expect(books.first?["title"] as? String == "Freakonomics")
        #expect(books.first?["line"] as? Int == 2)
        let id = try #require(books.first?["id"] as? String)
        #expect(try bookclub.run("show", id, "--json").stdout.contains("\"rating\" : 4.25"))

        let again = try bookclub.run(["import", "storygraph", "-", "--json", "--dry-run"], input: input)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(second["added"] as? Int == 0)
        #expect(second["alreadyInStore"] as? Int == 9)
        let skipped = try #require(second["merged"] as? [[String: Any]])
        #expect(skipped.first?["matchID"] as? String == id)
        #expect(skipped.first?["reason"] as? String == "isbn")
    }

    @Test func aJSONExportKeepsEveryReadingEntryAndClub() throws {
        defer { bookclub.cleanUp() }
        try LibraryExport(ImportMergeTests.exportedLibrary).encoded().write(
            to: URL(fileURLWithPath: bookclub.home + "/export.json"))
        let imported = try bookclub.run("import", "json", "export.json")
        #expect(
            imported.stderr
                == "Imported 2 books: 1 finished, 1 not started; 0 already in the store. Imported 1 club; 0 already in the store.\n"
        )
        let dune = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        let readings = try #require(dune["readings"] as? [[String: Any]])
        #expect(readings.count == 2)
        #expect((readings.last?["entries"] as? [[String: Any]])?.compactMap { $0["page"] as? Int } == [103, 206])
        #expect(dune["privateNotes"] as? String == "lent")
        #expect(try bookclub.run("club", "show", "sci-fi").stdout.contains("Dune"))
        #expect(
            try bookclub.run("import", "json", "export.json").stderr
                == "Imported 0 books; 2 already in the store. Imported 0 clubs; 1 already in the store.\n")
    }

    /// A backup put back: the export of a store kept by commands, imported into an empty store of
    /// another home (a few books at a time, `ExportRestore`), exports as it was, byte for byte; it is
    /// one change, which `undo` takes back whole.
    @Test func aBackupPutBackIntoAnEmptyStoreExportsAsItWas() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("ノルウェイの森", "--author", "村上春樹", "--pages", "296")
        _ = try bookclub.add("מסע אל תום הלילה", "--pages", "500")
        _ = try bookclub.add("📚 Reading, Again!", "--pages", "120")
        for (page, note) in [(20, "ワタナベ"), (80, "{\"not\": [json]}"), (150, "")] {
            let extra = note.isEmpty ? [] : ["--note", note]
            #expect(try bookclub.run(["progress", "ノルウェイ", String(page)] + extra).exitCode == 0)
        }
        #expect(try bookclub.run("progress", "מסע", "30", "--note", "שלום").exitCode == 0)
        #expect(try bookclub.run("finish", "📚").exitCode == 0)
        #expect(try bookclub.run("reread", "📚").exitCode == 0)
        #expect(try bookclub.run("progress", "📚", "10").exitCode == 0)
        #expect(try bookclub.run("club", "add", "読書会").exitCode == 0)
        #expect(try bookclub.run("export", "--format", "json", "--output", "backup.json").exitCode == 0)
        let backup = try Data(contentsOf: URL(fileURLWithPath: bookclub.home + "/backup.json"))

        let other = ["--store", bookclub.home + "/restored/store.json"]
        let restored = try bookclub.run(other + ["import", "json", "backup.json"])
        #expect(
            restored
                == .init(
                    stdout: "",
                    stderr:
                        "Imported 3 books: 3 reading; 0 already in the store. Imported 1 club; 0 already in the store.\n",
                    exitCode: 0), "\(restored)")
        #expect(try bookclub.run(other + ["export", "--format", "json", "--output", "again.json"]).exitCode == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.home + "/again.json")) == backup)
        #expect(try bookclub.run(other + ["doctor"]).exitCode == 0)
        let history = try bookclub.run(other + ["history", "--json"]).stdout
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [[String: Any]])
        #expect(changes.map { $0["command"] as? String } == ["--store \(other[1]) import json backup.json"])
        #expect(try bookclub.run(other + ["undo"]).exitCode == 0)
        #expect(try bookclub.run(other + ["list", "--all"]).stdout.isEmpty)

        // From a pipe (`<(zcat backup.json.gz)`, `/dev/stdin`), which is read once and whole.
        let piped = ["--store", bookclub.home + "/piped/store.json"]
        let fromPipe = try bookclub.run(
            piped + ["import", "json", "/dev/stdin"], input: String(decoding: backup, as: UTF8.self))
        #expect(fromPipe.exitCode == 0 && fromPipe.stderr == restored.stderr, "\(fromPipe)")
        #expect(try bookclub.run(piped + ["export", "--format", "json", "--output", "piped.json"]).exitCode == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.home + "/piped.json")) == backup)
    }

    /// A backup put back into a store whose history is a link: refused before a line is staged, and
    /// the file the link names is left as it was.
    @Test func aBackupIsNotStagedThroughALinkedHistory() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("ノルウェイの森", "--pages", "296")
        for page in [20, 80, 150] { #expect(try bookclub.run("progress", "ノルウェイ", String(page)).exitCode == 0) }
        #expect(try bookclub.run("export", "--format", "json", "--output", "backup.json").exitCode == 0)
        let other = bookclub.home + "/linked/store.json"
        try FileManager.default.createDirectory(atPath: bookclub.home + "/linked", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: bookclub.home + "/elsewhere"))
        try FileManager.default.createSymbolicLink(
            atPath: other + ".history", withDestinationPath: bookclub.home + "/elsewhere")
        let result = try bookclub.run("--store", other, "import", "json", "backup.json")
        #expect(result.exitCode == 74 && result.stderr.contains("is a symbolic link"), "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.home + "/elsewhere")).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    /// A file bad past its first megabyte, in an entry only the history keeps: putting it back gives
    /// way to reading it whole, which names what is wrong; nothing is imported, and the history the
    /// restore began is cut back.
    @Test func aBackupBadDeepInsideIsRefusedAsAWholeReadRefusesIt() throws {
        defer { bookclub.cleanUp() }
        var library = Library()
        for index in 0..<12 {
            let entries = (0..<400).map { step in
                ReadingProgress.Entry(
                    id: UUID(), progress: Double(step + 1) / 410, page: step + 1,
                    time: Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 1000 + step) * 3600),
                    note: step % 7 == 0 ? "ノート \(step)" : nil)
            }
            library.books.append(
                Book(
                    id: String(format: "b%03d", index), title: "Book \(index)", pages: 410, added: Fixture.now,
                    readings: [Reading(started: nil, progress: ReadingProgress(entries: entries))]))
        }
        var text = String(decoding: try LibraryExport(library).encoded(), as: UTF8.self)
        let deep = try #require(text.ranges(of: #/"page" : 200,/#).last)
        text.replaceSubrange(deep, with: #""page" : -5,"#)
        try text.write(toFile: bookclub.home + "/bad.json", atomically: true, encoding: .utf8)
        let result = try bookclub.run("import", "json", "bad.json")
        #expect(result.exitCode == 65)
        #expect(
            result.stderr.hasPrefix("Error: bad.json: ") && result.stderr.contains("`page`")
                && result.stderr.contains("Book 11"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
        let history = FileManager.default.contents(atPath: bookclub.storePath + ".history") ?? Data()
        #expect(history.isEmpty)
    }

    @Test func aMalformedFileExits65NamingTheLineAndLeavesTheStoreAlone() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let before = try #require(storeBytes())
        try "Title,Author,Exclusive Shelf\nKindred,Octavia E. Butler,read\nPiranesi,Susanna Clarke\n"
            .write(toFile: bookclub.home + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try bookclub.run("import", "goodreads", "bad.csv")
        #expect(
            bad
                == .init(
                    stdout: "",
                    stderr: "Error: bad.csv: line 3: 2 fields where the header has 3; nothing was imported.\n",
                    exitCode: 65))
        try "Title,Author,Exclusive Shelf\n\"Kindred,Octavia E. Butler,read\n".write(
            toFile: bookclub.home + "/open.csv", atomically: true, encoding: .utf8)
        #expect(
            try bookclub.run("import", "goodreads", "open.csv").stderr
                == "Error: open.csv: line 2: a quoted field is never closed; nothing was imported.\n")
        try place("storygraph.csv")
        let wrong = try bookclub.run("import", "goodreads", "storygraph.csv")
        #expect(wrong.exitCode == 65)
        #expect(
            wrong.stderr
                == "Error: storygraph.csv: line 1: not a Goodreads export (no `Author` column); it looks like a StoryGraph export: try `bookclub import storygraph FILE`; nothing was imported.\n"
        )
        #expect(storeBytes() == before)
        #expect(try statuses() == ["Dune": "unstarted"])
    }

    @Test func aMissingOrUnreadableFileExits74() throws {
        defer { bookclub.cleanUp() }
        #expect(
            try bookclub.run("import", "goodreads", "nope.csv")
                == .init(stdout: "", stderr: "Error: nope.csv: no such file\n", exitCode: 74))
        let folder = try bookclub.run("import", "storygraph", bookclub.home)
        #expect(folder.exitCode == 74)
        #expect(folder.stderr.hasPrefix("Error: \(bookclub.home): cannot read"))
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
        // A backup that is not there opens no store, not even its lock.
        #expect(
            try bookclub.run("import", "json", "nope.json")
                == .init(stdout: "", stderr: "Error: nope.json: no such file\n", exitCode: 74))
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath + ".lock"))
    }

    @Test func theSourceIsOneOfTheFormats() throws {
        defer { bookclub.cleanUp() }
        let sources = ImportCommand.Source.names
        let nook = try bookclub.run("import", "nook", "x.csv")
        #expect(nook.exitCode == 64 && nook.stdout.isEmpty)
        #expect(nook.stderr.hasPrefix("Error: The value 'nook' is invalid for '<source>'."), "\(nook.stderr)")
        #expect(sources.allSatisfy { nook.stderr.contains($0) }, "\(nook.stderr)")
        #expect(nook.stderr.contains("Usage: bookclub import <source> <file> [--dry-run]"))
        // Six values and more are listed a line each, the lines kept as lines.
        #expect(nook.stderr.contains("Please provide one of the following:\n  - goodreads\n  - storygraph\n"))
        // A close miss gets the value it was near.
        let near = try bookclub.run("import", "goodread", "x.csv")
        #expect(near.exitCode == 64)
        #expect(
            near.stderr.hasPrefix("Error: The value 'goodread' is invalid for '<source>'. Did you mean 'goodreads'?"))
        let colour = try bookclub.run("list", "--color", "alwys")
        #expect(colour.stderr.contains("Did you mean 'always'?"))
        let help = try bookclub.run("import", "--help", environment: ["COLUMNS": "80"])
        #expect(help.stdout.contains("  <source>                What made the file. (values: goodreads, storygraph,\n"))
        let zsh = try bookclub.run("--generate-completion-script", "zsh").stdout
        #expect(zsh.contains("values=(" + sources.map { "'\($0)'" }.joined(separator: " ") + ")"), "\(zsh)")
        for shell in ["bash", "fish"] {
            #expect(
                try bookclub.run("--generate-completion-script", shell).stdout.contains(sources.joined(separator: " ")))
        }
    }
}
