import Foundation
import Testing

@testable import BookClubCore

/// `STORE.listing`, the rows `list` reads without decoding the books: it gives exactly the rows of
/// the library as a load reads it, the journal's books standing over its own, and a listing that is
/// not of the snapshot, or not whole, is passed over.
@Suite struct ListingTests {
    let path = "/data/store.json"

    /// Books of every kind a row tells apart, with titles and authors of every script and of the
    /// characters JSON escapes.
    func books() -> [Book] {
        let titles = [
            "Dune", "ノルウェイの森", "كتاب الرمل", "Book 📚👩‍👩‍👧", "Caf\u{E9}", "Cafe\u{301}", "A \"quoted\" \\ title",
            "Tab\tand\nbreak", "Bell\u{7}\u{1B}[2J", "\u{202E}reversed",
        ]
        var books = titles.enumerated().map { index, title in
            var book = Fixture.book(title, id: String(format: "b%04d", index), pages: index == 3 ? nil : 100 + index)
            book.author = index.isMultiple(of: 3) ? nil : ["Frank Herbert", "村上春樹", "خورخي لويس بورخيس"][index % 3]
            book.tags = index.isMultiple(of: 2) ? ["sf", "Ünïcode", "a \"tag\""] : []
            return book
        }
        let time = Fixture.now.addingTimeInterval(-86_400 * 3.25)  // a fraction of a second in it
        func reading(_ page: Int?, progress: Double, ending: Ending? = nil, format: Book.Format? = nil) -> Reading {
            let entries = page.map { [ReadingProgress.Entry(id: UUID(), progress: progress, page: $0, time: time)] }
            return Reading(
                id: UUID(), started: time.addingTimeInterval(-600), progress: ReadingProgress(entries: entries ?? []),
                ending: ending, format: format)
        }
        books[1].readings = [reading(40, progress: 0.4)]
        books[2].readings = [reading(nil, progress: 0)]
        books[4].readings = [
            reading(10, progress: 0.1, ending: Ending(outcome: .finished, date: time, rating: 4.25)),
            reading(20, progress: 0.2),
        ]
        books[5].readings = [reading(5, progress: 0.05, ending: Ending(outcome: .abandoned, date: nil))]
        books[6].readings = [reading(60, progress: 0.6, ending: Ending(outcome: .finished, date: time, rating: 3))]
        books[7].length = 600
        books[7].pages = nil
        books[7].format = .audiobook
        books[7].readings = [reading(nil, progress: 0)]
        books[7].readings[0].progress = ReadingProgress(entries: [
            .init(id: UUID(), progress: 0.25, page: nil, time: time, listened: 150)
        ])
        books[8].rating = 2.5
        books[9].readings = [reading(30, progress: 0.3, format: .audiobook)]
        return books
    }

    func shelf(files: FileSystem = .inMemory()) throws -> LibraryStorage {
        let storage = LibraryStorage(path: path, fileSystem: files)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { for book in books() { $0.addBook(book) } }
        try store.save()
        return storage
    }

    /// The rows of the library as a load reads it whole.
    func loadedRows(_ storage: LibraryStorage) throws -> [BookRow] {
        try Store(persistence: storage.persistence(lockTimeout: nil)).state.books.map(BookRow.init)
    }

