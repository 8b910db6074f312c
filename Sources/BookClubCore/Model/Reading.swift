#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One read-through of a book: its progress log, when it started, and how it ended.
///
/// This is the talk's `CurrentlyReading`, as a value: `currentProgress` is derived exactly as there.
public struct Reading: Identifiable, Codable, Equatable, Sendable {
    public let id: UUID
    /// When the reading started; `nil` when unknown (an imported book, say).
    public var started: Date?
    public var progress: ReadingProgress
    /// How the reading ended; `nil` while it goes on.
    public var ending: Ending?
    /// Endings taken back by `unfinish`, oldest first, each kept with its note, rating and review;
    /// `nil` when there were none.
    public var resumed: [Ending]?
    /// The passages marked during this reading, in the order they came; `nil` when there are none.
    public var highlights: [Highlight]?
    /// How this reading is read when it is not the book's own format (a re-read on audio); `nil`: the
    /// book's.
    public var format: Book.Format?

    public init(
        id: UUID, started: Date?, progress: ReadingProgress = ReadingProgress(), ending: Ending? = nil,
        resumed: [Ending]? = nil, highlights: [Highlight]? = nil, format: Book.Format? = nil
    ) {
        self.id = id
        self.format = format
        self.started = started
        self.progress = progress
        self.ending = ending
        self.resumed = resumed
        self.highlights = highlights
    }

    public var isFinished: Bool { ending?.outcome == .finished }

    /// 1 when finished, else the latest entry's fraction.
    public var currentProgress: Double { isFinished ? 1 : progress.progress }

    public var status: Book.Status {
        switch ending?.outcome {
        case .finished: .finished
        case .abandoned: .abandoned
        case nil: .reading
        }
    }
}

/// How a reading ended: finished or abandoned, on a date that may be unknown, with an optional note,
/// and the rating and review the reader gave that reading.
public struct Ending: Codable, Equatable, Sendable {
    public enum Outcome: String, Codable, Sendable {
        case finished, abandoned
    }

    public var outcome: Outcome
    public var date: Date?
    public var note: String?
    /// 0 to 5 in quarter stars (see `Rating`).
    public var rating: Double?
    public var review: String?

    public init(outcome: Outcome, date: Date?, note: String? = nil, rating: Double? = nil, review: String? = nil) {
        self.outcome = outcome
        self.date = date
        self.note = note
        self.rating = rating
        self.review = review
    }
}

/// Ratings as StoryGraph allows them: 0 to 5 in steps of a quarter.
public enum Rating {
    public static let range = 0.0...5.0

    /// `4.5`, `4`, `3.75`; `nil` for anything else.
    public static func parse(_ text: String) -> Double? {
        guard let value = Double(text.trimmed), value.isFinite, range.contains(value),
            (value * 4).rounded() == value * 4
        else { return nil }
        return value
    }

    /// `★★★★½` for 4.5, and `★★★¾` for 3.75: whole stars, then the quarter left over.
    public static func stars(_ rating: Double) -> String {
        let quarters = Int((min(max(rating, 0), 5) * 4).rounded())
        return String(repeating: "★", count: quarters / 4) + ["", "¼", "½", "¾"][quarters % 4]
    }
}
