import Foundation
import Synchronization
import Testing

@testable import BookClubCore

/// The snapshot and its journal: a change appends, a command about one book reads one book, and
/// whatever a cut-short write or a hand edit leaves is read as the last committed state.
@Suite struct JournalTests {
    let path = "/data/store.json"

    /// A store of `count` books, "Book 0" ... , ids `b0000` ..., committed in one save.
    func shelf(_ count: Int, files: FileSystem = .inMemory()) throws -> LibraryStorage {
        let storage = LibraryStorage(path: path, fileSystem: files)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update {
            for index in 0..<count {
                $0.addBook(Fixture.book("Book \(index)", id: String(format: "b%04d", index)))
            }
        }
        try store.save()
        return storage
    }

    func text(_ storage: LibraryStorage, _ path: String) throws -> String {
        String(decoding: try #require(try storage.fileSystem.read(path)), as: UTF8.self)
    }

    func logProgress(_ storage: LibraryStorage, book: String, page: Int, scope: LibraryScope = .everything) throws {
        let store = try Store(
            persistence: storage.persistence(lockTimeout: 1, recording: ("progress", Fixture.now), scope: scope))
        try store.update {
            _ = try $0.logProgress(
                .page(page), note: nil, at: Fixture.now.addingTimeInterval(Double(page)), bookID: book, reference: book)
        }
        try store.save()
    }

    /// The undo log's records are written by hand, and read by Foundation's decoder: every field of
    /// a change, in any script, with clubs and without, reads back as it was.
    @Test func anUndoRecordReadsBackAsItWasWritten() throws {
        let ending = Ending(
            outcome: .finished, date: Fixture.now, note: "the end\n\"really\"", rating: 4.5, review: "✓")
        let reading = Reading(
            id: UUID(), started: Fixture.now,
            progress: ReadingProgress(entries: [
                .init(id: UUID(), progress: 0.3, page: 120, time: Fixture.now, note: "كتب 📚\u{1}")
            ]), ending: ending, resumed: [Ending(outcome: .abandoned, date: nil)])
        let book = Book(
            id: "b1", title: "ノルウェイの森", author: "村上春樹", pages: 400, isbn: "9780099448822", tags: ["jp", "🌲"],
            rating: 5, contributors: [Contributor(name: "Jay Rubin", role: "Translator")],
            details: ["goodreads:Book Id": ["11297"], "shelf\t": []], added: Fixture.now, readings: [reading])
        var stored = StoredBook(book)
        stored.historyTail = 4096
        let clubs = [Club(id: "c1", name: "Tuesday", meetings: [Meeting(id: "m1", date: Fixture.now, bookID: "b1")])]
        for clubs in [nil, clubs] {
            let change = UndoRecord(
                time: Fixture.now, command: "progress 'ノルウェイの森' 120 --note \"x\"", summary: "'ノルウェイの森': p. 120",
                before: Revert(books: [stored], absent: ["b2"], clubs: clubs, historyLength: 77, state: "s1"),
                after: "s2")
            let line = try LibraryStorage.line(for: change, at: 0)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            #expect(
                try decoder.decode(UndoRecord.self, from: line) == change, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    /// A new snapshot is written by hand, byte for byte as JSONEncoder writes it: with books and
    /// without, with clubs, none, and none named (a store of schema 1), and of several megabytes (moved
    /// into its room a megabyte at a time).
    @Test func aSnapshotIsWrittenAsJSONEncoderWritesIt() throws {
        let storage = try shelf(3)
        let files = try LibraryFiles(reading: storage)
        var books = try files.allLines().map { try StoredBook.decode($0.line, path: path) }
        books[1].rating = 4
        books[1].tags = ["ノルウェイ", "📚", "كتب"]
        books[2].historyTail = 812
        books[2].details = ["goodreads:Book Id": ["1"], "empty": []]
        let club = Club(
            id: "c1", name: "Tuesday \"night\"", description: "ok",
            meetings: [Meeting(id: "m1", date: Fixture.now, bookID: "b0001")])
        let many = Array(repeating: books, count: 6_000).flatMap { $0 }
        for (books, clubs) in [(books, [club]), ([], []), (books, nil), ([], [club, club]), (many, [club])]
            as [([StoredBook], [Club]?)]
        {
            let document = LibraryFiles.Document(
                books: books, clubs: clubs, generation: "g1", previousGeneration: "", historyLength: 1234,
                schemaVersion: LibraryStorage.schemaVersion, state: "s1")
            let expected = try JSONCoding.encoder().encode(document) + Data("\n".utf8)
            #expect(books.count < 10 || expected.count > 2 * StagedHistory.part)
            #expect(
                try LibraryFiles.snapshot(document) == expected,
                "\(String(decoding: expected.prefix(4096), as: UTF8.self))")
        }
    }

    /// A long history is gone through a few books at a time: each book comes with every entry, in the
    /// library's order, as the whole history read at once gives it; lines of a removed book are passed
    /// over.
    @Test func aLongHistoryIsWalkedAFewBooksAtATime() throws {
        let storage = try shelf(5)
        for page in 1...6 {
            for book in ["b0000", "b0001", "b0003", "b0004"] { try logProgress(storage, book: book, page: page * 10) }
        }
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { _ = $0.removeBook(id: "b0003") }
        try store.save()
        let whole = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
        #expect(whole.books.map { $0.readings.flatMap(\.progress.entries).count } == [6, 6, 0, 6])
        for entriesAtOnce in [1, 7, 12, 100] {
            for blockLines in [1, 3, 4096] {
                var walked: [Book] = []
                try storage.historyWalk().forEachBook(
                    entriesAtOnce: entriesAtOnce, readWholeUpTo: 0, blockLines: blockLines
                ) { walked.append($0) }
                #expect(walked == whole.books, "\(entriesAtOnce) at once, blocks of \(blockLines) lines")
            }
        }
        let handed = try entriesHandedOn(storage.historyWalk())
        #expect(handed?.entries == entries(of: whole))
        #expect(handed?.takenBack == [])
    }

    /// A run of books holds its entries in a form of its own until each book is handed on: every field
    /// of an entry comes back as it was (notes in any script, minutes, places listened, fractions without
    /// a page, entries logged out of order), whatever the runs and blocks, while the next run is read.
    @Test func aWalkGivesBackEveryFieldOfEveryEntry() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(0, files: files)
        func entry(_ number: Int, _ fields: (inout ReadingProgress.Entry) -> Void = { _ in }) -> ReadingProgress.Entry {
            var entry = ReadingProgress.Entry(
                id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!,
                progress: Double(number) / 100, time: Fixture.now.addingTimeInterval(Double(number * 60)))
            fields(&entry)
            return entry
        }
        var paper = Fixture.book("ノルウェイの森", id: "p0001", pages: 100)
        paper.readings = [
            Reading(
                id: UUID(uuidString: "00000000-0000-0000-0001-000000000001")!, started: Fixture.now,
                progress: ReadingProgress(entries: [
                    entry(1) { $0.page = 1 }, entry(2) { $0.note = "読書会 📚 \"quoted\"\n" },
                    entry(3) { $0.minutes = 1440 }, entry(4),
                ]), ending: Ending(outcome: .abandoned, date: Fixture.now)),
            Reading(
                id: UUID(uuidString: "00000000-0000-0000-0001-00000000000B")!, started: Fixture.now,
                progress: ReadingProgress(entries: [entry(5) { $0.page = 100_000 }, entry(6) { $0.note = "" }])),
        ]
        var heard = Fixture.book("מסע 🎧", id: "a0001", pages: nil)
        heard.format = .audiobook
        heard.length = 60_000
        heard.readings = [
            Reading(
                id: UUID(uuidString: "00000000-0000-0000-0002-000000000001")!, started: Fixture.now,
                progress: ReadingProgress(entries: [
                    entry(7) { $0.listened = 0 },
                    entry(8) {
                        $0.listened = 60_000
                        $0.minutes = 0
                    },
                ]))
        ]
        let store = try Store(persistence: storage.persistence(lockTimeout: 1, scope: .everything.withHistory))
        // An id JSON writes with escapes, which a line cannot be compared with in place.
        var quoted = Fixture.book("Quoted", id: "q\"0001\\", pages: 10)
        quoted.readings = [
            Reading(
                id: UUID(uuidString: "00000000-0000-0000-0003-000000000001")!, started: Fixture.now,
                progress: ReadingProgress(entries: [entry(10) { $0.page = 1 }, entry(11) { $0.page = 2 }]))
        ]
        store.update { $0.books += [paper, heard, quoted] }
        try store.save()
        // Logged later, on the current reading, but backdated before its entries.
        let later = try Store(persistence: storage.persistence(lockTimeout: 1, scope: .everything.withHistory))
        try later.update {
            _ = try $0.logProgress(
                .page(9), note: "早い", at: Fixture.now.addingTimeInterval(-600), bookID: "p0001", reference: "p0001")
        }
        try later.save()

        let whole = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
        #expect(whole.books.map { $0.readings.map(\.progress.entries.count) } == [[4, 3], [2], [2]])
        #expect(whole.books[0].readings[1].progress.entries.first?.note == "早い")
        for entriesAtOnce in [1, 2, 100] {
            for blockLines in [1, 2, 4096] {
                var walked: [Book] = []
                try storage.historyWalk().forEachBook(
                    entriesAtOnce: entriesAtOnce, readWholeUpTo: 0, blockLines: blockLines
                ) { walked.append($0) }
                #expect(walked == whole.books, "\(entriesAtOnce) at once, blocks of \(blockLines) lines")
            }
        }

        // A reading's id in lower case, and an entry's keys in another order (hand edits), are read
        // as they were: the one in place, the other read whole.
        let history = try text(storage, storage.historyPath)
        let upper = "00000000-0000-0000-0001-00000000000B"
        #expect(history.components(separatedBy: upper).count == 4)
        let reordered = (#""page":1,"progress":0.01"#, #""progress":0.01,"page":1"#)
        #expect(history.components(separatedBy: reordered.0).count == 2)
        let edited = history.replacing(upper, with: upper.lowercased()).replacing(reordered.0, with: reordered.1)
        try files.writeAtomically(storage.historyPath, Data(edited.utf8))
        var walked: [Book] = []
        try storage.historyWalk().forEachBook(entriesAtOnce: 2, readWholeUpTo: 0, blockLines: 1) { walked.append($0) }
        #expect(walked == whole.books)
        // The entry logged backdated is handed on in its place among the latest ones held back; held back
        // none, it takes its book back, to be handed on whole and in order.
        for (room, takenBack) in [(8, []), (2, []), (1, [0]), (0, [0])] {
            let handed = try entriesHandedOn(storage.historyWalk(), reorderRoom: room)
            #expect(handed?.entries == entries(of: whole), "held back: \(room)")
            #expect(handed?.takenBack == takenBack, "held back: \(room)")
        }
        #expect(try entriesHandedOn(storage.historyWalk(), reorderRoom: 0, mostTakenBack: 0) == nil)
    }

    /// Every entry `forEachEntry` hands on, by the place of its reading, each part's put together, and
    /// the books it took back, each reading's entries taken back the ones it had handed on; `nil` when
    /// it hands on none.
    func entriesHandedOn(_ walk: HistoryWalk, reorderRoom: Int = 4, mostTakenBack: Int = 16) throws -> (
        entries: [[ReadingProgress.Entry]], takenBack: [Int]
    )? {
        let places = walk.readingPlaces
        let count = walk.library.books.reduce(0) { $0 + $1.readings.count }
        let empty = (entries: Array(repeating: [ReadingProgress.Entry](), count: count), takenBack: Set<Int>())
        let parts = try walk.forEachEntry(empty, reorderRoom: reorderRoom, mostTakenBack: mostTakenBack) {
            $0.entries[$1].append($2)
        } takingBack: {
            part, place, entries in
            #expect(part.entries[place] == entries)
            part.entries[place] = []
            part.takenBack.insert(places.lastIndex { $0 <= place }!)
        }
        return parts.map { parts in
            ((0..<count).map { place in parts.flatMap { $0.entries[place] } }, parts.flatMap(\.takenBack).sorted())
        }
    }

    /// The entries of each reading of `library`, book by book, without their notes.
    func entries(of library: Library) -> [[ReadingProgress.Entry]] {
        library.books.flatMap(\.readings).map { reading in
            reading.progress.entries.map { entry in
                var entry = entry
                entry.note = nil
                return entry
            }
        }
    }

    /// `stats` reads the history once, on two threads, each counting the books at even or odd places,
    /// and counts what it would count of the whole library in memory: pages and percents, places
    /// listened and minutes, re-reads, backdated entries, readings finished and abandoned, an entry
    /// withdrawn, in three time zones. A book removed and back again under the same id is counted from
    /// its new start, the walk then going a few books at a time.
    @Test func statsCountTheHistoryReadOnceAsTheWholeLibrary() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(0, files: files)
        func at(_ days: Double, _ hours: Double = 0) -> Date {
            Fixture.now.addingTimeInterval((days * 24 + hours) * -3600)
        }
        var made = 0
        func entry(_ page: Int?, of pages: Int = 300, _ time: Date, listened: Int? = nil, minutes: Int? = nil)
            -> ReadingProgress.Entry
        {
            made += 1
            return ReadingProgress.Entry(
                id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", made))!,
                progress: Double(page ?? listened ?? 0) / Double(pages), page: page, time: time, minutes: minutes,
                listened: listened)
        }
        var paper = Fixture.book("ノルウェイの森", id: "p0001", pages: 300)
        paper.readings = [
            Reading(
                started: at(400),
                progress: ReadingProgress(entries: [
                    entry(40, at(400), minutes: 50), entry(30, at(399, 23.5)), entry(300, at(398)),
                ]), ending: Ending(outcome: .finished, date: at(397), rating: 4)),
            Reading(
                started: at(30),
                progress: ReadingProgress(entries: [
                    entry(20, at(30, 20)), entry(10, at(31)), entry(150, at(2, 23.9)), entry(150, at(1)),
                ])),
        ]
        var heard = Fixture.book("מסע 🎧", id: "a0001", pages: nil)
        heard.format = .audiobook
        heard.length = 600
        heard.readings = [
            Reading(
                started: at(20),
                progress: ReadingProgress(entries: [
                    entry(nil, of: 600, at(20), listened: 90), entry(nil, of: 600, at(19), listened: 600, minutes: 30),
                ]), ending: Ending(outcome: .finished, date: at(18)))
        ]
        var percent = Fixture.book("📚 Sans pages", id: "s0001", pages: nil)
        percent.readings = [
            Reading(
                started: at(60),
                progress: ReadingProgress(entries: [
                    ReadingProgress.Entry(progress: 0.1, time: at(60)),
                    ReadingProgress.Entry(progress: 0.3, time: at(59)),
                ]), ending: Ending(outcome: .abandoned, date: at(58)))
        ]
        // Each change by a store of its own, as each command has.
        func change(_ body: (inout Library) throws -> Void) throws {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1, scope: .everything.withHistory))
            try store.update(body)
            try store.save()
        }
        try change { $0.books += [paper, heard, percent, Fixture.book("Unread", id: "u0001")] }
        // An entry undone on another machine: withdrawn, its line still in the history.
        try change { $0.books[0].readings[1].progress.withdraw(paper.readings[1].progress.entries[2].id) }

