#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A book as a list shows it in one line: what the line says of it, and what the list is sorted
/// and filtered by. Derived from the book (`init(_:)`); `LibraryStorage.rows()` reads the rows of a
/// whole library without decoding its books, from `STORE.listing`.
public struct BookRow: Equatable, Sendable {
    public var id: Book.ID
    public var title: String
    public var author: String?
    public var status: Book.Status
    public var tags: [String]
    /// When the book last moved: its current reading's end, latest entry or start, else when it was added.
    public var activity: Date
    /// `Book.currentProgress`.
    public var progress: Double
    /// `Book.currentPage`.
    public var page: Int?
    public var pages: Int?
    /// `Book.currentListened`.
    public var listened: Int?
    public var length: Int?
    /// Whether the current reading has an entry.
    public var isLogged: Bool
    /// When the current reading was finished or abandoned.
    public var ended: Date?
    /// Whether the current reading is on audio (`Book.currentFormat`).
    public var isAudiobook: Bool
    /// `Book.currentRating`.
    public var rating: Double?

    public init(_ book: Book) {
        let reading = book.currentReading
        id = book.id
        title = book.title
        author = book.author
        status = book.status
        tags = book.tags
        activity =
            reading.map { $0.ending?.date ?? $0.progress.latest?.time ?? $0.started ?? book.added } ?? book.added
        progress = book.currentProgress
        page = book.currentPage
        pages = book.pages
        listened = book.currentListened
        length = book.length
        isLogged = reading?.progress.latest != nil
        ended = reading?.ending?.date
        isAudiobook = book.currentFormat == .audiobook
        rating = book.currentRating
    }

    init(
        id: Book.ID, title: String, author: String?, status: Book.Status, tags: [String], activity: Date,
        progress: Double, page: Int?, pages: Int?, listened: Int?, length: Int?, isLogged: Bool, ended: Date?,
        isAudiobook: Bool, rating: Double?
    ) {
        (self.id, self.title, self.author, self.status, self.tags) = (id, title, author, status, tags)
        (self.activity, self.progress, self.page, self.pages) = (activity, progress, page, pages)
        (self.listened, self.length, self.isLogged, self.ended) = (listened, length, isLogged, ended)
        (self.isAudiobook, self.rating) = (isAudiobook, rating)
    }
}

extension Book.Status {
    /// Its place in `allCases`.
    var index: Int { Self.allCases.firstIndex(of: self)! }
}
