#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A book as the snapshot and the journal keep it: each reading with its latest entry only. Its
/// fields repeat `Book`'s on purpose: they are the file format (the CLI's `BookJSON` is another).
struct StoredBook: Codable, Equatable, Sendable {
    struct StoredReading: Codable, Equatable, Sendable {
        var id: UUID
        var started: Date?
        var ending: Ending?
        var resumed: [Ending]?
        var latest: ReadingProgress.Entry?
        var highlights: [Highlight]?
        /// See `ReadingProgress.withdrawn`; `nil` when there are none.
        var withdrawn: [UUID]?
        var format: Book.Format? = nil
    }

    var id: Book.ID
    var title: String
    var author: String?
    var pages: Int?
    var isbn: String?
    var coverName: String?
    var tags: [String]
    var rating: Double?
    var review: String?
    var privateNotes: String?
    var contributors: [Contributor]?
    var details: [String: [String]]?
    var format: Book.Format? = nil
    var length: Int? = nil
    var added: Date
    var readings: [StoredReading]
    /// Where the book's last line in the history begins (see `HistoryRecord.previous`); `nil` when
    /// unknown, and the book's history is then read whole.
    var historyTail: Int? = nil

    var book: Book {
        Book(
            id: id, title: title, author: author, pages: pages, isbn: isbn, coverName: coverName, tags: tags,
            rating: rating, review: review, privateNotes: privateNotes, contributors: contributors, details: details,
            format: format, length: length, added: added,
            readings: readings.map {
                Reading(
                    id: $0.id, started: $0.started,
                    progress: ReadingProgress.partial(
                        entries: $0.latest.map { [$0] } ?? [], withdrawn: Set($0.withdrawn ?? [])),
                    ending: $0.ending, resumed: $0.resumed, highlights: $0.highlights, format: $0.format)
            })
    }
}
