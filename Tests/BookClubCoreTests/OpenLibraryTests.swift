import Foundation
import Testing

@testable import BookClubCore

/// ISBNs, Open Library's answers as bookclub reads them, and the cache, without a network.
@Suite struct OpenLibraryTests {
    @Test(arguments: [
        ("978-0-441-01359-3", "9780441013593"), ("0441013597", "0441013597"), ("0 441 01359 7", "0441013597"),
        ("080442957x", "080442957X"), ("9780306406157", "9780306406157"),
    ])
    func validISBNs(_ text: String, _ digits: String) {
        #expect(ISBN(text)?.digits == digits)
    }

    @Test(arguments: [
        "", "12345", "9780441013594", "0441013598", "97804410135930", "X441013597", "978044101359X", "isbn",
        "٩٧٨٠٤٤١٠١٣٥٩٣", "978\u{0}0441013593",
    ])
    func invalidISBNs(_ text: String) {
        #expect(ISBN(text) == nil)
    }

    @Test func anISBN10IsNamedByItsISBN13() {
        #expect(ISBN("0441013597")?.thirteen == "9780441013593")
        #expect(ISBN("080442957X")?.thirteen == "9780804429573")
        #expect(ISBN("9780441013593")?.thirteen == "9780441013593")
    }

    /// Answers as Open Library sends them, by path; the paths asked for, in order.
    final class Answers {
        var answers: [String: String]
        var asked: [String] = []
        init(_ answers: [String: String]) { self.answers = answers }
        func fetch(_ path: String) -> Data? {
            asked.append(path)
            return answers[path].map { Data($0.utf8) }
        }
    }

    static let dune = [
        "/isbn/9780441013593.json":
            #"{"title": "Dune", "authors": [{"key": "/authors/OL79034A"}, {"key": "/authors/OL2A"}], "works": [{"key": "/works/OL893415W"}], "covers": [-1, 11481354], "number_of_pages": 617, "publish_date": "2005", "publishers": ["Ace Books"], "type": {"key": "/type/edition"}}"#,
        "/authors/OL79034A.json": #"{"name": "Frank Herbert", "birth_date": "1920"}"#,
        "/authors/OL2A.json": #"{"name": " Brian Herbert "}"#,
    ]

