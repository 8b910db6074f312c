#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A book on the reader's shelf: what it is, and every reading (read-through) of it.
///
/// A book's status and progress are derived from its latest reading, never stored beside it.
public struct Book: Identifiable, Codable, Equatable, Sendable {
    /// A lowercase hexadecimal identifier that never changes once given; scripts may use any unique prefix.
    public typealias ID = String

    public let id: ID
    public var title: String
    public var author: String?
    /// The page count, when known. Page numbers are turned into fractions with it: changing it
    /// derives the fraction of every entry logged as a page again.
    public var pages: Int? { didSet { deriveFractions() } }
    public var isbn: String?
    /// Paper, e-book or audiobook; `nil` when not said.
    public var format: Format?
    /// An audiobook's length, in minutes. Places logged as times are turned into fractions with it, as
    /// pages are with the page count.
    public var length: Int? { didSet { deriveFractions() } }
    /// The name of a cover image, as in the talk's `Book.coverName`.
    public var coverName: String?
    public var tags: [String]
    /// The reader's rating, 0.5 to 5 (imports keep StoryGraph's quarter stars); `nil` when unrated.
    public var rating: Double?
    /// The reader's review, as written (an import keeps Goodreads' HTML).
    public var review: String?
    /// Notes the reader keeps to themselves.
    public var privateNotes: String?
    /// Translators, narrators, co-authors: those an export names beside the author.
    public var contributors: [Contributor]?
    /// What imports brought that bookclub has no field of its own for, by source and column
    /// (`goodreads:Binding`, `storygraph:Moods`), every distinct value kept: nothing of a row is lost.
    public var details: [String: [String]]?
    public let added: Date
    /// The read-throughs of this book, oldest first. A re-read starts a new one.
    public var readings: [Reading]

    public init(
        id: ID, title: String, author: String? = nil, pages: Int? = nil, isbn: String? = nil,
        coverName: String? = nil, tags: [String] = [], rating: Double? = nil, review: String? = nil,
        privateNotes: String? = nil, contributors: [Contributor]? = nil, details: [String: [String]]? = nil,
        format: Format? = nil, length: Int? = nil, added: Date,
        readings: [Reading] = []
    ) {
        self.id = id
        self.format = format
        self.length = length
        self.title = title
        self.author = author
        self.pages = pages
        self.isbn = isbn
        self.coverName = coverName
        self.tags = tags
        self.rating = rating
        self.review = review
        self.privateNotes = privateNotes
        self.contributors = contributors
        self.details = details
        self.added = added
        self.readings = readings
        deriveFractions()
    }

    /// How a book is read.
    public enum Format: String, Codable, CaseIterable, Sendable {
        case print, ebook, audiobook
    }

    /// The longest audiobook length taken, in minutes (a thousand hours).
    public static let lengths = 1...60_000

    /// An entry with its fraction as `deriveFractions` sets it in a book of these pages and length.
    static func withDerivedFraction(_ entry: ReadingProgress.Entry, pages: Int?, length: Int?)
        -> ReadingProgress.Entry
    {
        var entry = entry
        if let pages, pages > 0, let page = entry.page { entry.progress = ReadingProgress.fraction(page, of: pages) }
        if let length, length > 0, let listened = entry.listened {
            entry.progress = ReadingProgress.fraction(listened, of: length)
        }
        return entry
    }

    /// Derives the fraction of every entry logged as a page from its page and the page count, so
    /// that a fraction is never left stale by a change of the page count.
    public mutating func deriveFractions() {
        if let pages, pages > 0 {
            for index in readings.indices { readings[index].progress.deriveFractions(pages: pages) }
        }
        if let length, length > 0 {
            for index in readings.indices { readings[index].progress.deriveFractions(length: length) }
        }
    }

    /// The rating shown for the book: the latest reading's that has one, else the book's own (from
    /// an import, or given while no reading had ended).
    public var currentRating: Double? { readings.last { $0.ending?.rating != nil }?.ending?.rating ?? rating }

    /// The review shown for the book, chosen as `currentRating` is.
    public var currentReview: String? { readings.last { $0.ending?.review != nil }?.ending?.review ?? review }

    /// The latest reading, if the book was ever started.
    public var currentReading: Reading? { readings.last }

    public var status: Status { currentReading?.status ?? .unstarted }

    /// The fraction read in the latest reading, 0...1; 1 once it is finished.
    public var currentProgress: Double { currentReading?.currentProgress ?? 0 }

    /// The page reached in the latest reading: the page logged, or else derived from the fraction and page count.
    /// How the current reading is read: its own format (a re-read on audio), else the book's.
    public var currentFormat: Format? { currentReading?.format ?? format }

    /// Whether a reading is heard, so that its places are times: an audiobook's, or one of a book
    /// with a length and no pages.
    public func isHeard(_ reading: Reading?) -> Bool {
        length != nil && ((reading?.format ?? format) == .audiobook || pages == nil)
    }

    /// Where the reader is in an audiobook, in minutes: the time last logged, else that fraction of
    /// its length; `nil` for a book with no length, or one read on paper (it has pages and is no
    /// audiobook).
    public var currentListened: Int? {
        guard let length, isHeard(currentReading), let reading = currentReading else { return nil }
        if reading.isFinished { return length }
        guard let latest = reading.progress.latest else { return nil }
        return latest.listened ?? Int((latest.progress * Double(length)).rounded())
    }

    public var currentPage: Int? {
        guard let reading = currentReading else { return nil }
        if reading.isFinished { return pages }
        guard let latest = reading.progress.latest else { return nil }
        if let page = latest.page { return page }
        return pages.map { Int((latest.progress * Double($0)).rounded()) }
    }
}

/// Someone an export names beside the author, with the part they had when it says (`Translator`).
public struct Contributor: Codable, Equatable, Hashable, Sendable {
    public var name: String
    public var role: String?

    public init(name: String, role: String? = nil) {
        self.name = name
        self.role = role
    }
}

extension Book {
    /// Where a book stands, derived from its latest reading.
    public enum Status: String, CaseIterable, Codable, Sendable {
        case unstarted, reading, finished, abandoned
    }
}

extension Book {
    /// Tags as a book keeps them: trimmed, without blanks or repeats (whatever their case), in the
    /// order given.
    public static func tags(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.compactMap(\.nonBlank).filter { seen.insert($0.lowercased()).inserted }
    }
}

extension Book {
    /// Whether every reading holds every entry (see `ReadingProgress.isWhole`).
    public var hasWholeHistory: Bool { readings.allSatisfy(\.progress.isWhole) }

    /// The book, for a rule that reads every entry of every reading.
    ///
    /// - Throws: `BookClubError.historyNotLoaded` when the book was loaded without its history.
    public func withWholeHistory() throws(BookClubError) -> Book {
        guard hasWholeHistory else { throw BookClubError.historyNotLoaded(title: title) }
        return self
    }
}

extension Book.Format: CustomStringConvertible {
    public var description: String { rawValue }
}
