#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What merging an import into a library did.
public struct ImportResult: Equatable, Sendable {
    /// Why a book of the file was taken for one already there.
    public enum MatchReason: String, Codable, Sendable {
        /// The same book id (a bookclub JSON document).
        case id
        /// The same ISBN (an ISBN-10 matches its ISBN-13).
        case isbn
        /// The same title and author, ignoring case and surrounding spaces, when either has no ISBN.
        case titleAndAuthor
    }

    /// A book of the file that was not added, and the book it matched.
    public struct Skipped: Equatable, Sendable {
        public var item: ImportFile.Item
        /// The book it matched: one in the store, or one added from an earlier row of the file.
        public var match: Book
        /// Whether `match` was in the store before the import.
        public var matchIsInStore: Bool
        /// The line of the earlier row `match` came from, when it came from the file.
        public var matchLine: Int?
        public var reason: MatchReason
    }

    /// The books added, in the file's order.
    public var added: [ImportFile.Item] = []
    public var skipped: [Skipped] = []
    public var addedClubs: [Club] = []
    /// Clubs of a JSON document whose id or name a club in the store already has.
    public var skippedClubs: [Club] = []
}

extension Library {
    /// Adds the books (and clubs) of an export file that the library does not have yet, as one
    /// change: importing the same file twice adds nothing the second time.
    ///
    /// A book is already there when one in the library, or one from an earlier row of the same file,
    /// has its id (JSON documents), or else its ISBN when both have one, or else its title and author.
    /// Such a book is skipped and reported with what it matched. A club is already there when one has
    /// its id or name; the meetings of an added club that discussed a skipped book discuss the book it
    /// matched.
    public mutating func merge(_ file: ImportFile) -> ImportResult {
        var matcher = BookMatcher()
        for book in books { matcher.insert(book, line: nil, inStore: true) }
        var result = ImportResult()
        var matchedIDs: [Book.ID: Book.ID] = [:]
        for item in file.items {
            if let (candidate, reason) = matcher.match(item.book) {
                result.skipped.append(
                    .init(item: item, match: candidate.book, matchIsInStore: candidate.inStore, matchLine: candidate.line, reason: reason))
                matchedIDs[item.book.id] = candidate.book.id
                continue
            }
            books.append(item.book)
            result.added.append(item)
            if file.matchesWithinFile { matcher.insert(item.book, line: item.line, inStore: false) }
        }
        for var club in file.clubs {
            let name = club.name.trimmed.lowercased()
            if clubs.contains(where: { $0.id == club.id || $0.name.trimmed.lowercased() == name }) {
                result.skippedClubs.append(club)
                continue
            }
            for (skipped, matched) in matchedIDs where skipped != matched { club.replace(bookID: skipped, with: matched) }
            clubs.append(club)
            result.addedClubs.append(club)
        }
        return result
    }
}

/// The books an import is matched against, indexed by id, ISBN and title and author.
struct BookMatcher {
    struct Candidate {
        var book: Book
        var line: Int?
        var inStore: Bool
        var isbnKey: String?
    }

    private var candidates: [Candidate] = []
    private var byID: [Book.ID: Int] = [:]
    private var byISBN: [String: Int] = [:]
    private var byTitle: [String: [Int]] = [:]

    static func titleKey(_ book: Book) -> String {
        book.title.trimmed.lowercased() + "\n" + (book.author?.trimmed.lowercased() ?? "")
    }

    mutating func insert(_ book: Book, line: Int?, inStore: Bool) {
        let index = candidates.count
        let isbnKey = book.isbn.flatMap(ISBN.matchKey)
        candidates.append(Candidate(book: book, line: line, inStore: inStore, isbnKey: isbnKey))
        if byID[book.id] == nil { byID[book.id] = index }
        if let isbnKey, byISBN[isbnKey] == nil { byISBN[isbnKey] = index }
        byTitle[Self.titleKey(book), default: []].append(index)
    }

    /// The first book `book` matches, and why.
    func match(_ book: Book) -> (Candidate, ImportResult.MatchReason)? {
        if let index = byID[book.id] { return (candidates[index], .id) }
        let isbnKey = book.isbn.flatMap(ISBN.matchKey)
        if let isbnKey, let index = byISBN[isbnKey] { return (candidates[index], .isbn) }
        let sameTitle = (byTitle[Self.titleKey(book)] ?? []).map { candidates[$0] }
        if let candidate = sameTitle.first(where: { isbnKey == nil || $0.isbnKey == nil }) {
            return (candidate, .titleAndAuthor)
        }
        return nil
    }
}
