#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an e-reader's file holds, read and checked before the store is opened: the books it names,
/// each with its highlights (and, from KOReader, how far it was read), and what was passed over.
public struct ReaderImport: Equatable, Sendable {
    /// A book as the device names it.
    public struct Book: Equatable, Sendable {
        public var title: String
        public var author: String?
        public var isbn: String?
        /// The device's own id of the book (KOReader's `partial_md5_checksum`), kept in `details`.
        public var externalID: String?
        /// Where in the file (or which file) it was found, for messages.
        public var origin: String
        public var highlights: [Highlight] = []
        /// How far it was read, and when (KOReader's `percent_finished`).
        public var progress: Progress?
        /// When the device says the book was finished.
        public var finished: Date?

        public init(
            title: String, author: String? = nil, isbn: String? = nil, externalID: String? = nil, origin: String
        ) {
            self.title = title
            self.author = author
            self.isbn = isbn
            self.externalID = externalID
            self.origin = origin
        }
    }

    public struct Progress: Equatable, Sendable {
        public var fraction: Double
        public var time: Date
    }

    /// Something of the file that could not be read, and was skipped.
    public struct Problem: Equatable, Sendable {
        /// `line 12`, or a file's path and line.
        public var place: String
        public var reason: String

        public init(place: String, reason: String) {
            self.place = place
            self.reason = reason
        }
    }

    public var source: Highlight.Source
    public var books: [Book] = []
    /// Bookmarks: a place, not a passage; counted and skipped.
    public var bookmarks = 0
    /// Kindle's `<You have reached the clipping limit for this item>`: counted and skipped.
    public var clippingLimits = 0
    /// Notes put with the highlight they were written on.
    public var notesAttached = 0
    public var problems: [Problem] = []

    public init(source: Highlight.Source) {
        self.source = source
    }

    /// How many highlights it brings.
    public var highlightCount: Int { books.reduce(0) { $0 + $1.highlights.count } }
}

/// What importing an e-reader's file did, book by book.
public struct ReaderImportResult: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var book: ReaderImport.Book
        /// The id of the book in the library, new or matched.
        public var bookID: Book.ID
        /// `nil` when the book was added.
        public var match: ImportResult.MatchReason?
        public var highlights: Library.HighlightOutcome
        /// Progress entries added.
        public var logged = 0
        /// Whether the device's status finished the book.
        public var finished = false
    }

    public var entries: [Entry] = []
    public var added: Int { entries.filter { $0.match == nil }.count }
}

extension Library {
    /// Merges what an e-reader's file holds, as one change: each book is matched as the other
    /// importers match (ISBN, the device's id, else title and author), or added, not started; its
    /// highlights go to its latest reading (a reading begins for them when it has none). Highlights
    /// keep ids derived from where they came from, so importing the same file again adds nothing.
    public mutating func merge(_ file: ReaderImport, now: Date, makeID: () -> Book.ID, ids: IDSource)
        -> ReaderImportResult
    {
        var matcher = BookMatcher()
        for (index, book) in books.enumerated() { matcher.insert(book, at: index, line: nil, inStore: true) }
        var result = ReaderImportResult()
        for item in file.books {
            var probe = Book(id: "", title: item.title, author: item.author, isbn: item.isbn, added: now)
            if let id = item.externalID { probe.details = [ReaderImport.externalIDKey(file.source): [id]] }
            let bookID: Book.ID
            let match = matcher.match(probe)
            if let (candidate, _) = match {
                bookID = books[candidate.index].id
                if let id = item.externalID {
                    let key = ReaderImport.externalIDKey(file.source)
                    var details = books[candidate.index].details ?? [:]
                    if !(details[key] ?? []).contains(id) {
                        details[key, default: []].append(id)
                        books[candidate.index].details = details
                    }
                }
            } else {
                probe = Book(
                    id: makeID(), title: item.title, author: item.author, isbn: item.isbn, details: probe.details,
                    added: now)
                books.append(probe)
                matcher.insert(probe, at: books.count - 1, line: nil, inStore: false)
                bookID = probe.id
            }
            // A book of the file has highlights, or it would not be named; none thrown here.
            let outcome =
                (try? addHighlights(item.highlights, bookID: bookID, reference: item.title, ids: ids))
                ?? HighlightOutcome()
            result.entries.append(
                ReaderImportResult.Entry(book: item, bookID: bookID, match: match?.1, highlights: outcome))
        }
        return result
    }
}

extension ReaderImport {
    /// The key of `details` that keeps a device's id of a book: `koreader:partial_md5_checksum`.
    static func externalIDKey(_ source: Highlight.Source) -> String {
        source == .koreader ? "koreader:partial_md5_checksum" : "\(source.rawValue):id"
    }

    /// A short id from text, the same on every machine (64-bit FNV-1a), for ids derived from where a
    /// highlight came from.
    static func digest(_ parts: String...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            hash ^= 0xFF  // between parts
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