    @Test func theListingGivesTheRowsOfTheLibraryAsLoaded() throws {
        let storage = try shelf()
        let rows = try loadedRows(storage)
        #expect(rows.count == books().count)
        #expect(try storage.readFiles(locked: false).listedRows()?.rows == rows, "the first save wrote the listing")
        #expect(try storage.rows().rows == rows)
        // The rows hold what they are read back as, to the bit: a time's fraction, a rating's quarters.
        #expect(rows[4].rating == 4.25 && rows[4].status == .reading && rows[4].page == 20)
        #expect(rows[6].ended == Fixture.now.addingTimeInterval(-86_400 * 3.25) && rows[6].rating == 3)
        #expect(rows[7].listened == 150 && rows[7].isAudiobook && rows[7].length == 600 && rows[7].pages == nil)
        #expect(rows[9].isAudiobook && rows[5].status == .abandoned && rows[5].ended == nil)
        #expect(
            rows[7].title == "Tab\tand\nbreak" && rows[0].author == nil
                && rows[2].tags == ["sf", "Ünïcode", "a \"tag\""])
    }

    @Test func theJournalsBooksStandOverTheListingsInTheLoadsOrder() throws {
        let storage = try shelf()
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { library in
            library.books[1].title = "Dune Messiah"
            library.books[3].tags = ["changed"]
            library.books.remove(at: 2)
            library.addBook(Fixture.book("新しい本", id: "b0100"))
            library.addBook(Fixture.book("Another", id: "a0000"))
        }
        try store.save()
        let files = try storage.readFiles(locked: false)
        #expect(files.journalBooks.count == 5, "the save was appended to the journal")
        let rows = try #require(files.listedRows()).rows
        #expect(rows == (try loadedRows(storage)))
        #expect(rows.map(\.id).suffix(2) == ["b0100", "a0000"] && !rows.contains { $0.id == "b0002" })
        // Of some statuses: those rows alone, the count of every book, from the listing and from the books.
        for statuses: Set<Book.Status> in [[.reading, .unstarted], [.finished], [.abandoned], []] {
            let expected = rows.filter { statuses.contains($0.status) }
            #expect(try #require(files.listedRows(of: statuses)) == (expected, rows.count), "\(statuses)")
            #expect(try storage.rows(of: statuses) == (expected, rows.count))
        }
        #expect(files.fileSystem.remove(storage.listingPath))
        #expect(try storage.rows(of: [.finished]) == (rows.filter { $0.status == .finished }, rows.count))
    }

    @Test func aListingNotOfTheSnapshotOrNotWholeIsPassedOverAndWrittenAgain() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(files: files)
        let rows = try loadedRows(storage)
        let listing = try #require(try files.read(storage.listingPath))
        let text = String(decoding: listing, as: UTF8.self)
        let other = try shelf(files: .inMemory())
        let header = try #require(try storage.readFiles(locked: false).listingHeader)
        var forged = rows
        forged[1].progress = 1e20
        let body =
            Data(text.split(separator: "\n").dropLast().dropLast().joined(separator: "\n").utf8) + Data("\n".utf8)
        var count = JSONWriter(compact: true)
        count.object { w in w.field("books", rows.count) }
        let damaged: [(String, Data)] = [
            ("a row no book holds, sealed again", Listing.contents(header: header, rows: forged)),
            (
                "a row less, its seal of the count before",
                body + Seal.seal(count.take(), covering: body) + Data("\n".utf8)
            ),
            ("a byte changed", Data(text.replacing("Dune", with: "Dunf").utf8)),
            ("cut short", listing.prefix(listing.count / 2)),
            (
                "its seal gone",
                Data(text.split(separator: "\n").dropLast().joined(separator: "\n").utf8) + Data("\n".utf8)
            ),
            ("of another snapshot", try #require(try other.fileSystem.read(other.listingPath))),
            ("empty", Data()),
        ]
        for (what, data) in damaged {
            try files.replace(storage.listingPath, data)
            #expect(try storage.readFiles(locked: false).listedRows() == nil, "\(what)")
            #expect(try storage.rows().rows == rows, "\(what)")
        }
        #expect(files.remove(storage.listingPath))
        #expect(try storage.rows().rows == rows)
        #expect(try files.read(storage.listingPath) == nil, "reading the rows writes nothing")
        // The next save, appended to the journal, writes it again.
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { $0.books[0].tags = ["again"] }
        try store.save()
        #expect(try files.read(storage.listingPath) == listing, "the listing of the same snapshot")
        #expect(try storage.readFiles(locked: false).listedRows()?.rows == (try loadedRows(storage)))
    }

    /// A new snapshot's listing is the one before it with the journal's rows laid over it: the same,
    /// byte for byte, as the listing of every book decoded again.
    @Test func aFoldCarriesTheListingOverAsIfEveryBookWereDecoded() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(files: files)
        do {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1))
            store.update { library in
                library.books[1].title = "ノルウェイの森 下"
                library.books.remove(at: 4)
                library.addBook(Fixture.book("Book 📚 2", id: "b0200"))
            }
            try store.save()
        }
        let before = try #require(try files.read(storage.listingPath))
        #expect(try storage.foldJournal(lockTimeout: 1))
        let carried = try #require(try files.read(storage.listingPath))
        #expect(carried != before, "written again for the new snapshot")
        #expect(try storage.readFiles(locked: false).listedRows()?.rows == (try loadedRows(storage)))
        #expect(files.remove(storage.listingPath))
        #expect(try storage.refreshListing(lockTimeout: 1))
        #expect(try files.read(storage.listingPath) == carried)
    }

    @Test func doctorFixWritesAMissingListing() throws {
        let files = FileSystem.inMemory()
        let storage = try shelf(files: files)
        let listing = try files.read(storage.listingPath)
        #expect(files.remove(storage.listingPath))
        #expect(try storage.refreshListing(lockTimeout: 1))
        #expect(try files.read(storage.listingPath) == listing)
        #expect(try !storage.refreshListing(lockTimeout: 1), "nothing to write")
    }

    /// Rows of every value a book can give a field, written and read back: the same rows.
    @Test func rowsAreReadBackAsTheyWereWritten() throws {
        var generator = SeededGenerator(state: 38)
        let pieces = [
            "a", "Z", " ", "\"", "\\", "/", "\t", "\n", "\u{1}", "\u{7F}", "\u{85}", "é", "e\u{301}", "森", "📚", "👩‍👩‍👧",
            "ك", "\u{202E}", "\u{FEFF}", "\u{10FFFF}",
        ]
        func text() -> String {
            (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        /// A time in seconds since 2001, years 1 to 9999 and the odd doubles among them.
        func time() -> Double {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: Double.random(in: -6.3e10...2.5e11, using: &generator)
            case 1: Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
            default: [0, -0.0, 0.1, 1e-300, Double.leastNonzeroMagnitude, 2.5e11].randomElement(using: &generator)!
            }
        }
        /// A fraction read, and the odd doubles among them.
        func fraction() -> Double {
            Bool.random(using: &generator)
                ? Double.random(in: 0...1, using: &generator)
                : [0, 1, 1.0 / 3, 0.1, 1e-300, Double.leastNonzeroMagnitude].randomElement(using: &generator)!
        }
        func maybe<T>(_ value: () -> T) -> T? { Bool.random(using: &generator) ? value() : nil }
        let rows = (0..<500).map { index in
            BookRow(
                id: text() + String(index), title: text(), author: maybe(text),
                status: Book.Status.allCases.randomElement(using: &generator)!,
                tags: (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() },
                activity: Date(timeIntervalSinceReferenceDate: time()), progress: fraction(),
                page: maybe { Int.random(in: 0...100_000, using: &generator) },
                pages: maybe { Int.random(in: 1...100_000, using: &generator) },
                listened: maybe { Int.random(in: 0...60_000, using: &generator) },
                length: maybe { Int.random(in: 1...60_000, using: &generator) },
                isLogged: Bool.random(using: &generator),
                ended: maybe { Date(timeIntervalSinceReferenceDate: time()) },
                isAudiobook: Bool.random(using: &generator),
                rating: maybe { Double(Int.random(in: 0...20, using: &generator)) / 4 })
        }
        // What no book holds is refused.
        for (field, change) in [
            ("progress", { (row: inout BookRow) in row.progress = 1.5 }), ("page", { $0.page = -1 }),
            ("pages", { $0.pages = 0 }), ("length", { $0.length = 60_001 }), ("rating", { $0.rating = 5.25 }),
            ("time", { $0.activity = Date(timeIntervalSinceReferenceDate: 1e300) }),
        ] as [(String, (inout BookRow) -> Void)] {
            var row = rows[0]
            change(&row)
            let header = Listing.header(generation: "g", size: 1, modified: nil)
            #expect(Listing.rows(in: Listing.contents(header: header, rows: [row]), header: header) == nil, "\(field)")
        }
        let header = Listing.header(generation: "g", size: 1, modified: nil)
        for row in rows where Listing.rows(in: Listing.contents(header: header, rows: [row]), header: header) == nil {
            Issue.record(
                "not read back: \(String(decoding: Listing.contents(header: header, rows: [row]), as: UTF8.self))")
        }
        let read = try #require(Listing.rows(in: Listing.contents(header: header, rows: rows), header: header))
        #expect(read.count == rows.count)
        for (row, back) in zip(rows, read)
        where row != back
            || row.activity.timeIntervalSinceReferenceDate.bitPattern
                != back.activity.timeIntervalSinceReferenceDate.bitPattern
        {
            Issue.record("\(row) read back as \(back)")
        }
        #expect(Listing.rows(in: Listing.contents(header: header, rows: []), header: header) == [])
    }
}
