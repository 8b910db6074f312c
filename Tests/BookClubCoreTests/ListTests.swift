import Foundation
import Testing

@testable import BookClubCore
@testable import bookclub

/// What `list` reads, the order it puts the books in, and how the output held for after the save
/// goes out.
@Suite struct ListTests {
    /// A book being read, its latest entry at `time`.
    func reading(_ title: String, id: String, at time: Date) -> Book {
        var book = Fixture.book(title, id: id)
        let progress = ReadingProgress(entries: [.init(id: UUID(), progress: 0.1, page: 40, time: time)])
        book.readings = [Reading(id: UUID(), started: time, progress: progress)]
        return book
    }

    @Test func readingComesFirstLatestFirstAndBooksThatTieAreByTitleThenAsTheyCame() {
        let later = Fixture.now.addingTimeInterval(3600)
        let books = [
            Fixture.book("zebra", id: "u1"), Fixture.book("Apple", id: "u2"), reading("Old", id: "r1", at: Fixture.now),
            Fixture.book("apple", id: "u3"), reading("New", id: "r2", at: later), reading("B", id: "r3", at: later),
            reading("a", id: "r4", at: later), Fixture.book("Ähre", id: "u4"),
        ]
        // Reading, latest first, ties by lowercased title; then unstarted (all added at one time) by
        // lowercased title, two of the same title as they came.
        #expect(BookTable.sorted(books).map(\.id) == ["r4", "r3", "r2", "r1", "u2", "u3", "u1", "u4"])
    }

    /// The table as `Table` lays out its cells: what `BookTable.render` must print, byte for byte.
    func tableOfCells(_ books: [BookRow], width: Int?, style: Style, stars: Bool) -> [UInt8] {
        let barWidth = min(24, max(8, (width ?? 100) / 5))
        let rows = books.map { book -> [TerminalText] in
            var detail: String
            switch book.status {
            case .unstarted: detail = "not started"
            case .reading:
                detail =
                    book.listened.map { DurationText.clock($0) + "/" + DurationText.clock(book.length ?? 0) }
                    ?? book.page.map { "p. \($0)" + (book.pages.map { "/\($0)" } ?? "") }
                    ?? (book.isLogged ? "" : "no progress yet")
            case .finished, .abandoned:
                detail = book.status.rawValue + (book.ended.map { " " + DateText.day($0, timeZone: Fixture.utc) } ?? "")
            }
            if book.isAudiobook { detail += " · audio" }
            let row: [TerminalText] = [
                TerminalText(String(book.id.prefix(8))), TerminalText(book.title), TerminalText(book.author ?? ""),
                TerminalText(
                    layout: ProgressBar.render(
                        eighths: ProgressBar.eighths(book.progress, width: barWidth), width: barWidth)),
                TerminalText(layout: ProgressText.percent(book.progress)), TerminalText(layout: detail),
            ]
            return stars ? row + ["\(book.rating.map(Rating.stars) ?? "")"] : row
        }
        let hasAuthors = books.contains { $0.author != nil }
        let table = Table(
            rows: hasAuthors ? rows : rows.map { $0.enumerated().filter { $0.offset != 2 }.map(\.element) },
            flexibleColumns: hasAuthors ? [1, 2] : [1], rightAligned: [hasAuthors ? 4 : 3])
        let lines = table.render(width: width) { column, text in
            switch hasAuthors || column < 2 ? column : column + 1 {
            case 0: style.dim(text)
            case 1: style.bold(text)
            case 3: style.green(text)
            case 5: style.dim(text)
            default: text
            }
        }
        return Array(lines.map { $0.string + "\n" }.joined().utf8)
    }

