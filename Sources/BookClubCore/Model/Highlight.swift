#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A passage the reader marked, with an optional note of their own: what people bring to the meeting.
/// It belongs to a reading of a book, and says where it is in whichever terms its source gives.
public struct Highlight: Identifiable, Codable, Equatable, Sendable {
    /// Where a highlight came from.
    public enum Source: String, Codable, CaseIterable, Sendable {
        case typed, kindle, koreader, libby, kobo
    }

    /// A UUID for one typed by hand; for an imported one, derived from where it came from
    /// (`kindle-…`, `koreader-…`, `kobo-…`), so that importing the same file again adds nothing.
    public var id: String
    /// The passage; empty for a note the reader wrote on no passage (a Kindle note on its own).
    public var text: String
    /// The reader's own note on it.
    public var note: String?
    public var page: Int?
    /// A Kindle location or range, `1300-1301`.
    public var location: String?
    public var chapter: String?
    /// When it was made, when the source says.
    public var time: Date?
    public var source: Source

    public init(
        id: String, text: String, note: String? = nil, page: Int? = nil, location: String? = nil,
        chapter: String? = nil, time: Date? = nil, source: Source
    ) {
        self.id = id
        self.text = text
        self.note = note
        self.page = page
        self.location = location
        self.chapter = chapter
        self.time = time
        self.source = source
    }

    /// Where it is, as a reader cites it: `p. 12`, `loc. 1300-1301`, or the chapter.
    public var place: String? {
        if let page { return "p. \(page)" }
        if let location { return "loc. \(location)" }
        return chapter
    }
}

extension Library {
    /// What `addHighlights` did.
    public struct HighlightOutcome: Equatable, Sendable {
        public var added = 0
        /// Highlights already held, replaced by a longer text or a note (a highlight extended on the device).
        public var replaced = 0
        /// Highlights already held as they are.
        public var unchanged = 0
    }

    /// Adds highlights to a book's latest reading, starting a reading (at the earliest highlight's time)
    /// when the book has none. A highlight of an id the book holds replaces it when it differs.
    @discardableResult
    public mutating func addHighlights(
        _ highlights: [Highlight], bookID: Book.ID, reference: String, ids: IDSource
    ) throws -> HighlightOutcome {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        var outcome = HighlightOutcome()
        var book = books[index]
        var held: [String: (reading: Int, index: Int)] = [:]
        for (r, reading) in book.readings.enumerated() {
            for (h, highlight) in (reading.highlights ?? []).enumerated() { held[highlight.id] = (r, h) }
        }
        for highlight in highlights {
            if let (r, h) = held[highlight.id] {
                if book.readings[r].highlights![h] == highlight {
                    outcome.unchanged += 1
                } else {
                    book.readings[r].highlights![h] = highlight
                    outcome.replaced += 1
                }
                continue
            }
            if book.readings.isEmpty {
                book.readings.append(Reading(id: ids.uuid(), started: highlights.compactMap(\.time).min()))
            }
            let last = book.readings.count - 1
            book.readings[last].highlights = (book.readings[last].highlights ?? []) + [highlight]
            held[highlight.id] = (last, book.readings[last].highlights!.count - 1)
            outcome.added += 1
        }
        books[index] = book
        return outcome
    }
}
