import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `--json` shape of a book: stable camelCase names, progress as a fraction 0...1.
///
/// Its fields repeat `Book`'s, as `StoredBook` (the store's line of a book) does: each list is a
/// format in its own right, which scripts (here) or stores on disk (there) depend on, so neither is
/// derived from the other.
struct BookJSON: Encodable {
    struct ReadingJSON: Encodable {
        var id: UUID
        /// When this reading is in another format than the book's (a re-read on audio).
        var format: Book.Format?
        var started: Date?
        var status: Book.Status
        var progress: Double
        var ended: Date?
        var endNote: String?
        var rating: Double?
        var review: String?
        /// Endings taken back by `unfinish`, with their notes.
        var resumed: [Ending]?
        var entries: [ReadingProgress.Entry]?
        /// As the store keeps them: `id`, `text`, `note`, `page`, `location`, `chapter`, `time`, `source`.
        var highlights: [Highlight]?
    }

    var id: String
    var title: String
    var author: String?
    var pages: Int?
    var isbn: String?
    /// print, ebook or audiobook; absent when not said.
    var format: Book.Format?
    /// An audiobook's length, in minutes.
    var length: Int?
    var coverName: String?
    var tags: [String]
    var rating: Double?
    var review: String?
    var privateNotes: String?
    var contributors: [Contributor]?
    var details: [String: [String]]?
    var added: Date
    var status: Book.Status
    var progress: Double
    var page: Int?
    var finished: Bool
    var updated: Date?
    var readings: [ReadingJSON]?

    /// - Parameters:
    ///   - withHistory: include every reading and its entries (as `show` does), not only the summary.
    init(_ book: Book, withHistory: Bool = false) {
        id = book.id
        title = book.title
        author = book.author
        pages = book.pages
        isbn = book.isbn
        coverName = book.coverName
        (format, length) = (book.format, book.length)
        tags = book.tags
        rating = book.currentRating
        review = book.currentReview
        privateNotes = book.privateNotes
        contributors = book.contributors
        details = book.details
        added = book.added
        status = book.status
        progress = book.currentProgress
        page = book.currentPage
        finished = book.status == .finished
        updated = book.currentReading?.progress.latest?.time
        if withHistory {
            readings = book.readings.map {
                ReadingJSON(
                    id: $0.id, format: $0.format, started: $0.started, status: $0.status, progress: $0.currentProgress,
                    ended: $0.ending?.date, endNote: $0.ending?.note, rating: $0.ending?.rating,
                    review: $0.ending?.review,
                    resumed: $0.resumed, entries: $0.progress.entries, highlights: $0.highlights ?? [])
            }
        }
    }
}

enum JSONOutput {
    /// One JSON document: pretty-printed, sorted keys, ISO 8601 dates.
    static func render(_ value: some Encodable) throws -> String {
        escapingTerminalControls(String(decoding: try JSONCoding.encoder().encode(value), as: UTF8.self))
    }

    /// The document with the characters JSON leaves raw but a terminal acts on (C1 controls such as
    /// U+009B, bidirectional marks) written as `\u` escapes: the same JSON, read by any parser as
    /// the same strings, and inert when printed. They occur only inside strings.
    static func escapingTerminalControls(_ json: String) -> String {
        // The document's own line breaks stay.
        func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { scalar != "\n" && scalar.isTerminalUnsafe }
        guard json.unicodeScalars.contains(where: isUnsafe) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + hex.zeroPadded(to: 4)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Session {
    /// Writes a value as the command's one JSON document.
    func writeJSON(_ value: some Encodable) throws {
        printedJSON = true
        output.write(formatted: try JSONOutput.render(value) + "\n")
    }
}
