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
        /// Days of reading from a statistics database.
        public var sessions: [Session] = []
        /// When readings began (Libby's borrows): each starts one unless the book is being read.
        public var started: [Date] = []
        /// What the file says that bookclub has no field for, by source and name (`libby:library`).
        public var details: [String: [String]] = [:]
        /// How it was read, when the file says (Libby's e-books and audiobooks).
        public var format: BookClubCore.Book.Format?

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

    /// A day of reading: an entry at noon of the day, at the fraction reached that day (when the
    /// device knows it), with the minutes read. Its id comes from the book and the day.
    public struct Session: Equatable, Sendable {
        public var id: UUID
        public var time: Date
        public var fraction: Double?
        public var minutes: Int
    }

    /// Something of the file that could not be read, and was skipped.
    public struct Problem: Error, Equatable, Sendable {
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
    /// Books the file names that are not the reader's to import (a Kobo's previews, books not
    /// downloaded), each with why.
    public var skipped: [Problem] = []

    public init(source: Highlight.Source) {
        self.source = source
    }

    /// A book of the library as the device names it: what is matched, or added.
    func book(_ item: Book, id: BookClubCore.Book.ID, added: Date) -> BookClubCore.Book {
        var details = item.details
        if let id = item.externalID { details[Self.externalIDKey(source), default: []].append(id) }
        return BookClubCore.Book(
            id: id, title: item.title, author: item.author, isbn: item.isbn, details: details.isEmpty ? nil : details,
            format: item.format, added: added)
    }
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
        /// Readings begun (Libby's borrows).
        public var started = 0
    }

    public var entries: [Entry] = []
    public var added: Int { entries.filter { $0.match == nil }.count }
}

extension Library {
    /// Merges what an e-reader's file holds, as one change: each book is matched as the other
    /// importers match (ISBN, the device's id, else title and author), or added, not started; its
    /// highlights go to its latest reading (a reading begins for them when it has none). Highlights
    /// keep ids derived from where they came from, so importing the same file again adds nothing.
    ///
    /// - Throws: `BookClubError.historyNotLoaded` when a matched book's history is needed and was not loaded
    ///   (`matches(_:)` names the books whose histories it reads).
    public mutating func merge(_ file: ReaderImport, now: Date, makeID: () -> Book.ID, ids: IDSource) throws
        -> ReaderImportResult
    {
        var matcher = BookMatcher()
        for (index, book) in books.enumerated() { matcher.insert(book, at: index, line: nil, inStore: true) }
        var result = ReaderImportResult()
        for item in file.books {
            let bookID: Book.ID
            let match = matcher.match(file.book(item, id: "", added: now))
            if let (candidate, _) = match {
                bookID = books[candidate.index].id
                // The device's id and what the file says beyond bookclub's fields, every value once.
                var said = item.details
                if let id = item.externalID { said[ReaderImport.externalIDKey(file.source), default: []].append(id) }
                var details = books[candidate.index].details ?? [:]
                for (key, values) in said.sorted(by: { $0.key < $1.key }) {
                    for value in values where !(details[key] ?? []).contains(value) {
                        details[key, default: []].append(value)
                    }
                }
                if details != books[candidate.index].details ?? [:] { books[candidate.index].details = details }
                if books[candidate.index].format == nil, let format = item.format {
                    books[candidate.index].format = format
                }
            } else {
                let added = file.book(item, id: makeID(), added: now)
                books.append(added)
                matcher.insert(added, at: books.count - 1, line: nil, inStore: false)
                bookID = added.id
            }
            let started = startReadings(item.started, bookID: bookID, ids: ids)
            // A book of the file has highlights, or it would not be named; none thrown here.
            let outcome =
                (try? addHighlights(item.highlights, bookID: bookID, reference: item.title, ids: ids))
                ?? HighlightOutcome()
            var entry = ReaderImportResult.Entry(book: item, bookID: bookID, match: match?.1, highlights: outcome)
            entry.started = started
            entry.logged =
                try (logDevice(item.progress, bookID: bookID, ids: ids) ? 1 : 0)
                + logSessions(item.sessions, bookID: bookID, ids: ids)
            if let date = item.finished, self[id: bookID]?.status != .finished {
                entry.finished =
                    (try? end(.finished, date: date, note: nil, bookID: bookID, reference: item.title, ids: ids))
                    ?? false
            }
            result.entries.append(entry)
        }
        return result
    }
}

