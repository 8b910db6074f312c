import Foundation
import Testing

/// `export`, `log --stdin` and hooks, through the built binary.
@Suite struct ScriptingTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    var hooksFolder: String { bookclub.home + "/.config/bookclub/hooks" }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Output held until the save is written a stream's run at a time: to one pipe, the data and
    /// the messages come in the order the command wrote them, and a listing of more than 64 KiB
    /// whole.
    @Test(.enabled(if: RealExports.isPresent, "the real exports are not here (../shared/fixtures/imports); skipped"))
    func bothStreamsToOnePipeKeepTheirOrderAndALongListingComesWhole() throws {
        defer { bookclub.cleanUp() }
        let export = RealExports.folder.appendingPathComponent("goodreads-legacy-31col.csv").path
        #expect(try bookclub.run("import", "goodreads", export).exitCode == 0)
        let listing = try bookclub.run("list", "--all")
        #expect(listing.exitCode == 0 && listing.stdout.utf8.count > 1 << 16)
        let stats = try bookclub.run("stats", "--year", "2019")
        #expect(stats.exitCode == 0 && !stats.stdout.isEmpty && !stats.stderr.isEmpty)
        let merged = try bookclub.run(
            ["-c", "\"$0\" list --all && \"$0\" stats --year 2019 2>&1", BookClubRunner.executable.path],
            program: "/bin/sh")
        #expect(merged.exitCode == 0)
        #expect(merged.stdout == listing.stdout + stats.stdout + stats.stderr)
        // A warning held before the table (a zone bookclub does not know) comes before it.
        let zone = ["TZ": "Nowhere/Atlantis"]
        let warned = try bookclub.run(["list", "--all"], environment: zone)
        #expect(warned.exitCode == 0 && warned.stderr.hasPrefix("Warning: "), "\(warned.stderr)")
        let both = try bookclub.run(
            ["-c", "\"$0\" list --all 2>&1", BookClubRunner.executable.path], environment: zone, program: "/bin/sh")
        #expect(both.stdout == warned.stderr + warned.stdout)
    }

    /// Writes an executable hook.
    func hook(_ name: String, _ script: String) throws {
        try FileManager.default.createDirectory(atPath: hooksFolder, withIntermediateDirectories: true)
        let path = hooksFolder + "/" + name
        try writeProgram("#!/bin/sh\n" + script + "\n", to: path)
    }

    // MARK: export

    /// `export > backup.json` on a full disk does not succeed in silence: standard output refusing what
    /// is written is said on standard error, exit 74. A reader that goes away (`| head`) is no error.
    @Test func outputTheDiskRefusesIsAnErrorAndAReaderGoneIsNot() throws {
        defer { bookclub.cleanUp() }
        try #require(RealExports.isPresent)
        try bookclub.run(
            "import", "goodreads", RealExports.folder.appendingPathComponent("goodreads-2024-24col.csv").path)
        _ = try bookclub.add("ノルウェイの森 📚", "--pages", "400")
        for command in ["export", "list --all", "list --json"] {
            let full = try bookclub.run(
                ["-c", "\"$0\" \(command) > /dev/full", BookClubRunner.executable.path], program: "/bin/sh")
            #expect(full.exitCode == 74, "\(command)")
            #expect(full.stderr == "Error: standard output: cannot write: No space left on device\n", "\(command)")
        }
        // A reader that stops after one byte, with SIGPIPE ignored (as some shells and runners leave it):
        // the export, some 400 KB, meets a closed pipe, and says nothing of it.
        let gone = try bookclub.run(
            [
                "-c", "trap '' PIPE; (\"$0\" export; echo \"exit $?\" >&2) | head -c 1 > /dev/null",
                BookClubRunner.executable.path,
            ],
            program: "/bin/sh")
        #expect(gone.stderr == "exit 0\n")
    }

    @Test func exportsEveryEntryAsJSONAndGoodreadsCSVAndMarkdown() throws {
        defer { bookclub.cleanUp() }
        let id = try bookclub.add("Dune", "--author", "Frank Herbert", "--pages", "412", "--tag", "sf")
        for page in ["50", "100", "150"] { try bookclub.run("progress", "dune", page) }
        try bookclub.run("add", "Emma, or \"the Matchmaker\"")
        try bookclub.run("finish", "emma", "--note", "lovely")

        let json = try bookclub.run("export")
        #expect(json.exitCode == 0)
        #expect(json.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "bookclub-export")
        let books = try #require(document["books"] as? [[String: Any]])
        #expect(books.count == 2)
        // By the time each was added, then (for books added in the same second) by id: the same order
        // on every machine.
        let keys = books.map { ($0["added"] as? String ?? "", $0["id"] as? String ?? "") }
        #expect(keys.map(\.1) == keys.sorted { $0 < $1 }.map(\.1))
        let dune = try #require(books.first { $0["title"] as? String == "Dune" })
        let readings = try #require(dune["readings"] as? [[String: Any]])
        let entries = try #require((readings[0]["progress"] as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(entries.compactMap { $0["page"] as? Int } == [50, 100, 150])  // the whole history, not the latest only

        let csv = try bookclub.run("export", "--format", "csv")
        #expect(csv.exitCode == 0)
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.count == 3)
        #expect(rows[0].hasPrefix("Book Id,Title,Author,Author l-f,"))
        let duneRow = try #require(rows.first { $0.hasPrefix("\(id),") })
        #expect(duneRow.hasPrefix("\(id),Dune,Frank Herbert,\"Herbert, Frank\","))
        #expect(duneRow.contains(",\"currently-reading, sf\","))
        let emmaRow = try #require(rows.first { $0.contains(#","Emma, or ""the Matchmaker""","#) })
        #expect(emmaRow.contains(",read,read (#1),read,"))

        let markdown = try bookclub.run("export", "--format", "markdown")
        #expect(
            markdown.stdout.hasPrefix(
                "# Reading journal\n\n## Reading now\n\n### Dune — Frank Herbert\np. 150 of 412 (36%)\n"))
        #expect(markdown.stdout.contains("- finished: lovely\n"))
    }

    @Test func aJSONExportImportedIntoAnEmptyStoreExportsTheSame() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add(
            "Dune", "--author", "Frank Herbert", "--pages", "412", "--tag", "sf", "--isbn", "9780441013593")
        for (page, note) in [("50", "sand"), ("100", "the \"spice\"\nmust flow"), ("412", "")] {
            try bookclub.run("progress", "dune", page, "--note", note)
        }
        try bookclub.run("finish", "dune", "--note", "worth it")
        try bookclub.run("reread", "dune")
        try bookclub.run("progress", "dune", "10%")
        _ = try bookclub.add("Emma")
        try bookclub.run("abandon", "emma", "--date", "2026-01-05")
        try bookclub.run("club", "add", "Sci-fi", "--description", "monthly")
        try bookclub.run("club", "meeting", "sci-fi", "--date", "2099-01-01T19:00", "--book", "dune", "--target", "200")
        let first = try bookclub.run("export", "--output", "first.json")
        #expect(first.exitCode == 0)

        let other = ["--store", bookclub.home + "/other/store.json"]
        let imported = try bookclub.run(other + ["import", "json", "first.json"])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let second = try bookclub.run(other + ["export"])
        #expect(second.exitCode == 0)
        #expect(second.stdout == read(bookclub.home + "/first.json"))
        #expect(second.stdout.contains("must flow"))
        // Importing it again adds nothing.
        let again = try bookclub.run(other + ["import", "json", "first.json", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(summary["added"] as? Int == 0)
        #expect(summary["alreadyInStore"] as? Int == 2)
    }

    @Test func exportWritesTheOutputFileAndRefusesUnknownFormats() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune")
        let written = try bookclub.run("export", "--format", "csv", "--output", "books.csv")
        #expect(written == .init(stdout: "", stderr: "Wrote books.csv.\n", exitCode: 0))
        let path = bookclub.home + "/books.csv"
        #expect(read(path)?.hasPrefix("Book Id,") == true)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let wrong = try bookclub.run("export", "--format", "xml")
        #expect(wrong.exitCode == 64)
        #expect(wrong.stderr.hasPrefix("Error: The value 'xml' is invalid for '--format <format>'"))
        let empty = try bookclub.run("export", "--output", "")
        #expect(empty.exitCode == 64)
        let unwritable = try bookclub.run("export", "--output", "books.csv/x.json")  // a file, not a folder
        #expect(unwritable.exitCode == 74)
        #expect(unwritable.stderr.hasPrefix("Error: \(bookclub.home)/books.csv/x.json: "))
    }

    /// Written to a file, each format is byte for byte what it writes to standard output, a part at a
    /// time rather than held whole. An export that cannot be finished (a damaged history) leaves the
    /// file as it was, and no temporary file beside it.
    @Test func anExportToAFileIsTheOneToStandardOutputAndAllOrNothing() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("ノルウェイの森", "--author", "村上 春樹", "--pages", "296")
        _ = try bookclub.add("📚 מסע", "--pages", "120")
        _ = try bookclub.add("Emma")
        for (page, note) in [("50", "僕は三十七歳で"), ("100", "a \"quote\",\nthen a line"), ("200", "")] {
            #expect(try bookclub.run("progress", "ノルウェイの森", page, "--note", note).exitCode == 0)
        }
        #expect(try bookclub.run("progress", "📚 מסע", "60").exitCode == 0)
        #expect(try bookclub.run("abandon", "📚 מסע").exitCode == 0)
        let formats = ["json", "csv", "markdown"]
        for format in formats {
            let standard = try bookclub.run("export", "--format", format)
            #expect(standard.exitCode == 0 && standard.stdout.contains("ノルウェイの森"), "\(format)")
            let written = try bookclub.run("export", "--format", format, "--output", "out.\(format)")
            #expect(written == .init(stdout: "", stderr: "Wrote out.\(format).\n", exitCode: 0))
            #expect(read(bookclub.home + "/out.\(format)") == standard.stdout, "\(format)")
        }

        // Folded, so that the journal no longer carries the line (it would write it back), then damaged.
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0)
        let history = bookclub.storePath + ".history"
        let text = try String(contentsOfFile: history, encoding: .utf8)
        try text.replacing("\"page\":100", with: "\"page\":9223372036854775807").write(
            toFile: history, atomically: true, encoding: .utf8)
        for format in formats {
            let path = bookclub.home + "/out.\(format)"
            let before = read(path)
            let failed = try bookclub.run("export", "--format", format, "--output", "out.\(format)")
            #expect(failed.exitCode == 65, "\(format): \(failed)")
            #expect(failed.stderr.contains("store.json.history"), "\(format): \(failed.stderr)")
            #expect(read(path) == before, "\(format)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: bookclub.home)
        #expect(names.filter { $0.contains(".tmp-") } == [])
    }

    /// `--output` names a file as a shell's `>` does: a symbolic link is written through (it stays a
    /// link), a named pipe is written into (it stays a pipe: `/dev/stdout` is one such); a folder, or a
    /// link to nothing, is refused. Replaced by a rename, each became a plain file.
    @Test func anOutputIsWrittenThroughALinkAndIntoAPipe() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("ノルウェイの森", "--pages", "296")
        let expected = try bookclub.run("export").stdout
        let home = bookclub.home
        func kind(_ path: String) -> mode_t {
            var status = stat()
            return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
        }

        try "old".write(toFile: home + "/real.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: home + "/link.json", withDestinationPath: "real.json")
        #expect(try bookclub.run("export", "--output", "link.json").exitCode == 0)
        #expect(read(home + "/real.json") == expected)
        #expect(kind(home + "/link.json") == S_IFLNK)

        // A named pipe, read by `cat` as the export writes into it.
        let pipe = home + "/pipe"
        #expect(mkfifo(pipe, 0o600) == 0)
        let received = home + "/received"
        #expect(FileManager.default.createFile(atPath: received, contents: nil))
        let cat = Process()
        cat.executableURL = URL(fileURLWithPath: "/bin/cat")
        cat.arguments = [pipe]
        cat.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: received))
        try cat.run()
        let piped = try bookclub.run("export", "--output", "pipe")
        if piped.exitCode != 0 { cat.terminate() }  // else it waits for a writer forever
        cat.waitUntilExit()
        #expect(piped == .init(stdout: "", stderr: "Wrote pipe.\n", exitCode: 0))
        #expect(read(received) == expected)
        #expect(kind(pipe) == S_IFIFO)

        let folder = try bookclub.run("export", "--output", ".")
        #expect(folder.exitCode == 74)
        #expect(folder.stderr == "Error: \(home)/.: is a folder; name a file in it\n")
        try FileManager.default.createSymbolicLink(atPath: home + "/nowhere.json", withDestinationPath: "gone/x.json")
        let dangling = try bookclub.run("stats", "--html", "--output", "nowhere.json")
        #expect(dangling.exitCode == 74)
        #expect(dangling.stderr == "Error: \(home)/nowhere.json: is a symbolic link to nothing; name the file itself\n")
        #expect(kind(home + "/nowhere.json") == S_IFLNK)
    }

    // MARK: log --stdin

    @Test func aBatchIsOneTransactionAndOneUndo() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "400")
        _ = try bookclub.add("Emma", "--pages", "300")
        let batch = """
            {"book": "dune", "page": 100}

            {"book": "dune", "page": 150, "note": "worms", "time": "2026-01-02T08:00:00Z"}
            {"book": "emma", "percent": 50}
            {"book": "emma", "percent": 50}
            {"book": "emma", "action": "finish", "note": "lovely"}

            """
        let logged = try bookclub.run("log", "--stdin", input: batch)
        #expect(
            logged
                == .init(
                    stdout: "", stderr: "Logged 3 entries on 2 books; 1 unchanged; finished 'Emma'.\n", exitCode: 0))
        let history = read(bookclub.storePath + ".history")?.split(separator: "\n") ?? []
        #expect(history.count == 3)
        let dune = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        let entries = (dune["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]] ?? []
        #expect(entries.compactMap { $0["note"] as? String } == ["worms"])
        #expect(entries.first?["time"] as? String == "2026-01-02T08:00:00Z")  // backdated, placed first
        let emma = try #require(try bookclub.json("show", "emma", "--json") as? [String: Any])
        #expect(emma["status"] as? String == "finished")

        let undone = try bookclub.run("undo")
        #expect(undone.exitCode == 0)
        let list = try #require(try bookclub.json("list", "--all", "--json") as? [[String: Any]])
        #expect(list.map { $0["status"] as? String } == ["unstarted", "unstarted"])
    }

    /// A line sent late, dated before a line of the same batch for its book but after the book's
    /// latest entry in the store, falls between the two: the book's history comes with it (it was
    /// refused as a bug in bookclub, and the batch with it, once the book had entries).
    @Test func aLineSentLateInABatchFallsAmongTheBatchsLines() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("三体", "--pages", "400")
        _ = try bookclub.run("progress", "三体", "10", "--date", "2026-01-01 08:00")
        let batch = """
            {"book": "三体", "page": 200, "time": "2026-01-05T08:00:00Z"}
            {"book": "三体", "page": 100, "time": "2026-01-03T08:00:00+05:30"}
            {"book": "三体", "page": 250}
            {"book": "三体", "page": 220, "time": "2026-01-06T08:00:00Z"}

            """
        let logged = try bookclub.run("log", "--stdin", input: batch)
        #expect(logged == .init(stdout: "", stderr: "Logged 4 entries on 1 book.\n", exitCode: 0))
        let book = try #require(try bookclub.json("show", "三体", "--json") as? [String: Any])
        let entries = (book["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]] ?? []
        #expect(entries.compactMap { $0["page"] as? Int } == [10, 100, 200, 220, 250])
    }

    /// A batch as a cron job or an e-reader export writes one (by title, each line with a time in `Z`,
    /// offset or local form, backdated lines among them, one in seven with a note) leaves the library
    /// exactly as the same lines given one by one to `progress --date --note` do.
    @Test func aBatchWithTimesLogsWhatProgressLogsOneLineAtATime() throws {
        let oneByOne = try BookClubRunner()
        defer {
            bookclub.cleanUp()
            oneByOne.cleanUp()
        }
        let books = [
            (title: "ノルウェイの森", pages: 300), (title: "dune", pages: 412), (title: "Le Petit Prince 📚", pages: 96),
            (title: "the left hand of darkness", pages: 304),
        ]
        for book in books { _ = try bookclub.add(book.title.capitalized, "--pages", String(book.pages)) }
        // A reading under way, whose start lines before it move back; another whose lines all come
        // after its latest entry but one, which repeats the page of the entry before it.
        try bookclub.run("progress", "left hand", "150", "--date", "2025-03-01T12:00:00Z")
        for (page, day) in [(1, "01"), (3, "15"), (5, "31")] {
            try bookclub.run("progress", "ノルウェイの森", String(page), "--date", "2024-12-\(day)T20:00:00Z")
        }
        // Both stores start the same: the same books, with the same ids.
        let folder = (bookclub.storePath as NSString).deletingLastPathComponent
        let copy = (oneByOne.storePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasSuffix(".lock") {
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: copy + "/" + name)
        }

        struct Line {
            var book: String
            var page: Int
            var percent: Double?
            var time: Date
            var form: Int
            var note: String?
        }
        // Each book's 52 places, some 17 hours apart from 1 January 2025.
        func line(_ book: Int, _ step: Int, form: Int) -> Line {
            let page = (step + 1) * books[book].pages / 53
            return Line(
                book: books[book].title, page: page,
                percent: book == 2 && step % 4 == 0 ? (Double(page) / 96 * 1000).rounded() / 10 : nil,
                time: Date(timeIntervalSince1970: 1_735_689_600 + Double(step * 61_200 + book * 1_260)), form: form)
        }
        // A cron job's lines, the later half of each book, in time order but for one in ten, sent late;
        // one in thirteen sent twice, a minute apart, which logs nothing the second time.
        var late: [Line] = []
        var lines: [Line] = []
        for (index, (step, book)) in (26..<52).flatMap({ step in (0..<4).map { (step, $0) } }).enumerated() {
            var next = line(book, step, form: index)
            if index % 10 == 3 {
                late.append(next)
                continue
            }
            lines.append(next)
            if index % 13 == 5 {
                next.time += 60
                lines.append(next)
            }
            if index % 10 == 6 { lines += late.popLast().map { [$0] } ?? [] }
        }
        lines += late
        // Then an e-reader's export of the earlier half, book by book, one of them newest first.
        for book in 0..<4 {
            let steps = book == 3 ? Array((0..<26).reversed()) : Array(0..<26)
            lines += steps.map { line(book, $0, form: $0 + book) }
        }
        for index in lines.indices where index % 7 == 0 { lines[index].note = "p. \(lines[index].page): まだ読んでいる" }
        lines.append(Line(book: books[0].title, page: 3, time: Date(timeIntervalSince1970: 1_734_688_800), form: 0))

        func stamp(_ line: Line) -> String {
            let formatter = ISO8601DateFormatter()
            switch line.form % 4 {
            case 0: return formatter.string(from: line.time)
            case 1, 2:
                formatter.timeZone = TimeZone(secondsFromGMT: line.form % 4 == 1 ? 19_800 : -28_800)
                return formatter.string(from: line.time)  // 2025-01-01T05:30:00+05:30
            default: return String(formatter.string(from: line.time).dropLast(4))  // 2025-01-01T00:00, local
            }
        }
        let batch = lines.map { line in
            let value = line.percent.map { #""percent": \#($0)"# } ?? #""page": \#(line.page)"#
            let note = line.note.map { #", "note": "\#($0)""# } ?? ""
            return #"{"book": "\#(line.book)", \#(value), "time": "\#(stamp(line))"\#(note)}"#
        }
        // The batch ends with a book finished.
        let finished = "2025-04-01T09:00:00-04:00"
        let logged = try bookclub.run(
            "log", "--stdin",
            input: (batch + [#"{"book": "dune", "page": 412, "time": "\#(finished)", "action": "finish"}"#])
                .joined(separator: "\n") + "\n")
        #expect(logged.exitCode == 0, "\(logged.stderr)")
        #expect(lines.count > 200)

        for line in lines {
            let value = line.percent.map { "\($0)%" } ?? String(line.page)
            let note = line.note.map { ["--note", $0] } ?? []
            let result = try oneByOne.run(["progress", line.book, value, "--date", stamp(line)] + note)
            #expect(result.exitCode == 0, "\(result.stderr)")
        }
        try oneByOne.run("progress", "dune", "412", "--date", finished)
        try oneByOne.run("finish", "dune", "--date", finished)

        // The same library, but for the ids of readings and entries, which are random.
        func export(_ runner: BookClubRunner) throws -> String {
            try runner.run("export", "--format", "json").stdout.replacing(
                /"id" : "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"/, with: #""id" : "…""#)
        }
        let exported = try export(bookclub)
        #expect(exported == (try export(oneByOne)))
        #expect(exported.components(separatedBy: "\"time\" : ").count > 200)
        #expect(exported.contains(#""started" : "2025-01-01T"#))  // moved back to the earliest line
        #expect(exported.contains(#""outcome" : "finished""#))
    }

    @Test func aBadLineRejectsTheBatchAndChangesNothing() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "400")
        let before = bookclub.storeFiles()
        let rejected = try bookclub.run(
            "log", "--stdin",
            input: "{\"book\":\"dune\",\"page\":10}\n{\"book\":\"nope\",\"page\":1}\n{\"book\":\"dune\",\"page\":999}\n"
        )
        #expect(rejected.exitCode == 65)
        #expect(rejected.stdout == "")
        #expect(
            rejected.stderr
                == "Error: Standard input, line 2: No book matches 'nope'. See `bookclub list --all`. Nothing was logged; fix the line, or give --skip-invalid to log the rest.\n"
        )
        #expect(bookclub.storeFiles() == before)

        let garbage = try bookclub.run("log", "--stdin", input: "\u{FF}\u{1B}[31m not json\n")
        #expect(garbage.exitCode == 65)
        #expect(garbage.stderr.hasPrefix("Error: Standard input, line 1: expected a JSON object"))
        #expect(bookclub.storeFiles() == before)
    }

    @Test func skipInvalidLogsTheRestAndQuietKeepsTheWarnings() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "400")
        let input =
            "{\"book\":\"dune\",\"page\":10}\n{\"book\":\"dune\",\"page\":999}\n{\"book\":\"dune\",\"pgae\":3}\n{\"book\":\"dune\",\"page\":20}\n"
        let result = try bookclub.run("log", "--stdin", "--skip-invalid", "--quiet", input: input)
        #expect(result.exitCode == 0)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                Warning: Skipped line 2: Page 999 is past the end of 'Dune' (400 pages).
                Warning: Skipped line 3: unknown key `pgae`; expected book, page, percent, note, time or action

                """)
        let json = try bookclub.run(
            "log", "--stdin", "--skip-invalid", "--json", input: "{\"book\":\"dune\",\"page\":30}\n[]\n")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(summary["logged"] as? Int == 1)
        #expect((summary["skipped"] as? [[String: Any]])?.first?["line"] as? Int == 2)
        let dune = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(dune["page"] as? Int == 30)
    }

    @Test func logWantsStdinAndTakesEmptyInputCalmly() throws {
        defer { bookclub.cleanUp() }
        let missing = try bookclub.run("log")
        #expect(missing.exitCode == 64)
        #expect(missing.stderr.hasPrefix("Error: log reads JSON Lines from standard input: give --stdin\n"))
        let empty = try bookclub.run("log", "--stdin", input: "\n\n")
        #expect(empty == .init(stdout: "", stderr: "Nothing to log: standard input held no events.\n", exitCode: 0))
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
    }

    // MARK: hooks

    @Test func hooksHearTheSavedChangeAsJSON() throws {
        defer { bookclub.cleanUp() }
        let log = bookclub.home + "/hooks.log"
        for name in ["on-add", "on-progress", "on-finish", "on-change"] {
            try hook(name, "cat >> '\(log)'; echo 'hook output'")
        }
        let id = try bookclub.add("Dune", "--pages", "400")
        let progress = try bookclub.run("progress", "dune", "100", "--note", "worms", "--json")
        #expect(progress.exitCode == 0)
        // A hook's output goes to standard error: standard output stays the command's data.
        #expect(try JSONSerialization.jsonObject(with: Data(progress.stdout.utf8)) is [String: Any])
        #expect(progress.stderr.contains("hook output"))
        try bookclub.run("finish", "dune", "--note", "done")

        let payloads = try (read(log) ?? "").split(separator: "\n").map {
            try #require(
                try JSONSerialization.jsonObject(with: Data($0.trimmingCharacters(in: .whitespaces).utf8))
                    as? [String: Any])
        }
        #expect(payloads.map { $0["event"] as? String } == ["add", "change", "progress", "change", "finish", "change"])
        #expect((payloads[0]["book"] as? [String: Any])?["id"] as? String == id)
        #expect((payloads[2]["entry"] as? [String: Any])?["page"] as? Int == 100)
        #expect((payloads[2]["entry"] as? [String: Any])?["note"] as? String == "worms")
        #expect(payloads[2]["command"] as? String == "progress dune 100 --note worms --json")
        #expect((payloads[4]["ending"] as? [String: Any])?["note"] as? String == "done")
        #expect((payloads[4]["book"] as? [String: Any])?["status"] as? String == "finished")
        #expect(payloads[5]["summary"] as? String == "'Dune': finished")
    }

    @Test func aFailingOrSlowHookWarnsAndKeepsTheChange() throws {
        defer { bookclub.cleanUp() }
        try hook("on-add", "exit 3")
        let added = try bookclub.run("add", "Dune")
        #expect(added.exitCode == 0)
        #expect(
            added.stderr
                == "Added 'Dune'.\nWarning: Hook on-add exited with status 3; the change is saved all the same.\n")
        #expect(try bookclub.run("list", "--all").stdout.contains("Dune"))

        try hook("on-add", "sleep 30")
        try bookclub.run("settings", "set", "hookTimeout", "1")
        let start = Date()
        let slow = try bookclub.run("add", "Emma", "--quiet")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(slow.exitCode == 0)
        #expect(
            slow.stderr
                == "Warning: Hook on-add ran past the hookTimeout of 1 s and was stopped; the change is saved all the same.\n"
        )
        #expect(try bookclub.run("list", "--all").stdout.contains("Emma"))
    }

    @Test func noHooksSkipsThemAndAHookMayRunBookclub() throws {
        defer { bookclub.cleanUp() }
        let marker = bookclub.home + "/ran"
        try hook("on-add", "touch '\(marker)'")
        try bookclub.run("add", "Dune", "--no-hooks")
        try bookclub.run("add", "Emma", environment: ["BOOKCLUB_NO_HOOKS": "1"])
        #expect(!FileManager.default.fileExists(atPath: marker))

        // The store is released before the hooks run, and a hook's own bookclub runs no hooks.
        try bookclub.run("settings", "set", "lockTimeout", "1")
        try hook(
            "on-add", "'\(BookClubRunner.executable.path)' add 'Added by a hook' >/dev/null 2>&1 || echo failed: $?")
        let added = try bookclub.run("add", "Solaris")
        #expect(added.stderr == "Added 'Solaris'.\n")
        let titles = try #require(try bookclub.json("list", "--all", "--json") as? [[String: Any]]).compactMap {
            $0["title"] as? String
        }
        #expect(titles.sorted() == ["Added by a hook", "Dune", "Emma", "Solaris"])

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: hooksFolder + "/on-add")
        let unusable = try bookclub.run("add", "Ulysses")
        #expect(unusable.exitCode == 0)
        #expect(unusable.stderr.contains("Warning: Hook \(hooksFolder)/on-add is not executable; run `chmod +x"))
    }
}