        /// `takenBack`: the books the walk takes back; `nil` when it gives up for the walk a few books at
        /// a time.
        func expectSameStats(takenBack: [Book.ID]?, _ comment: Comment) throws {
            let whole = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
                .state
            let walk = try storage.historyWalk()
            let handedOn = try entriesHandedOn(walk)?.takenBack.map { walk.library.books[$0].id }
            #expect(handedOn?.sorted() == takenBack?.sorted(), "\(comment): \(String(describing: handedOn))")
            for zone in [Fixture.utc, Zone(posix: "IST-5:30")!, Zone(posix: "EST5EDT,M3.2.0,M11.1.0")!] {
                for year in [2025, 2026] {
                    let walk = try storage.historyWalk(leavingDetails: true)
                    var counter = ReadingStats.Counter(now: Fixture.now, timeZone: zone, year: year)
                    try counter.count(walk)
                    let counted = ReadingStats(counter, library: walk.library, goal: 12)
                    let expected = ReadingStats(library: whole, now: Fixture.now, timeZone: zone, year: year, goal: 12)
                    #expect(counted == expected, "\(comment), \(zone.name), \(year)")
                    #expect(year == 2025 || (counted.pages > 0 && counted.readingDays > 0), comment)
                }
            }
        }
        try expectSameStats(takenBack: [], "as logged")
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
                .books[0].readings[1].progress.entries.count == 3)

        // Logged backdated among the reading's latest entries, which are held back: handed on in its place.
        func log(_ page: Int, _ book: Book.ID, at time: Date) throws {
            try change { _ = try $0.logProgress(.page(page), note: nil, at: time, bookID: book, reference: book) }
        }
        try log(200, "p0001", at: at(2))
        try expectSameStats(takenBack: [], "backdated among the latest")

        // Before more of them than are held back: its book is counted again, whole.
        func tenDays(_ id: Book.ID) -> Book {
            var book = Fixture.book("Book \(id)", id: id)
            book.readings = [
                Reading(
                    started: at(20),
                    progress: ReadingProgress(entries: (1...10).map { entry($0 * 10, at(Double(20 - $0))) }))
            ]
            return book
        }
        try change { $0.books += [tenDays("t0000"), tenDays("m0000")] }
        try log(5, "t0000", at: at(19.5))
        // Among the latest held back, with earlier ones handed on: put in its place between two of them.
        try log(85, "m0000", at: at(11.5))
        try log(95, "m0000", at: at(10.5))
        try expectSameStats(takenBack: ["t0000"], "backdated before the latest")

        // A line chained past the one before it (a hand edit, once the journal no longer carries the
        // line): its chain leads through fewer lines than the book has, and the walk goes a few books
        // at a time.
        var read = try storage.readFiles(locked: true)
        try read.settleCarried()
        let history = try text(storage, storage.historyPath)
        let chained = history.split(separator: "\n").filter { $0.contains(#""book":"t0000""#) }.map {
            String($0[$0.range(of: #""previous":"#)!.upperBound...].prefix { $0 != "," })
        }
        #expect(chained.count == 11 && chained[2].count == chained[1].count)
        try files.writeAtomically(
            storage.historyPath,
            Data(history.replacing(#""previous":\#(chained[2]),"#, with: #""previous":\#(chained[1]),"#).utf8))
        try expectSameStats(takenBack: nil, "a line chained past one")
        try files.writeAtomically(storage.historyPath, Data(history.utf8))

        // Removed, and back under the same id with a reading of its own, the lines before no longer its.
        try change { _ = $0.removeBook(id: "p0001") }
        var back = Fixture.book("ノルウェイの森", id: "p0001", pages: 300)
        back.readings = [
            Reading(started: at(5), progress: ReadingProgress(entries: [entry(60, at(5)), entry(90, at(4))]))
        ]
        try change { $0.books.append(back) }
        try expectSameStats(takenBack: ["t0000", "p0001"], "started again")

        // More books taken back than are followed by their chains: the walk goes a few books at a time.
        let many = (1...16).map { String(format: "t%04d", $0) }
        try change { $0.books += many.map(tenDays) }
        for book in many { try log(5, book, at: at(19.5)) }
        try expectSameStats(takenBack: nil, "many backdated")
    }

    /// `stats` reads every line of the history as a walk a few books at a time does: a line of a book
    /// no longer there with a page out of bounds is refused, as every line is; the latest entry the
    /// snapshot holds and the history lacks is counted after those the history holds.
    @Test func statsReadEveryLineAndTheLatestEntriesTheHistoryLacks() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(3, files: files)
        for page in [10, 20, 30] {
            for book in ["b0000", "b0001", "b0002"] { try logProgress(storage, book: book, page: page) }
        }
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { _ = $0.removeBook(id: "b0001") }
        try store.save()
        func stats() throws -> ReadingStats {
            let walk = try storage.historyWalk(leavingDetails: true)
            var counter = ReadingStats.Counter(now: Fixture.now, timeZone: Fixture.utc, year: 2026)
            try counter.count(walk)
            return ReadingStats(counter, library: walk.library)
        }
        let whole = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
        #expect(try stats() == ReadingStats(library: whole, now: Fixture.now, timeZone: Fixture.utc, year: 2026))
        #expect(try stats().pages == 60)

        // The last line, b0002's latest entry, of a book never in the library (a hand edit, once the
        // journal no longer carries the line): the snapshot's entry counts.
        var read = try storage.readFiles(locked: true)
        try read.settleCarried()
        let history = try text(storage, storage.historyPath)
        let lines = history.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.dropLast().last?.contains(#""book":"b0002""#) == true)
        let moved =
            lines.dropLast(2).joined(separator: "\n") + "\n"
            + lines.dropLast().last!.replacing(#""book":"b0002""#, with: #""book":"x0002""#) + "\n"
        try files.writeAtomically(storage.historyPath, Data(moved.utf8))
        let handed = try entriesHandedOn(storage.historyWalk())
        #expect(handed?.entries.map(\.count) == [3, 3] && handed?.takenBack == [])
        #expect(try storage.history(of: ["b0002"]).values.map(\.count) == [2])
        #expect(try stats().pages == 60)

        // A removed book's line with a page out of bounds.
        let bad = lines.map { line in
            line.contains(#""book":"b0001""#)
                ? String(line).replacing(#""page":10,"#, with: #""page":-1,"#) : String(line)
        }.joined(separator: "\n")
        #expect(bad != history && bad.utf8.count == history.utf8.count)
        try files.writeAtomically(storage.historyPath, Data(bad.utf8))
        #expect(throws: BookClubError.self) { try storage.historyWalk().forEachBook { _ in } }
        #expect(throws: BookClubError.self) { try stats() }
    }

    /// A run's books are handed on while the next run is read: an error thrown by `body` stops the walk
    /// there, and a line that cannot be read stops it once the books before its run are handed on,
    /// each error said as it was thrown.
    @Test func aWalkStopsAtTheFirstErrorOfItsBodyOrOfItsReading() throws {
        struct Stop: Error {}
        let files = FileSystem.inMemory()
        let storage = try shelf(12, files: files)
        for page in [10, 20] {
            for book in 0..<12 { try logProgress(storage, book: String(format: "b%04d", book), page: page) }
        }
        for blockLines in [1, 4096] {
            // Runs of one book each.
            var handed: [Book.ID] = []
            #expect(throws: Stop.self) {
                try storage.historyWalk().forEachBook(entriesAtOnce: 2, readWholeUpTo: 0, blockLines: blockLines) {
                    handed.append($0.id)
                    if handed.count == 3 { throw Stop() }
                }
            }
            #expect(handed == ["b0000", "b0001", "b0002"], "blocks of \(blockLines) lines")
        }

        // A page out of bounds in the eighth book's first line, the line as long as it was, once the
        // journal no longer carries it (a reader would put back the line as it was written).
        var read = try storage.readFiles(locked: true)
        try read.settleCarried()
        let history = try text(storage, storage.historyPath)
        var lines = history.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let damaged = try #require(lines.firstIndex { $0.contains(#""book":"b0007""#) })
        lines[damaged] = lines[damaged].replacing(#""page":10,"#, with: #""page":-1,"#)
        #expect(lines.joined(separator: "\n").utf8.count == history.utf8.count)
        try files.writeAtomically(storage.historyPath, Data(lines.joined(separator: "\n").utf8))
        for blockLines in [1, 4096] {
            var handed: [Book.ID] = []
            do {
                try storage.historyWalk().forEachBook(entriesAtOnce: 2, readWholeUpTo: 0, blockLines: blockLines) {
                    handed.append($0.id)
                }
                Issue.record("the damaged line was read")
            } catch let BookClubError.corruptFile(path, detail) {
                #expect(path == storage.historyPath)
                #expect(detail.hasPrefix("book b0007: `page`"), "\(detail)")
            }
            #expect(handed == (0..<7).map { String(format: "b%04d", $0) }, "blocks of \(blockLines) lines")
        }

        // A line found to be another book's when its run is read (an undo and a write since the first
        // pass) stops the walk. The history the walk reads is swapped under a lock, not written while
        // it is read.
        final class Swap: Sendable { let history = Mutex<Data?>(nil) }
        let swap = Swap()
        var swapping = files
        swapping.readLines = { path, range, body in
            if path == storage.historyPath, let history = swap.history.withLock({ $0 }) {
                return try body(history[range])
            }
            try files.readLines(path, range, body)
        }
        try files.writeAtomically(storage.historyPath, Data(history.utf8))
        let moved = Data(history.replacing(#""book":"b0010""#, with: #""book":"b0011""#).utf8)
        var handed = 0
        do {
            try LibraryStorage(path: storage.path, fileSystem: swapping).historyWalk().forEachBook(
                entriesAtOnce: 2, readWholeUpTo: 0, blockLines: 1
            ) { _ in
                handed += 1
                if handed == 1 { swap.history.withLock { $0 = moved } }
            }
            Issue.record("the moved line was read")
        } catch let BookClubError.corruptFile(path, detail) {
            #expect(path == storage.historyPath)
            #expect(detail == "changed while it was read; run the command again")
        }
        #expect(handed == 10)
    }

    /// A book removed and back again with its entries (another machine logged on it meanwhile, or an
    /// import brought it again) starts a new chain: its old lines are not read twice beside the new ones,
    /// however the history is read.
    @Test func aBookBackAfterItsRemovalHasEachEntryOnce() throws {
        let storage = try shelf(3)
        for page in 1...3 {
            for book in ["b0000", "b0001"] { try logProgress(storage, book: book, page: page * 10) }
        }
        func whole() throws -> Library {
            try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
        }
        var returning = try #require(try whole().books.first { $0.id == "b0001" })
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { _ = $0.removeBook(id: "b0001") }
        try store.save()
        try logProgress(storage, book: "b0000", page: 40)
        returning.readings[0].progress = ReadingProgress(
            entries: returning.readings[0].progress.entries + [
                .init(
                    id: UUID(uuidString: "00000000-0000-0000-0000-000000000099")!, progress: 0.35, page: 35,
                    time: Fixture.now.addingTimeInterval(99))
            ])
        let back = try Store(persistence: storage.persistence(lockTimeout: 1, scope: .everything.withHistory))
        back.update { $0.books.append(returning) }
        try back.save()

        let library = try whole()
        #expect(
            library.books.map { $0.readings.flatMap(\.progress.entries).map(\.page) } == [
                [10, 20, 30, 40], [10, 20, 30, 35], [],
            ])
        // Blocks of 1 to 3 lines put the book's new start in the second half of the lines read at once.
        for entriesAtOnce in [1, 4, 100] {
            for blockLines in [1, 2, 3, 4096] {
                var walked: [Book] = []
                try storage.historyWalk().forEachBook(
                    entriesAtOnce: entriesAtOnce, readWholeUpTo: 0, blockLines: blockLines
                ) { walked.append($0) }
                #expect(walked == library.books, "\(entriesAtOnce) at once, blocks of \(blockLines) lines")
            }
        }
        let one = try Store(
            persistence: storage.persistence(lockTimeout: nil, scope: LibraryScope.books(["b0001"]).withHistory))
        #expect(one.state.books.first?.readings[0].progress.entries.map(\.page) == [10, 20, 30, 35])
    }

    /// One `fsync` commits a change: its history lines and undo record are written to their files
    /// unsynced and carried by the journal's commit. What a power cut then takes from the files (the
    /// lines lost, zeroed, cut; the record lost or torn) is put back by the next command, reader or
    /// writer, byte for byte; a commit that carries nothing (an `undo`) syncs the files first.
    @Test func whatAPowerCutTakesFromTheHistoryAndTheUndoLogIsPutBackFromTheJournal() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(3, files: files)
        try logProgress(storage, book: "b0000", page: 5)
        #expect(try storage.foldJournal(lockTimeout: 1), "the lines before are the snapshot's, synced")
        try logProgress(storage, book: "b0001", page: 10)
        try logProgress(storage, book: "b0002", page: 20)
        let history = try #require(try files.read(storage.historyPath))
        let undo = try #require(try files.read(storage.undoPath))
        let journal = try text(storage, storage.journalPath)
        #expect(journal.components(separatedBy: "\n{\"entry\":").count == 3)
        let library = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
            .state
        let changes = try storage.changes().map(\.command)
        #expect(changes == ["progress", "progress", "progress"])
        let folded = try #require(history.firstRange(of: Data("\n".utf8))).upperBound
        let carriedUndo = try #require(undo.lastRange(of: Data("\n\n".utf8)))
        // Where the first record the journal carries begins: what comes before was synced by the fold.
        let firstCarried = try #require(
            journal.firstMatch(of: #/\{"at":([0-9]+),"undo"/#).flatMap { Int($0.output.1) })

        func zeroed(_ data: Data, from: Int) -> Data { data.prefix(from) + Data(count: data.count - from) }
        func replaced(_ data: Data, at place: Int) -> Data {
            var data = data
            data[data.startIndex + place] = UInt8(ascii: "x")
            return data
        }
        let damages: [(String, Data, Data)] = [
            ("the history's carried lines lost", history.prefix(folded), undo),
            ("zeroed", zeroed(history, from: folded), undo),
            ("cut mid-line", history.prefix(history.count - 30), undo),
            ("the last undo record lost", history, undo.prefix(carriedUndo.lowerBound)),
            ("torn", history, undo.prefix(undo.count - 40)),
            ("both gone", history.prefix(folded), undo.prefix(firstCarried)),
            // A record's line breaks, before it and after it, each changed alone.
            ("the line break before the last record changed", history, replaced(undo, at: carriedUndo.lowerBound + 1)),
            ("the last line break changed", history, replaced(undo, at: undo.count - 1)),
        ]
        for (damage, damagedHistory, damagedUndo) in damages {
            try files.writeAtomically(storage.historyPath, damagedHistory)
            try files.writeAtomically(storage.undoPath, damagedUndo)
            let read = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
                .state
            #expect(read == library, "\(damage)")
            #expect(try storage.changes().map(\.command) == changes, "\(damage)")
            #expect(try files.read(storage.historyPath) == history, "\(damage)")
            #expect(try files.read(storage.undoPath) == undo, "\(damage)")
        }

        // After an undo, which syncs both files and carries nothing, the lines before it are not put back.
        #expect(try storage.undo(lockTimeout: 1) != nil)
        let undone = try #require(try files.read(storage.historyPath))
        #expect(undone.count < history.count)
        try logProgress(storage, book: "b0001", page: 11)
        let after = try #require(try files.read(storage.historyPath))
        let afterUndo = try #require(try files.read(storage.undoPath))
        try files.writeAtomically(storage.historyPath, undone)
        _ = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
        #expect(try files.read(storage.historyPath) == after)
        #expect(try files.read(storage.undoPath) == afterUndo)
    }

    /// A journal edited by hand, its seals made anew, that carries an undo record at an offset no log
    /// reaches (or no number can hold) is refused with exit 65, never a trap or a file of a terabyte.
    @Test(arguments: ["1000000000000", "99999999999999999999"])
    func aCarriedRecordPastAnyLogIsRefused(_ offset: String) throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(1, files: files)
        try logProgress(storage, book: "b0000", page: 10)
        let lines = try text(storage, storage.journalPath).split(separator: "\n").map(String.init)
        let at = try #require(lines.firstIndex { $0.hasPrefix(#"{"at":0,"undo":"#) })
        let commit = try #require(lines.firstIndex { $0.hasPrefix(#"{"commit":"#) })
        var transaction = lines[1..<commit]
        transaction[at] = lines[at].replacing(#"{"at":0,"#, with: #"{"at":\#(offset),"#)
        let data = Data(transaction.map { $0 + "\n" }.joined().utf8)
        let unsealed = try #require(lines[commit].firstRange(of: #","length":"#))
        let line = Seal.seal(
            Data((lines[commit][..<unsealed.lowerBound] + #","length":\#(data.count)}"#).utf8), covering: data)
        try files.writeAtomically(
            storage.journalPath, Data((lines[0] + "\n").utf8) + data + line + Data("\n".utf8))
        let undo = try files.read(storage.undoPath)
        #expect(throws: BookClubError.self) {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
        }
        #expect(try files.read(storage.undoPath) == undo, "nothing written")
    }

    /// A save that sets the undo log aside (`STORE.undo.1`) and then fails commits nothing; the
    /// records the journal carries are found in the log set aside, so nothing of it is written into
    /// the new one.
    @Test func aSaveThatSetsTheUndoLogAsideAndFailsLeavesBothLogsAsTheyWere() throws {
        final class Switch: @unchecked Sendable { var failing = false }
        let failure = Switch()
        var files = FileSystem.inMemory()
        let append = files.append
        files.append = { file, data, offset in
            if failure.failing, file == path + ".journal", String(decoding: data, as: UTF8.self).contains("newUndo") {
                throw BookClubError.io(path: file, cause: "No space left on device")
            }
            try append(file, data, offset)
        }
        let storage = try shelf(1, files: files)
        for page in 1...LibraryStorage.undoDepth { try logProgress(storage, book: "b0000", page: page) }
        let changes = try storage.changes().map(\.summary)
        let log = try files.read(storage.undoPath)
        failure.failing = true
        #expect(throws: BookClubError.self) { try logProgress(storage, book: "b0000", page: 99) }
        failure.failing = false
        #expect(try storage.changes().map(\.summary) == changes)
        #expect(try files.read(storage.previousUndoPath) == log, "the log set aside, as it was")
        #expect(LibraryStorage.lines(of: try files.read(storage.undoPath)).isEmpty, "the new log holds nothing")
        try logProgress(storage, book: "b0000", page: 100)
        #expect(try storage.changes().map(\.summary) == changes + ["'Book 0': p. 100"])
    }

    /// A book's history can be read by following its chain back from its last line, not by reading
    /// every line of every book (a long history is); a chain that does not hold says so.
    @Test func aBooksHistoryIsFollowedThroughItsChain() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(3, files: files)
        for page in 1...10 {
            try logProgress(storage, book: "b0001", page: page)
            try logProgress(storage, book: "b0002", page: page * 2)
        }
        // Folded, so that the journal no longer carries the lines (it would put them back).
        #expect(try storage.foldJournal(lockTimeout: 1))
        func chained() throws -> [Int?]? {
            let files = try LibraryFiles(reading: storage)
            let tail = try #require(files.historyTail(of: "b0001"))
            return try storage.history(following: [("b0001", tail)], length: files.commit.historyLength)?
                .values.flatMap { $0 }.map(\.page)
        }
        #expect(try chained() == Array(1...10))
        #expect(try storage.history(of: ["b0001"]).values.flatMap { $0 }.map(\.page) == Array(1...10))

        // A link broken (as by a hand edit): the chain does not hold, and the history read whole says
        // the same as before.
        let history = try text(storage, storage.historyPath)
        let broken = history.replacing(#""previous":-1,"reading""#, with: #""previous":77,"reading""#)
        #expect(broken != history)
        try files.writeAtomically(storage.historyPath, Data(broken.utf8))
        #expect(try chained() == nil)
        #expect(try storage.history(of: ["b0001"]).values.flatMap { $0 }.map(\.page) == Array(1...10))

        // A line whose book's id was zeroed (as a power cut or a failing disk leaves one) is refused,
        // not passed over as another book's: the book would lose an entry without a word.
        var zeroed = Data(history.utf8)
        let id = try #require(zeroed.firstRange(of: Data(#""book":"b0001""#.utf8)))
        zeroed.replaceSubrange((id.lowerBound + 9)..<(id.lowerBound + 12), with: [0, 0, 0])
        try files.writeAtomically(storage.historyPath, zeroed)
        #expect(throws: BookClubError.self) { try storage.history(of: ["b0001"]) }
    }

    /// Where each book's history ends is found for many books in one pass over the snapshot, as a
    /// search finds it for one: books of the snapshot and of the journal, a removed book, ids of no
    /// book, and a snapshot not laid out as bookclub writes it.
    @Test func manyBooksHistoryTailsAreFoundAsOneBooksIs() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(40, files: files)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        try store.update { library in
            for index in stride(from: 0, to: 40, by: 2) {
                let id = String(format: "b%04d", index)
                _ = try library.logProgress(.page(10), note: nil, at: Fixture.now, bookID: id, reference: id)
            }
        }
        try store.save()
        for index in [1, 4, 7] { try logProgress(storage, book: String(format: "b%04d", index), page: 20) }
        let removal = try Store(persistence: storage.persistence(lockTimeout: 1))
        removal.update { _ = $0.removeBook(id: "b0006") }
        try removal.save()

        func compare() throws {
            let read = try LibraryFiles(reading: storage)
            let ids = (0..<42).map { String(format: "b%04d", $0) } + ["", "b00", "x\"y", "b\\0001"]
            #expect(ids.compactMap(read.historyTail(of:)).count == 21)
            let tails = LibraryFiles.HistoryTails(read)
            for id in ids + ids { #expect(tails.tail(of: id) == read.historyTail(of: id), "\(id)") }
        }
        try compare()
        let snapshot = try #require(try files.read(storage.path))
        let compact = try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: snapshot))
        try files.writeAtomically(storage.path, compact)
        try compare()
    }

    /// The undo log is set aside whole once it holds `undoDepth` records, never rewritten by a save:
    /// the two logs keep between `undoDepth` and twice as many changes, and `undo` reaches across them.
    @Test func theUndoLogIsSetAsideNotRewritten() throws {
        let storage = try shelf(3)
        let depth = LibraryStorage.undoDepth
        for page in 1...(2 * depth + 5) { try logProgress(storage, book: "b0001", page: page) }
        let current = try text(storage, storage.undoPath).split(separator: "\n").count
        let previous = try text(storage, storage.previousUndoPath).split(separator: "\n").count
        #expect(previous == depth)
        #expect(current == 5)
        #expect(try storage.changes().count == depth + 5)
        for page in stride(from: 2 * depth + 5, to: depth, by: -1) {
            let undone = try #require(try storage.undo(lockTimeout: 1), "undoing p. \(page)")
            #expect(undone.summary.contains("p. \(page)"))
        }
        #expect(try storage.undo(lockTimeout: 1) == nil, "older changes are gone")
    }

    /// A save counts the log's records from its end, stepping over each by the place it says its line
    /// begins: the count is that of the log's lines that are not empty, up to the depth, in any log
    /// bookclub writes (records as written, records of an earlier bookclub, torn lines, a repair's
    /// blank lines, a line of megabytes); with a record copied to where it does not begin, never more.
    @Test func theLogsRecordsAreCountedFromItsEnd() throws {
        var random = SeededGenerator(state: 38)
        let change = UndoRecord(
            time: Fixture.now, command: "progress ノルウェイの森 +1", summary: "'ノルウェイの森': p. 3",
            before: Revert(books: [], absent: [], clubs: nil, historyLength: 7, state: "s1"), after: "s2")
        func record(at place: Int) throws -> Data { Seal.seal(try LibraryStorage.line(for: change, at: place)) }
        for round in 0..<3000 {
            var log = Data()
            var copied = false
            for _ in 0..<Int.random(in: 0...26, using: &random) {
                switch Int.random(in: 0..<8, using: &random) {
                case 0...2:
                    let record = try record(at: log.isEmpty ? 0 : log.count + 1)
                    log += LibraryStorage.Record.bytes(of: record, rotates: log.isEmpty)
                case 3: log += Seal.seal(Data(#"{"after":"s\#(round)","command":"c","summary":"x"}"#.utf8)) + [0x0A]
                case 4:
                    let record = try record(at: log.count + 1)
                    log += [0x0A] + record.prefix(Int.random(in: 0..<record.count, using: &random))
                case 5: log += Data(repeating: 0x0A, count: Int.random(in: 1...300, using: &random))
                case 6 where round % 2 == 1:
                    let place = log.count + 1
                    let wrong = max(0, place + Int.random(in: -40...40, using: &random))
                    log += [0x0A] + (try record(at: wrong)) + [0x0A]
                    copied = copied || wrong != place
                default: log += Data(repeating: UInt8(ascii: "x"), count: Int.random(in: 1...3000, using: &random))
                }
            }
            var lines = 0
            LibraryStorage.forEachLine(of: log) { _ in lines += 1 }
            let limit = Int.random(in: 1...25, using: &random)
            let count = LibraryStorage.recordCount(of: log, upTo: limit)
            #expect(
                copied ? count <= min(lines, limit) : count == min(lines, limit),
                "\(String(decoding: log, as: UTF8.self))")
        }
    }

    func lineCount(_ storage: LibraryStorage, _ path: String) throws -> Int {
        try text(storage, path).split(separator: "\n").count
    }

    /// A stopped writer's record, a committed one after it, then a power cut that takes both: the
    /// repair writes the committed one back and the stopped one's place as blank lines, and the log is
    /// set aside once it holds `undoDepth` records, no sooner.
    @Test func theLogIsSetAsideAtItsDepthAfterTheRepairOfAPowerCut() throws {
        let storage = try shelf(3)
        let depth = LibraryStorage.undoDepth
        for page in 1...3 { try logProgress(storage, book: "b0001", page: page) }
        let before = try #require(try storage.fileSystem.size(storage.undoPath))
        try storage.fileSystem.append(storage.undoPath, Data(#"{"stopped":1}"#.utf8 + [0x0A]), before)
        try logProgress(storage, book: "b0001", page: 4)
        try storage.fileSystem.append(storage.undoPath, Data(), before)
        try logProgress(storage, book: "b0001", page: 5)
        #expect(try lineCount(storage, storage.undoPath) == 5)
        var page = 6
        while try storage.fileSystem.size(storage.previousUndoPath) == nil {
            try logProgress(storage, book: "b0001", page: page)
            page += 1
        }
        #expect(page - 1 == depth + 1, "set aside by the save after the log's 20th record")
        #expect(try lineCount(storage, storage.previousUndoPath) == depth)
    }

    /// A save that sets the log aside and is stopped before its commit leaves a new log of one record,
    /// which may be as long as the one set aside: the next save does not set the new log aside over
    /// the records of the old.
    @Test func aSaveStoppedAsItSetsTheLogAsideLosesNoRecord() throws {
        let storage = try shelf(3)
        let depth = LibraryStorage.undoDepth
        for page in 1...depth { try logProgress(storage, book: "b0001", page: page) }
        #expect(try storage.changes().count == depth)
        // What the save that sets the log aside does before its commit.
        let size = try #require(try storage.fileSystem.size(storage.undoPath))
        try storage.fileSystem.rename(storage.undoPath, storage.previousUndoPath)
        try storage.fileSystem.write(storage.undoPath, Data(repeating: UInt8(ascii: "x"), count: size - 1) + [0x0A], 0)
        try logProgress(storage, book: "b0001", page: depth + 1)
        #expect(try lineCount(storage, storage.previousUndoPath) == depth)
        #expect(try storage.changes().count == depth + 1)
    }

    @Test func theSnapshotIsPrettyPrintedWithSortedKeys() throws {
        let storage = try shelf(3)
        let snapshot = try text(storage, path)
        #expect(snapshot.hasPrefix("{\n  \"books\" : [\n    {\n      \"added\" : "))
        #expect(snapshot.contains("\n      \"id\" : \"b0001\",\n"))
        #expect(snapshot.contains("\n  \"clubs\" : [\n\n  ],\n  \"generation\" : \""))
        #expect(
            snapshot.hasSuffix(
                "\n  \"schemaVersion\" : 4,\n  \"state\" : \"\(try #require(snapshot.split(separator: "\"").dropLast().last))\"\n}\n"
            ))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(snapshot.utf8)) as? [String: Any])
        #expect(
            (document["books"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Book 0", "Book 1", "Book 2"])
        #expect(try text(storage, storage.journalPath).split(separator: "\n").count == 1, "the journal starts empty")
    }

    @Test func aChangeAppendsTheChangedBookAndLeavesTheSnapshotAsItWas() throws {
        let storage = try shelf(50)
        let snapshot = try storage.fileSystem.read(path)
        try logProgress(storage, book: "b0007", page: 10, scope: .book(named: "b0007"))
        try logProgress(storage, book: "b0007", page: 20, scope: .book(named: "book 7"))
        #expect(try storage.fileSystem.read(path) == snapshot)
        let journal = try text(storage, storage.journalPath).split(separator: "\n")
        // Each change: the book, the history's new line and the undo record it carries, the commit.
        #expect(journal.count == 1 + 2 * 4)
        #expect(journal[1].hasPrefix("{\"book\":{") && journal[1].contains("\"id\":\"b0007\""))
        #expect(journal[2].hasPrefix("{\"entry\":{\"book\":\"b0007\",\"entry\":{"))
        #expect(
            journal[3].hasPrefix("{\"at\":0,\"undo\":{")
                && journal[7].hasPrefix("{\"at\":\(journal[3].count - 14),\"undo\":{"),
            "the second record follows the first, the same length but for its page")
        #expect(journal[4].hasPrefix("{\"commit\":{\"historyLength\":"))
        let reopened = try Store(persistence: storage.persistence(lockTimeout: nil))
        #expect(reopened.state.books.count == 50)
        #expect(reopened.state[id: "b0007"]?.currentPage == 20)
        #expect(reopened.state.books.map(\.title) == (0..<50).map { "Book \($0)" }, "the order is kept")
    }

    /// Every book is read as the journal has it, in the store's order, a removed one left out, new
    /// ones after the snapshot's.
    @Test func everyBookIsReadWithTheJournalLaidOver() throws {
        let count = 356
        let storage = try shelf(count)
        let before = try storage.fileSystem.read(path)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        try store.update { library in
            for id in ["b0003", String(format: "b%04d", count - 3)] {
                try library.edit(bookID: id, BookEdit(title: "Renamed \(id)"), reference: id)
            }
            _ = library.removeBook(id: "b0001")
            _ = library.removeBook(id: String(format: "b%04d", count - 1))
            _ = library.addBook(Fixture.book("ノルウェイの森", id: "new1"))
        }
        try store.save()
        #expect(try storage.fileSystem.read(path) == before, "the changes are in the journal")
        let expected =
            (0..<count).compactMap { index -> String? in
                let id = String(format: "b%04d", index)
                if index == 1 || index == count - 1 { return nil }
                return index == 3 || index == count - 3 ? "Renamed \(id)" : "Book \(index)"
            } + ["ノルウェイの森"]
        let library = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(library.books.map(\.title) == expected)
        // An id twice (a hand edit) is said, as when the books are read one by one.
        let snapshot = try text(storage, path)
        try storage.fileSystem.writeAtomically(
            path, Data(snapshot.replacingOccurrences(of: "\"b0200\"", with: "\"b0002\"").utf8))
        #expect(
            throws: BookClubError.corruptFile(path: path, detail: "at `books[200].id`: expected an id of its own")
        ) { _ = try Store(persistence: storage.persistence(lockTimeout: nil)) }
    }

    /// A new snapshot copies the books no change replaced as their text stands: byte for byte the
    /// snapshot that every book decoded and written again makes.
    @Test func aNewSnapshotIsTheOneEveryBookWrittenAgainMakes() throws {
        let storage = try shelf(40)
        for page in 1...5 { try logProgress(storage, book: "b0003", page: page) }
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update {
            $0.books[7].title = "ノルウェイの森 \u{1}📚"
            _ = $0.removeBook(id: "b0010")
            $0.addBook(Fixture.book("New", id: "b9999"))
        }
        try store.save()
        #expect(try storage.foldJournal(lockTimeout: 1))
        let snapshot = try #require(try storage.fileSystem.read(path))
        let document = try JSONCoding.decode(LibraryFiles.Document.self, from: snapshot, path: path)
        #expect(document.books.count == 40)
        #expect(try LibraryFiles.snapshot(document) == snapshot)
        #expect(try text(storage, storage.journalPath).split(separator: "\n").count == 1)
    }

    /// A change that would take the journal past its limit (a batch, an import) writes a new snapshot.
    @Test func aLargeChangeWritesANewSnapshot() throws {
        let storage = try shelf(3)
        let snapshot = try storage.fileSystem.read(path)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update {
            for index in 0..<800 {
                $0.addBook(Fixture.book("Imported \(index) " + String(repeating: "x", count: 200), id: "i\(index)"))
            }
        }
        try store.save()
        #expect(try storage.fileSystem.read(path) != snapshot)
        #expect(try text(storage, storage.journalPath).split(separator: "\n").count == 1, "the journal starts empty")
        #expect(try Store(persistence: storage.persistence(lockTimeout: nil)).state.books.count == 803)
    }

    @Test func aScopedLoadHoldsTheBookItNamesAndTheClubs() throws {
        let storage = try shelf(20)
        let store = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .book(named: "book 12")))
        #expect(store.state.books.map(\.id) == ["b0012"])
        let byID = try Store(
            persistence: storage.persistence(lockTimeout: nil, scope: .books(["b0003", "b0004", "nope"])))
        #expect(byID.state.books.map(\.id) == ["b0003", "b0004"])
        #expect(throws: BookClubError.bookNotFound("nothing like it")) {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .book(named: "nothing like it")))
        }
        // The same errors as a whole library gives.
        let whole = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        let expected = try #require(#expect(throws: BookClubError.self) { try whole.resolve("book") })
        #expect(throws: expected) {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .book(named: "book")))
        }
    }

    @Test func aSaveOfAScopedLibraryKeepsEveryOtherBook() throws {
        let storage = try shelf(10)
        do {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1, scope: .books(["b0002"])))
            store.update { $0.books[0].title = "Renamed" }
            try store.save()
        }
        let library = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(library.books.count == 10)
        #expect(library.books[2].title == "Renamed")
        #expect(library.books[3].title == "Book 3")
    }

    @Test func theJournalIsFoldedIntoANewSnapshotOnceItOutgrowsIt() throws {
        let storage = try shelf(2)
        let first = try text(storage, path)
        var page = 0
        while try text(storage, path) == first, page < 1_000 {
            page += 1
            try logProgress(storage, book: "b0001", page: page)
        }
        #expect(page < 1_000, "the journal is folded in at last")
        #expect(page > 50, "not at every save")
        #expect(try text(storage, storage.journalPath).split(separator: "\n").count == 1)
        let library = try Store(
            persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory { _ in ["b0001"] }))
        #expect(library.state[id: "b0001"]?.currentPage == page)
        #expect(library.state[id: "b0001"]?.currentReading?.progress.entries.count == page)
        #expect(try storage.undo(lockTimeout: 1)?.command == "progress", "undo reaches past the fold")
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil)).state[id: "b0001"]?.currentPage == page - 1)
    }

    /// A change of many books (a batch, an import) would leave the journal nearly full, for the next
    /// few writes to fold: it folds itself, and the writes after it append. A change of one book
    /// appends, however long its line.
    @Test func aChangeOfManyBooksFoldsAtOnceAndTheWritesAfterItAppend() throws {
        let storage = try shelf(400)
        try logProgress(storage, book: "b0001", page: 1)
        let snapshot = try text(storage, path)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { library in
            for index in library.books.indices { library.books[index].title += " (reread)" }
        }
        try store.save()
        let lines = { try self.text(storage, storage.journalPath).split(separator: "\n").count }
        #expect(try text(storage, path) != snapshot, "a new snapshot")
        #expect(try lines() == 1, "an empty journal")
        try logProgress(storage, book: "b0001", page: 2)
        #expect(try lines() > 1, "appended")
        let review = String(repeating: "ノルウェイの森 ", count: 3_000)
        let one = try Store(persistence: storage.persistence(lockTimeout: 1))
        one.update { $0.books[3].review = review }
        try one.save()
        #expect(try text(storage, storage.journalPath).utf8.count > LibraryFiles.mostBookBytes, "appended")
        let library = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(library.books.allSatisfy { $0.title.hasSuffix(" (reread)") })
        #expect(library[id: "b0001"]?.currentPage == 2)
        #expect(library.books[3].review == review)
    }

    @Test func whatFollowsTheLastCommitIsPassedOverAndCutAway() throws {
        let storage = try shelf(3)
        try logProgress(storage, book: "b0001", page: 10)
        let journal = try #require(try storage.fileSystem.read(storage.journalPath))
        // A writer stopped after the book line, before its commit line; and one stopped mid-line.
        let book =
            #"{"book":{"added":"2026-11-18T11:06:40Z","id":"b0001","pages":400,"readings":[],"tags":[],"title":"Gone"}}"#
        try storage.fileSystem.append(
            storage.journalPath, Data((book + "\n" + #"{"commit":{"hist"#).utf8), journal.count)
        let store = try Store(persistence: storage.persistence(lockTimeout: nil))
        #expect(store.state[id: "b0001"]?.title == "Book 1")
        #expect(store.state[id: "b0001"]?.currentPage == 10)
        try logProgress(storage, book: "b0001", page: 20)
        let lines = try text(storage, storage.journalPath).split(separator: "\n")
        #expect(!lines.contains { $0.contains("Gone") }, "the next save cut it away")
        #expect(try Store(persistence: storage.persistence(lockTimeout: nil)).state[id: "b0001"]?.currentPage == 20)
    }

    @Test func anUnreadableLineBeforeACommitIsACorruptJournal() throws {
        let storage = try shelf(1)
        let journal = try #require(try storage.fileSystem.read(storage.journalPath))
        try storage.fileSystem.append(
            storage.journalPath, Data("{\"what\":1}\n{\"commit\":{\"historyLength\":0,\"state\":\"x\"}}\n".utf8),
            journal.count)
        #expect(
            throws: BookClubError.corruptFile(
                path: storage.journalPath, detail: "line 2: expected a book, a removal, clubs or a commit")
        ) {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil))
        }
    }

    @Test func theJournalASnapshotReplacedIsPassedOverAndReplaced() throws {
        let storage = try shelf(2)
        try logProgress(storage, book: "b0001", page: 10)
        let journal = try #require(try storage.fileSystem.read(storage.journalPath))
        // As if a compaction wrote its snapshot and was stopped before it replaced the journal: the
        // snapshot holds every change, the old journal is of another generation.
        let whole = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(try storage.foldJournal(lockTimeout: 1))
        try storage.fileSystem.writeAtomically(storage.journalPath, journal)
        #expect(try Store(persistence: storage.persistence(lockTimeout: nil)).state == whole)
        #expect(try storage.leftovers() == Leftovers(), "a journal the snapshot replaced is no leftover")
        try logProgress(storage, book: "b0000", page: 5)
        #expect(try storage.fileSystem.read(storage.journalPath) != journal)
        let after = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(after[id: "b0000"]?.currentPage == 5)
        #expect(after[id: "b0001"]?.currentPage == 10)
    }

    /// A fold cut short leaves the journal the snapshot replaced; the next save folds again, and may
    /// be cut short as well: each snapshot names the journal that was beside it when it was written.
    @Test func foldsCutShortOneAfterAnotherLeaveAJournalTheLastSnapshotReplaced() throws {
        let storage = try shelf(2)
        try logProgress(storage, book: "b0001", page: 10)
        let journal = try #require(try storage.fileSystem.read(storage.journalPath))
        try logProgress(storage, book: "b0001", page: 20)
        #expect(try storage.foldJournal(lockTimeout: 1))
        for page in [20, 30, 40] {
            // A save after a fold cut short folds as well: no journal of its snapshot's generation.
            if page > 20 { try logProgress(storage, book: "b0001", page: page) }
            #expect(try text(storage, storage.journalPath) != String(decoding: journal, as: UTF8.self))
            try storage.fileSystem.writeAtomically(storage.journalPath, journal)
            let library = try Store(persistence: storage.persistence(lockTimeout: nil)).state
            #expect(library[id: "b0001"]?.currentPage == page)
        }
        try logProgress(storage, book: "b0000", page: 5)
        let after = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(after.books.map(\.currentPage) == [5, 40])
        #expect(try storage.leftovers() == Leftovers())
    }

    @Test func aSnapshotLaidOutOtherwiseIsReadWithItsJournal() throws {
        let storage = try shelf(3)
        try logProgress(storage, book: "b0002", page: 30)
        // As `jq -c . store.json > x && mv x store.json` leaves it.
        let snapshot = try #require(try storage.fileSystem.read(path))
        let object = try JSONSerialization.jsonObject(with: snapshot)
        try storage.fileSystem.writeAtomically(path, try JSONSerialization.data(withJSONObject: object))
        let scoped = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .book(named: "book 2")))
        #expect(scoped.state.books.map(\.currentPage) == [30])
        try logProgress(storage, book: "b0001", page: 7, scope: .book(named: "b0001"))
        #expect(
            try text(storage, path).hasPrefix("{\n  \"books\" : [\n"), "the save wrote the snapshot in its layout again"
        )
        let library = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(library.books.map(\.currentPage) == [nil, 7, 30])
    }

    /// A book added by hand in another layout (on one line, indented with a tab) is still a book: the
    /// snapshot is then read as one document, and every book survives the next fold.
    @Test(arguments: [
        "    {\"added\":\"2024-01-01T00:00:00Z\",\"id\":\"hand1\",\"readings\":[],\"tags\":[],\"title\":\"Hand Added\"}",
        "\t{\n\t\"added\" : \"2024-01-01T00:00:00Z\", \"id\" : \"hand1\", \"readings\" : [], \"tags\" : [], \"title\" : \"Hand Added\"\n\t}",
    ])
    func aBookAddedByHandInAnotherLayoutIsKept(_ handWritten: String) throws {
        let storage = try shelf(2)
        var snapshot = try text(storage, path)
        let end = try #require(snapshot.range(of: "\n  ],\n  \"clubs\""))
        snapshot.insert(contentsOf: ",\n" + handWritten, at: end.lowerBound)
        try storage.fileSystem.writeAtomically(path, Data(snapshot.utf8))
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil)).state.books.map(\.id) == [
                "b0000", "b0001", "hand1",
            ])
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil, scope: .book(named: "hand1"))).state.books.map(
                \.title) == ["Hand Added"])
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil, scope: .books(["hand1"]))).state.books.map(
                \.title) == ["Hand Added"])
        try logProgress(storage, book: "b0001", page: 12, scope: .book(named: "b0001"))
        #expect(
            try text(storage, path).hasPrefix("{\n  \"books\" : [\n"), "the save folded the journal into a new snapshot"
        )
        let library = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        #expect(library.books.map(\.id) == ["b0000", "b0001", "hand1"])
        #expect(library[id: "b0001"]?.currentPage == 12)
    }

    /// An id that is not where bookclub writes ids (one with a quote, kept from an import) is still found.
    @Test func aBookWhoseIdHasAQuoteIsFoundByItsId() throws {
        let storage = LibraryStorage(path: path, fileSystem: .inMemory())
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { $0.addBook(Fixture.book("Odd", id: "odd\"id")) }
        try store.save()
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil, scope: .books(["odd\"id"]))).state.books.map(
                \.title) == ["Odd"])
    }

    @Test func undoPutsBackRemovedBooksAndTakesAwayAddedOnes() throws {
        let storage = try shelf(3)
        func commit(_ command: String, _ change: (inout Library) -> Void) throws {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1, recording: (command, Fixture.now)))
            store.update(change)
            try store.save()
        }
        try commit("remove") { $0.removeBook(id: "b0001") }
        try commit("add") { $0.addBook(Fixture.book("New", id: "n0001")) }
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil)).state.books.map(\.id) == [
                "b0000", "b0002", "n0001",
            ])
        #expect(try storage.undo(lockTimeout: 1)?.command == "add")
        #expect(try storage.undo(lockTimeout: 1)?.command == "remove")
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil)).state.books.map(\.id) == [
                "b0000", "b0001", "b0002",
            ])
    }
}