    /// `list`'s table, laid out a row at a time, is the table `Table` lays out of the same cells, for
    /// titles of every script and of control characters, at every width, in colour and not.
    @Test func theListLaysOutItsRowsAsATableOfTheirCells() {
        var generator = SeededGenerator(state: 3_000)
        let titles = [
            "Dune", "ノルウェイの森", "كتاب الرمل", "Book 📚", "👩‍👩‍👧 family", "Caf\u{E9}", "Cafe\u{301}", "Tab\there",
            "Bell\u{7}\u{1B}[2J", "\u{202E}reversed", "A very long title that a narrow terminal has to cut somewhere",
            "  spaced  ",
            "", "한국어 제목", "The Brothers Karamazov — Part One",
        ]
        let authors = ["Frank Herbert", "村上春樹", "", "خورخي لويس بورخيس", "Someone With A Rather Long Name Indeed"]
        for round in 0..<61 {
            let withAuthors = round % 3 != 0
            // The last round's table is more than one piece of 64 KiB.
            let count = round == 60 ? 2_000 : Int.random(in: 1...12, using: &generator)
            let books = (0..<count).map { index in
                BookRow(
                    id: index == 0 && round % 5 == 0 ? "née\t1" : String(format: "%032x", index * 7919 + round),
                    title: titles.randomElement(using: &generator)!,
                    author: withAuthors ? authors.randomElement(using: &generator) : nil,
                    status: Book.Status.allCases.randomElement(using: &generator)!, tags: [],
                    activity: Fixture.now, progress: Double(Int.random(in: 0...100, using: &generator)) / 100,
                    page: Bool.random(using: &generator) ? Int.random(in: 0...900, using: &generator) : nil,
                    pages: Bool.random(using: &generator) ? 900 : nil,
                    listened: Int.random(in: 0...5, using: &generator) == 0 ? 90 : nil, length: 600,
                    isLogged: Bool.random(using: &generator),
                    ended: Bool.random(using: &generator) ? Fixture.now : nil, isAudiobook: round % 4 == 0,
                    rating: Bool.random(using: &generator) ? 3.5 : nil)
            }
            for width in [nil, 20, 45, 80, 140] {
                for style in [Style(isEnabled: false), Style(isEnabled: true)] {
                    for stars in [false, true] {
                        var shown: [UInt8] = []
                        var pieces = 0
                        BookTable.render(books, width: width, style: style, timeZone: Fixture.utc, stars: stars) {
                            shown.append(contentsOf: $0)
                            pieces += 1
                        }
                        #expect(count < 2_000 || width != nil || pieces > 1)
                        let expected = tableOfCells(books, width: width, style: style, stars: stars)
                        #expect(
                            shown == expected,
                            "round \(round), width \(String(describing: width)), colour \(style.isEnabled), stars \(stars):\n\(String(decoding: shown, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))"
                        )
                    }
                }
            }
        }
    }

    @Test func outputHeldForAfterTheSaveIsWrittenAStreamsRunAtATime() {
        let pending: [(text: String, toStandardOutput: Bool)] = [
            ("a\n", true), ("b\n", true), ("note\n", false), ("c\n", true), ("warning\n", false), ("more\n", false),
        ]
        let writes = Session.writes(of: pending)
        #expect(writes.map(\.text) == ["a\nb\n", "note\n", "c\n", "warning\nmore\n"])
        #expect(writes.map(\.toStandardOutput) == [true, false, true, false])
        #expect(Session.writes(of: []).isEmpty)
    }

    /// A listing reads every book as the store holds it but for its details, by the fast reader
    /// (which a fallback to the whole decoding would hide), from the snapshot and from the journal.
    @Test(.enabled(if: RealExports.isPresent, "the real exports are not here (../shared/fixtures/imports); skipped"))
    func aListingIsTheLibraryWithoutItsDetails() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        for (format, name) in [("goodreads", "goodreads-2024-24col.csv"), ("storygraph", "storygraph.csv")] {
            #expect(
                try bookclub.run("import", format, RealExports.folder.appendingPathComponent(name).path).exitCode == 0)
        }
        let storage = LibraryStorage(path: bookclub.storePath, fileSystem: .live)
        for round in ["snapshot", "journal"] {
            let whole = try Store(persistence: storage.persistence(lockTimeout: nil)).state
            let listed = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .listing)).state
            #expect(whole.books.filter { $0.details != nil }.count > 300, "\(round)")
            var withoutDetails = whole
            for index in withoutDetails.books.indices { withoutDetails.books[index].details = nil }
            #expect(listed == withoutDetails, "\(round)")
            #expect(try storage.readFiles(locked: false).everyBook(leavingDetails: true)?.count == whole.books.count)
            // Books with their details, changed: now in the journal.
            for book in whole.books.filter({ $0.details != nil }).prefix(3) {
                #expect(try bookclub.run("edit", book.id, "--add-tag", "listed").exitCode == 0)
            }
        }
        let files = try storage.readFiles(locked: false)
        #expect(files.journalBooks.count == 3, "the last round read three books from the journal")
    }

    /// `list` shows the same with its listing and without it (read from the books), in New York and
    /// in Kolkata, with changes in the journal and without; `doctor --fix` writes a missing listing.
    @Test(.enabled(if: RealExports.isPresent, "the real exports are not here (../shared/fixtures/imports); skipped"))
    func aListingShowsWhatTheBooksShow() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        #expect(
            try bookclub.run(
                "import", "goodreads", RealExports.folder.appendingPathComponent("goodreads-2024-24col.csv").path
            ).exitCode == 0)
        for arguments in [
            ["add", "ノルウェイの森", "--author", "村上春樹", "--pages", "296", "--tag", "Japan"],
            ["add", "كتاب الرمل", "--author", "بورخيس", "--pages", "200"],
            ["add", "Book 📚", "--audio", "--length", "9:00"],
            ["progress", "ノルウェイの森", "120", "--note", "井戸"], ["progress", "Book 📚", "2:30"],
            ["finish", "كتاب الرمل", "--rating", "4.5"],
        ] {
            let result = try bookclub.run(arguments)
            #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        }
        let listing = bookclub.storePath + ".listing"
        let lists = [["list"], ["list", "--all", "--stars"], ["list", "--finished"], ["list", "--tag", "japan"]]
        for (zone, page) in [("America/New_York", "130"), ("Asia/Kolkata", "140")] {
            #expect(try bookclub.run("progress", "ノルウェイの森", page).exitCode == 0)
            for round in ["in the journal", "folded"] {
                #expect(FileManager.default.fileExists(atPath: listing), "\(round)")
                var shown: [[String]: BookClubRunner.Result] = [:]
                for arguments in lists { shown[arguments] = try bookclub.run(arguments, environment: ["TZ": zone]) }
                // Cut to the width the runner gives.
                #expect(shown[["list", "--all", "--stars"]]?.stdout.contains("ノルウェ") == true)
                #expect(shown[["list", "--finished"]]?.stdout.contains("كتاب الرمل") == true)
                #expect(shown[["list", "--tag", "japan"]]?.stdout.split(separator: "\n").count == 1)
                try FileManager.default.removeItem(atPath: listing)
                for arguments in lists {
                    let again = try bookclub.run(arguments, environment: ["TZ": zone])
                    #expect(again.stdout == shown[arguments]?.stdout, "\(arguments), \(zone), \(round)")
                    #expect(again.stderr.isEmpty && again.exitCode == 0, "\(again.stderr)")
                }
                #expect(!FileManager.default.fileExists(atPath: listing), "a list writes nothing")
                let fix = try bookclub.run("doctor", "--fix")
                #expect(fix.stdout.contains("wrote \(listing)") || fix.stdout.contains("folded"), "\(fix.stdout)")
            }
        }
    }
}
