#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What Open Library knows of an edition, from its answers about the edition, its work and authors.
public struct BookData: Codable, Equatable, Sendable {
    public var title: String
    public var authors: [String]
    public var pages: Int?
    /// The id of its cover on Open Library's cover server.
    public var coverID: Int?
    /// As Open Library writes it: `1990`, `June 1990`.
    public var published: String?
    public var publishers: [String]

    public init(
        title: String, authors: [String] = [], pages: Int? = nil, coverID: Int? = nil, published: String? = nil,
        publishers: [String] = []
    ) {
        self.title = title
        self.authors = authors
        self.pages = pages
        self.coverID = coverID
        self.published = published
        self.publishers = publishers
    }
}

/// Open Library's API, as bookclub uses it: the paths it asks for and what it makes of the answers.
/// The requests themselves are the caller's (`fetch`): the core makes none.
public enum OpenLibrary {
    /// Where bookclub asks, unless `BOOKCLUB_OPENLIBRARY_URL` and `BOOKCLUB_COVERS_URL` say otherwise.
    public static let defaultURL = "https://openlibrary.org"
    public static let defaultCoversURL = "https://covers.openlibrary.org"

    /// The User-Agent of bookclub's requests: bookclub, its version, and the reader's `contact` when
    /// they gave one (Open Library asks each client for a way to reach its user).
    public static func userAgent(version: String, contact: String) -> String {
        let contact = contact.trimmed
        return contact.isEmpty ? "bookclub/\(version)" : "bookclub/\(version) (\(contact))"
    }

    /// Looks an ISBN up: its edition (`/isbn/ISBN.json`, which redirects to the edition), the work
    /// when the edition lacks authors or a cover, and each author's name. `fetch` is given a path
    /// and returns the answer, or `nil` when there is none (404). `nil`: Open Library does not know
    /// the ISBN.
    public static func lookUp(_ isbn: ISBN, fetch: (String) throws -> Data?) throws -> BookData? {
        guard let answer = try fetch("/isbn/\(isbn.digits).json") else { return nil }
        let edition = try decode(Edition.self, answer, "an edition")
        var authorKeys = edition.authors?.map(\.key) ?? []
        var title = edition.title
        var coverID = edition.covers?.first { $0 > 0 }
        if authorKeys.isEmpty || title == nil || coverID == nil, let workKey = edition.works?.first?.key {
            try check(workKey, kind: "works", letter: "W")
            if let answer = try fetch(workKey + ".json") {
                let work = try decode(Work.self, answer, "a work")
                if authorKeys.isEmpty { authorKeys = work.authors?.compactMap(\.author?.key) ?? [] }
                title = title ?? work.title
                coverID = coverID ?? work.covers?.first { $0 > 0 }
            }
        }
        guard let title = title?.trimmed, !title.isEmpty else {
            throw BookClubError.badAnswer("Open Library's edition of ISBN \(isbn) has no title")
        }
        var authors: [String] = []
        for key in authorKeys.prefix(10) {
            try check(key, kind: "authors", letter: "A")
            if let answer = try fetch(key + ".json"),
                let name = try decode(Author.self, answer, "an author").name?.trimmed,
                !name.isEmpty, !authors.contains(name)
            {
                authors.append(name)
            }
        }
        return BookData(
            title: title, authors: authors, pages: edition.pages.flatMap { Library.pageCounts.contains($0) ? $0 : nil },
            coverID: coverID, published: edition.published?.trimmed.nonBlank,
            publishers: (edition.publishers ?? []).map(\.trimmed).filter { !$0.isEmpty })
    }

    /// The path of a cover on the cover server, large.
    public static func coverPath(_ id: Int) -> String { "/b/id/\(id)-L.jpg" }

    /// The path of a cover's medium size (180 pixels wide), a thumbnail for pages such as `stats --html`.
    public static func thumbnailPath(_ id: Int) -> String { "/b/id/\(id)-M.jpg" }

    /// `jpg` or `png` by the image's first bytes; `nil` for anything else.
    public static func imageExtension(_ data: Data) -> String? {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        return nil
    }

    /// A key from an answer goes into a path only when it is of Open Library's form,
    /// `/authors/OL123A` or `/works/OL45W`.
    private static func check(_ key: String, kind: String, letter: Character) throws {
        let prefix = "/\(kind)/OL"
        guard key.hasPrefix(prefix), key.last == letter else {
            throw BookClubError.badAnswer("Open Library sent a key that is not one of its own")
        }
        let number = key.dropFirst(prefix.count).dropLast()
        guard (1...12).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw BookClubError.badAnswer("Open Library sent a key that is not one of its own")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ what: String) throws -> T {
        guard let value = JSONCoding.decodeLine(type, from: data) else {
            throw BookClubError.badAnswer("Open Library's answer is not \(what) as it sends them")
        }
        return value
    }

    private struct Key: Decodable {
        var key: String
    }

    private struct Edition: Decodable {
        var title: String?
        var authors: [Key]?
        var works: [Key]?
        var covers: [Int]?
        var pages: Int?
        var published: String?
        var publishers: [String]?

        enum CodingKeys: String, CodingKey {
            case title, authors, works, covers, publishers
            case pages = "number_of_pages"
            case published = "publish_date"
        }
    }

    private struct Work: Decodable {
        struct Role: Decodable {
            var author: Key?
        }
        var title: String?
        var authors: [Role]?
        var covers: [Int]?
    }

    private struct Author: Decodable {
        var name: String?
    }
}

extension Book {
    /// Fills the fields Open Library knows that the book lacks: author (the first; the others become
    /// contributors), page count, and the title when it is blank. With `replacing`, Open Library's
    /// values win over the book's. Returns the names of the fields it changed.
    @discardableResult
    public mutating func fill(from data: BookData, replacing: Bool = false) -> [String] {
        var changed: [String] = []
        func take<Value: Equatable>(_ name: String, _ field: WritableKeyPath<Book, Value?>, _ value: Value?) {
            guard let value, replacing || self[keyPath: field] == nil, self[keyPath: field] != value else { return }
            self[keyPath: field] = value
            changed.append(name)
        }
        if (replacing || title.trimmed.isEmpty) && title != data.title {
            title = data.title
            changed.append("title")
        }
        take("author", \.author, data.authors.first)
        let others = data.authors.dropFirst().map { Contributor(name: $0) }
        take("contributors", \.contributors, others.isEmpty ? nil : Array(others))
        take("pages", \.pages, data.pages)
        return changed
    }
}

extension Library {
    /// Fills a book's fields from what Open Library knows (see `Book.fill`); a page count below a
    /// logged page is left out. Returns the names of the fields it changed.
    public mutating func fill(bookID: Book.ID, from data: BookData, replacing: Bool, reference: String) throws
        -> [String]
    {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        var book = books[index]
        var data = data
        if let pages = data.pages, let page = book.currentReading?.progress.latest?.page, page > pages {
            data.pages = nil
        }
        let changed = book.fill(from: data, replacing: replacing)
        try checkUnique(title: book.title, author: book.author, except: bookID)
        books[index] = book
        return changed
    }
}