    @Test func anEditionWithItsAuthors() throws {
        let answers = Answers(Self.dune)
        let book = try OpenLibrary.lookUp(ISBN("9780441013593")!, fetch: answers.fetch)
        #expect(
            book
                == BookData(
                    title: "Dune", authors: ["Frank Herbert", "Brian Herbert"], pages: 617, coverID: 11_481_354,
                    published: "2005", publishers: ["Ace Books"]))
        // The work is not asked for: the edition has its authors and a cover.
        #expect(answers.asked == ["/isbn/9780441013593.json", "/authors/OL79034A.json", "/authors/OL2A.json"])
    }

    @Test func theWorkGivesWhatTheEditionLacks() throws {
        let answers = Answers([
            "/isbn/0441013597.json": #"{"works": [{"key": "/works/OL893415W"}], "number_of_pages": 0}"#,
            "/works/OL893415W.json":
                #"{"title": "Dune", "covers": [42], "authors": [{"author": {"key": "/authors/OL79034A"}, "type": {"key": "/type/author_role"}}]}"#,
            "/authors/OL79034A.json": #"{"name": "Frank Herbert"}"#,
        ])
        let book = try OpenLibrary.lookUp(ISBN("0441013597")!, fetch: answers.fetch)
        #expect(book == BookData(title: "Dune", authors: ["Frank Herbert"], pages: nil, coverID: 42))
    }

    @Test func anUnknownISBNIsNil() throws {
        #expect(try OpenLibrary.lookUp(ISBN("9780000000002")!, fetch: Answers([:]).fetch) == nil)
    }

    @Test(arguments: [
        (#"{"title": ["Dune"]}"#, "is not an edition"),
        (#"{"authors": [{"key": "/authors/OL1A"}]}"#, "has no title"),
        (#"{"title": "Dune", "authors": [{"key": "/authors/../../etc/passwd"}]}"#, "not one of its own"),
        (#"{"title": "Dune", "authors": [{"key": "/authors/OL1A?x=-o"}]}"#, "not one of its own"),
        (#"{"title": "Dune", "works": [{"key": "/works/OL1A"}]}"#, "not one of its own"),
        (String(repeating: "[", count: 100_000), "is not an edition"),
        ("<html>", "is not an edition"),
    ])
    func answersOfAnotherShapeAreRefused(_ answer: String, _ reason: String) {
        let answers = Answers(["/isbn/9780441013593.json": answer])
        #expect {
            try OpenLibrary.lookUp(ISBN("9780441013593")!, fetch: answers.fetch)
        } throws: { error in
            guard let error = error as? BookClubError else { return false }
            return error.isBadAnswer && error.kind == .unavailable && error.localizedDescription.contains(reason)
        }
        // Nothing from a refused answer is asked for.
        #expect(answers.asked == ["/isbn/9780441013593.json"])
    }

    @Test func fillingLeavesWhatTheReaderTyped() {
        let data = BookData(title: "Dune", authors: ["Frank Herbert", "Brian Herbert"], pages: 617)
        var typed = Book(id: "b1", title: "My Dune", pages: 412, added: Date(timeIntervalSince1970: 0))
        #expect(typed.fill(from: data) == ["author", "contributors"])
        #expect(typed.title == "My Dune" && typed.pages == 412 && typed.author == "Frank Herbert")
        #expect(typed.contributors == [Contributor(name: "Brian Herbert")])
        #expect(typed.fill(from: data) == [])
        #expect(typed.fill(from: data, replacing: true) == ["title", "pages"])
        #expect(typed.title == "Dune" && typed.pages == 617)
        var untitled = Book(id: "b2", title: "", added: Date(timeIntervalSince1970: 0))
        #expect(untitled.fill(from: data) == ["title", "author", "contributors", "pages"])
    }

    @Test func fillingKeepsAPageCountBelowALoggedPage() throws {
        var library = Library()
        _ = library.addBook(Book(id: "b1", title: "Dune", added: Date(timeIntervalSince1970: 0)))
        try library.edit(bookID: "b1", BookEdit(pages: .some(800)), reference: "dune")
        _ = try library.logProgress(
            .page(700), note: nil, at: Date(timeIntervalSince1970: 60), bookID: "b1", reference: "dune",
            ids: IDSource { UUID() })
        let changed = try library.fill(
            bookID: "b1", from: BookData(title: "Dune", authors: ["Frank Herbert"], pages: 617), replacing: true,
            reference: "dune")
        #expect(changed == ["author"])
        #expect(library[id: "b1"]?.pages == 800)
    }

    @Test func theCacheKeepsAnswersForThirtyDaysAndNamesCoversItself() throws {
        let cache = OpenLibraryCache(folder: "/cache", fileSystem: .inMemory())
        let isbn = ISBN("0441013597")!
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(cache.answer(for: isbn, now: now) == nil)
        try cache.keep(nil, for: isbn, now: now)
        #expect(cache.answer(for: isbn, now: now.addingTimeInterval(29 * 86_400)) == .some(nil))
        #expect(cache.answer(for: isbn, now: now.addingTimeInterval(31 * 86_400)) == nil)
        let dune = BookData(title: "Dune")
        try cache.keep(dune, for: ISBN("9780441013593")!, now: now)
        #expect(cache.answer(for: isbn, now: now) == .some(dune))

        #expect(throws: BookClubError.self) { try cache.keepCover(Data("<html>".utf8), for: isbn) }
        #expect(cache.cover(for: isbn) == nil)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])
        #expect(try cache.keepCover(png, for: isbn) == "9780441013593.png")
        #expect(cache.cover(for: isbn) == "9780441013593.png")
        #expect(cache.coverPath(ofName: "9780441013593.png") == "/cache/covers/9780441013593.png")
        for name in ["../../etc/passwd", "9780441013593.png/..", "dune.jpg", "/etc/9780441013593.jpg", ""] {
            #expect(cache.coverPath(ofName: name) == nil, "\(name)")
        }
    }
}