extension Library {
    /// Starts a reading at each date, unless the book's latest reading had begun by then and has not
    /// ended before it (a loan of a book already being read, or one imported before); returns how many.
    fileprivate mutating func startReadings(_ dates: [Date], bookID: Book.ID, ids: IDSource) -> Int {
        guard let index = index(of: bookID) else { return 0 }
        var started = 0
        for date in dates.sorted() {
            let latest = books[index].readings.last
            guard latest == nil || latest?.ending?.date.map({ $0 < date }) == true else { continue }
            books[index].readings.append(Reading(id: ids.uuid(), started: date))
            started += 1
        }
        return started
    }

    /// Logs how far the device says a book was read, unless the current reading already has an entry
    /// of that fraction (imported before) or the book has ended; `true` when an entry was added.
    fileprivate mutating func logDevice(_ progress: ReaderImport.Progress?, bookID: Book.ID, ids: IDSource) throws
        -> Bool
    {
        guard let progress, let book = self[id: bookID], book.status == .unstarted || book.status == .reading,
            !(try book.currentReading?.progress.wholeEntries(of: book.title) ?? []).contains(where: {
                abs($0.progress - progress.fraction) < 1e-6
            })
        else { return false }
        let outcome = try? logProgress(
            .percent(progress.fraction * 100), note: nil, at: progress.time, bookID: bookID, reference: book.title,
            ids: ids)
        if case .logged = outcome { return true }
        return false
    }
}

extension Library {
    /// The books of the library that the file's books match: those whose history an import of the
    /// file reads (to add no entry twice).
    public func matches(_ file: ReaderImport) -> Set<Book.ID> {
        var matcher = BookMatcher()
        for (index, book) in books.enumerated() { matcher.insert(book, at: index, line: nil, inStore: true) }
        return Set(
            file.books.compactMap { item in
                matcher.match(file.book(item, id: "", added: .distantPast)).map { books[$0.0.index].id }
            })
    }

    /// Adds the days of reading the book does not have yet (by their ids) to its latest reading,
    /// starting one when it has none; returns how many.
    fileprivate mutating func logSessions(_ sessions: [ReaderImport.Session], bookID: Book.ID, ids: IDSource) throws
        -> Int
    {
        guard !sessions.isEmpty, let index = index(of: bookID) else { return 0 }
        var book = books[index]
        let known = Set(try book.readings.flatMap { try $0.progress.wholeEntries(of: book.title).map(\.id) })
        var added = 0
        for session in sessions where !known.contains(session.id) {
            if book.readings.isEmpty { book.readings.append(Reading(id: ids.uuid(), started: session.time)) }
            let last = book.readings.count - 1
            let before = book.readings[last].progress.entries.last { $0.time <= session.time }
            book.readings[last].progress.add(
                ReadingProgress.Entry(
                    id: session.id, progress: session.fraction ?? before?.progress ?? 0, time: session.time,
                    minutes: session.minutes))
            if let started = book.readings[last].started, session.time < started {
                book.readings[last].started = session.time
            }
            added += 1
        }
        books[index] = book
        return added
    }
}

extension ReaderImport {
    /// A UUID derived from text, the same on every machine (for entries a re-import must find again).
    static func uuid(_ parts: String...) -> UUID {
        let hex = Array(digest(parts) + digest(parts + ["second half"]))
        let text = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
        return UUID(uuidString: text)!
    }

    /// The key of `details` that keeps a device's id of a book: `koreader:partial_md5_checksum`,
    /// `kobo:ContentID`.
    static func externalIDKey(_ source: Highlight.Source) -> String {
        switch source {
        case .koreader: "koreader:partial_md5_checksum"
        case .kobo: "kobo:ContentID"
        default: "\(source.rawValue):id"
        }
    }

    /// A short id from text, the same on every machine (64-bit FNV-1a), for ids derived from where a
    /// highlight came from.
    static func digest(_ parts: String...) -> String { digest(parts) }

    static func digest(_ parts: [String]) -> String {
        // A byte 0xFF between parts.
        let hash = parts.reduce(FNV1a.start) { FNV1a.hash([0xFF], from: FNV1a.hash($1.utf8, from: $0)) }
        return String(hash, radix: 16).zeroPadded(to: 16)
    }
}
