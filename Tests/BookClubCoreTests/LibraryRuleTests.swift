import Foundation
import Testing

@testable import BookClubCore

/// The rules that commands once held, tested without a process: the batch of `log --stdin`, the
/// club names of `club add` and `club rename`, and the fields of `edit`.
@Suite struct LibraryRuleTests {
    let now = Fixture.now

    func line(_ number: Int, _ json: String) -> NumberedEvent {
        (number, Result { () throws(ReadingEvent.Problem) in try ReadingEvent(line: json, now: now, timeZone: .utc) })
    }

    var shelf: Library {
        Library(books: [
            Fixture.book("ノルウェイの森", id: "aaaa1111", pages: 300), Fixture.book("Dune", id: "bbbb2222", pages: 600),
        ])
    }

    @Test func aBatchWithABadLineChangesNothingUnlessItIsSkipped() throws {
        let lines = [
            line(1, #"{"book": "ノルウェイ", "page": 120}"#),
            line(2, #"{"book": "dune", "page": 9000}"#),
            line(3, #"{"book": "dune", "percent": 50, "note": "the spice"}"#),
            line(5, #"{"book": "ノルウェイ", "page": 300, "action": "finish"}"#),
        ]
        var library = shelf
        #expect(throws: BookClubError.invalidBatch(line: 2, reason: "Page 9000 is past the end of 'Dune' (600 pages)."))
        {
            try library.apply(lines, now: now, timeZone: .utc, skipInvalid: false)
        }
        #expect(library == shelf)

        let outcome = try library.apply(lines, now: now, timeZone: .utc, skipInvalid: true)
        #expect(outcome.logged == 3)
        #expect(outcome.touched == ["aaaa1111", "bbbb2222"])
        #expect(outcome.finished == ["aaaa1111"])
        #expect(outcome.skipped.map(\.line) == [2])
        #expect(outcome.skipped.map(\.reason) == ["Page 9000 is past the end of 'Dune' (600 pages)."])
        #expect(library[id: "bbbb2222"]?.currentProgress == 0.5)
        #expect(library[id: "aaaa1111"]?.status == .finished)
    }

    @Test func aBatchFindsEachBookAsResolveDoes() {
        // Ids, id prefixes and whole titles come from the finder's tables; any other reference, and
        // one that names several books, from `resolve`, with its error.
        let library = Library(books: [
            Fixture.book("Dune", id: "dune0001"), Fixture.book("Dune Messiah", id: "bbbb2222"),
            Fixture.book("ノルウェイの森", id: "bbbb3333"), Fixture.book("Emma", id: "cccc4444", author: "Austen"),
            Fixture.book("EMMA", id: "cccc5555", author: "Someone"),
            Fixture.book("The Left Hand of Darkness", id: "dddd6666"),
            Fixture.book("bbbb", id: "eeee7777"), Fixture.book("Sci-Fi 📚", id: "ffff8888"),
        ])
        let references = [
            "dune0001", "DUNE0001", "dune", " Dune ", "dune messiah", "dune0", "dune000", "bbbb", "bbbb2", "BBBB2222",
            "ノルウェイの森", "ノルウェイ", "emma", "left hand", "darkness", "", "  ", "nothing", "cccc", "dddd",
            "eeee7777", "scifi", "sci-fi 📚", "📚",
        ]
        var finder = BookFinder(library)
        for reference in references + references.reversed() {
            let expected = Result { try library.books.firstIndex { $0.id == (try library.resolve(reference).id) }! }
            let found = Result { try finder.index(of: reference, in: library) }
            switch (expected, found) {
            case (.success(let expected), .success(let found)): #expect(found == expected, "\(reference)")
            case (.failure(let expected as BookClubError), .failure(let found as BookClubError)):
                #expect(found == expected, "\(reference)")
            default: Issue.record("\(reference): \(found), not \(expected)")
            }
        }
    }

    @Test func aChangeOfAnySizeIsSummedUpInAShortLine() throws {
        let titles = ["ノルウェイの森", "Dune", "🐉 Dragons", "الخيميائي", "Kindred", "Beloved", "Emma", "Ubik"]
        let old = Library(books: titles.enumerated().map { Fixture.book($1, id: "book\($0)", pages: 100_000) })
        var new = old
        // A batch: a thousand pages of each book, one entry a page.
        let lines = (0..<8000).map { number in
            line(number + 1, #"{"book": "book\#(number % 8)", "page": \#(number / 8 + 1)}"#)
        }
        _ = try new.apply(lines, now: now, timeZone: .utc, skipInvalid: false)
        let summary = LibraryDiff(from: old, to: new).summary
        #expect(
            summary
                == "'ノルウェイの森': 1000 entries, to p. 1000; 'Dune': 1000 entries, to p. 1000; '🐉 Dragons': 1000 entries, to p. 1000; 'الخيميائي': 1000 entries, to p. 1000; 'Kindred': 1000 entries, to p. 1000; 3 more changes"
        )
        // A few are still told one by one.
        var few = old
        _ = try few.apply(
            Array(lines.prefix(3)) + [line(9, #"{"book": "book0", "page": 2}"#)], now: now, timeZone: .utc,
            skipInvalid: false)
        #expect(
            LibraryDiff(from: old, to: few).summary
                == "'ノルウェイの森': p. 1, p. 2; 'Dune': p. 1; '🐉 Dragons': p. 1")
    }

    /// An export's order, by when each book was added and then by id, is the same sorted by keys as
    /// by comparing books, books added in the same second and ids in any script among them.
    @Test func anExportIsInTheOrderTheBooksWereAdded() {
        let books = [("b", 60.0), ("ノ", 0), ("a", 60), ("📚", 0), ("c", -1), ("A", 60)].map { id, seconds in
            Book(id: id, title: "Book \(id)", pages: 100, added: now.addingTimeInterval(seconds), readings: [])
        }
        let ordered = Library.inExportOrder(books)
        #expect(ordered.map(\.id) == books.sorted(by: Library.exportOrder).map(\.id))
        #expect(ordered.map(\.id) == ["c", "ノ", "📚", "A", "a", "b"])
    }

    @Test func oneRuleForClubNames() throws {
        var library = Library()
        try library.addClub(Club(id: "c1", name: "  Sci-Fi Club "))
        try library.addClub(Club(id: "c2", name: "كتب الخيال"))
        #expect(library.clubs.map(\.name) == ["Sci-Fi Club", "كتب الخيال"])
        #expect(throws: BookClubError.duplicateClub("sci-fi club")) {
            try library.addClub(Club(id: "c3", name: "sci-fi club "))
        }
        #expect(throws: BookClubError.duplicateClub("SCI-FI CLUB")) { try library.renameClub("c2", to: " SCI-FI CLUB") }
        try library.renameClub("c1", to: " SCI-FI CLUB ")  // its own name, in other letters
        #expect(library.club(named: "sci-fi club")?.id == "c1")
        #expect(library.removeClub("c1")?.name == "SCI-FI CLUB")
        #expect(library.clubs.map(\.id) == ["c2"])
    }

    @Test func anEditIsWholeOrNothing() throws {
        var library = shelf
        _ = try library.logProgress(.page(250), note: nil, at: now, bookID: "aaaa1111", reference: "norwegian")
        let before = library
        #expect(throws: BookClubError.pagesBelowEntry(title: "ノルウェイの森", page: 250, pages: 200)) {
            try library.edit(bookID: "aaaa1111", BookEdit(author: "村上春樹", pages: 200), reference: "norwegian")
        }
        #expect(throws: BookClubError.duplicateTitle("Dune")) {
            try library.edit(bookID: "aaaa1111", BookEdit(title: "Dune", isbn: "9780099448822"), reference: "x")
        }
        #expect(library == before)

        try library.edit(
            bookID: "aaaa1111",
            BookEdit(
                author: "村上春樹", pages: .some(nil), addTags: ["japan", "Novel"], removeTags: ["NOVEL"], rating: 4.5),
            reference: "norwegian")
        let book = try #require(library[id: "aaaa1111"])
        #expect(book.author == "村上春樹")
        #expect(book.pages == nil)
        #expect(book.tags == ["japan"])
        #expect(book.rating == 4.5)
    }
}
