#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything the store holds: the books, with their readings and progress logs.
///
/// Mutate it only through `Store.update`; its mutating methods are the operations commands perform.
public struct Library: Codable, Equatable, Sendable {
    public var books: [Book]
    public var clubs: [Club]

    public init(books: [Book] = [], clubs: [Club] = []) {
        self.books = books
        self.clubs = clubs
    }

    /// The book with this id, if any.
    public subscript(id id: Book.ID) -> Book? {
        books.first { $0.id == id }
    }

    /// The order of an export: by when the books were added, then, for books added in the same second
    /// (an import, two machines), by id. A store's own order is the order its books came to it, which
    /// differs between machines that sync; this is the same on every machine.
    public static func exportOrder(_ a: Book, _ b: Book) -> Bool {
        a.added != b.added ? a.added < b.added : a.id < b.id
    }

    /// `books` in `exportOrder`, sorted by their keys: a comparison of two books copies both, which for
    /// thousands of books was a twentieth of an export.
    public static func inExportOrder(_ books: [Book]) -> [Book] {
        let keys = books.map { (added: $0.added, id: $0.id) }
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { books[$0] }
    }

    /// The index of the book with this id; use it for key paths such as `\.books[index]`.
    public func index(of id: Book.ID) -> Int? {
        books.firstIndex { $0.id == id }
    }
}

// MARK: - Operations

extension Library {
    /// What `logProgress` did.
    public enum ProgressOutcome: Equatable, Sendable {
        case logged(ReadingProgress.Entry)
        /// The value equals the latest entry's and there is no note: nothing was added.
        case unchanged
    }

    /// Adds a book that has not been started.
    @discardableResult
    public mutating func addBook(_ book: Book) -> Book {
        books.append(book)
        return book
    }

    /// Logs progress on a book: starts a reading when none is going on, refuses a finished or abandoned one,
    /// and adds nothing when the value and page equal the latest entry's and there is no note.
    ///
    /// - Parameters:
    ///   - reference: how the user named the book, for messages that name the fix.
    public mutating func logProgress(
        _ value: ProgressValue, note: String?, at time: Date, bookID: Book.ID, reference: String, ids: IDSource
    ) throws -> ProgressOutcome {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        return try logProgress(value, note: note, at: time, bookAt: index, reference: reference, ids: ids)
    }

    /// The same, for the book at `index` in `books`. The book is changed in place, once nothing can
    /// fail any more: a batch that logs many entries to a long history never copies it.
    mutating func logProgress(
        _ value: ProgressValue, note: String?, at time: Date, bookAt index: Int, reference: String, ids: IDSource
    ) throws -> ProgressOutcome {
        let status = books[index].status
        switch status {
        case .finished: throw BookClubError.finished(title: books[index].title, reference: reference)
        case .abandoned: throw BookClubError.abandoned(title: books[index].title, reference: reference)
        case .unstarted, .reading: break
        }
        let newReading = status == .unstarted ? Reading(id: ids.uuid(), started: time) : nil
        // A backdated entry counts from, and is compared with, the entry just before it.
        let previous =
            newReading == nil
            ? try books[index].readings.last?.progress.entry(before: time, of: books[index].title) : nil
        let (fraction, page, listened) = try value.resolve(for: books[index], after: previous, reference: reference)
        if note == nil, let previous, previous.progress == fraction, previous.page == page,
            previous.listened == listened
        {
            return .unchanged
        }
        if let newReading { books[index].readings.append(newReading) }
        let last = books[index].readings.count - 1
        // A backdated entry before the start moves the start back.
        if let started = books[index].readings[last].started, time < started {
            books[index].readings[last].started = time
        }
        let entry = ReadingProgress.Entry(
            id: ids.uuid(), progress: fraction, page: page, time: time, note: note, listened: listened)
        books[index].readings[last].progress.add(entry)
        return .logged(entry)
    }

    /// Ends the current reading as finished or abandoned (starting one if the book was never started).
    /// An end dated before the reading's start is refused.
    ///
    /// Returns `false` when the reading already ended that way, and changes nothing.
    public mutating func end(
        _ outcome: Ending.Outcome, date: Date?, note: String?, rating: Double? = nil, review: String? = nil,
        bookID: Book.ID, reference: String, ids: IDSource
    ) throws -> Bool {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        return try end(
            outcome, date: date, note: note, rating: rating, review: review, bookAt: index, reference: reference,
            ids: ids)
    }

    /// The same, for the book at `index` in `books`.
    mutating func end(
        _ outcome: Ending.Outcome, date: Date?, note: String?, rating: Double? = nil, review: String? = nil,
        bookAt index: Int, reference: String, ids: IDSource
    ) throws -> Bool {
        let book = books[index]
        let bookID = book.id
        switch (book.status, outcome) {
        case (.finished, .finished), (.abandoned, .abandoned):
            guard rating != nil || review != nil else { return false }
            // A rating or review given to an ended reading is given to that ending.
            try rate(
                bookID: bookID, rating: rating.map { .some($0) }, review: review.map { .some($0) }, reference: reference
            )
            return true
        case (.finished, .abandoned):
            throw BookClubError.finished(title: book.title, reference: reference)
        case (.abandoned, .finished):
            throw BookClubError.abandoned(title: book.title, reference: reference)
        case (.unstarted, _):
            books[index].readings.append(Reading(id: ids.uuid(), started: nil))
        case (.reading, _):
            if let date, let started = book.readings.last?.started, date < started {
                throw BookClubError.endsBeforeStart(
                    title: book.title, outcome: outcome.rawValue, date: date, started: started)
            }
        }
        books[index].readings[books[index].readings.count - 1].ending = Ending(
            outcome: outcome, date: date, note: note, rating: rating, review: review)
        return true
    }

    /// Rates or reviews a book: the latest reading when it has ended, else the book itself. A
    /// `.some(nil)` clears; `nil` leaves as it is.
    public mutating func rate(bookID: Book.ID, rating: Double??, review: String??, reference: String) throws {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        let last = books[index].readings.count - 1
        if last >= 0, books[index].readings[last].ending != nil {
            if let rating { books[index].readings[last].ending!.rating = rating }
            if let review { books[index].readings[last].ending!.review = review }
        } else {
            if let rating { books[index].rating = rating }
            if let review { books[index].review = review }
        }
    }

    /// Changes a book's own fields as `edit` asks: a page count below a logged page, an empty title
    /// or the title and author of another book are refused, and nothing is changed.
    public mutating func edit(bookID: Book.ID, _ edit: BookEdit, reference: String) throws {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        var book = books[index]
        if let title = edit.title?.nonBlank { book.title = title }
        if let author = edit.author { book.author = author?.nonBlank }
        if let pages = edit.pages {
            if let pages, let page = book.currentReading?.progress.latest?.page, page > pages {
                throw BookClubError.pagesBelowEntry(title: book.title, page: page, pages: pages)
            }
            book.pages = pages
        }
        if let isbn = edit.isbn { book.isbn = isbn?.nonBlank }
        if let cover = edit.coverName { book.coverName = cover?.nonBlank }
        if let format = edit.format { book.format = format }
        if let length = edit.length {
            if let length, let listened = book.currentReading?.progress.latest?.listened, listened > length {
                throw BookClubError.timeOutOfRange(
                    time: DurationText.clock(listened), title: book.title,
                    length: DurationText.describe(minutes: length))
            }
            if length != nil, book.format == nil { book.format = .audiobook }
            book.length = length
        }
        let removed = Set(edit.removeTags.map { $0.lowercased() })
        book.tags = Book.tags(book.tags + edit.addTags).filter { !removed.contains($0.lowercased()) }
        try checkUnique(title: book.title, author: book.author, except: bookID)
        books[index] = book
        try rate(bookID: bookID, rating: edit.rating, review: edit.review.map { $0?.nonBlank }, reference: reference)
    }

    /// Resumes a finished or abandoned reading: the "I'm Done" toggle turned off. Returns how it had ended.
    ///
    /// The ending is kept, with its date, note, rating and review, among the reading's `resumed` ones.
    public mutating func resume(bookID: Book.ID, at time: Date, reference: String) throws -> Ending.Outcome {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        let last = books[index].readings.count - 1
        guard last >= 0, let ending = books[index].readings[last].ending else {
            throw BookClubError.notFinished(title: books[index].title, reference: reference)
        }
        books[index].readings[last].ending = nil
        books[index].readings[last].resumed = (books[index].readings[last].resumed ?? []) + [ending]
        return ending.outcome
    }

    /// Starts a new reading of a finished or abandoned book, in another format when `format` says
    /// (a re-read on audio; `length`, the audiobook's, when the book has none).
    public mutating func reread(
        at time: Date, bookID: Book.ID, reference: String, ids: IDSource, format: Book.Format? = nil,
        length: Int? = nil
    ) throws {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        switch books[index].status {
        case .finished, .abandoned:
            let own = books[index].format ?? .print
            books[index].readings.append(
                Reading(id: ids.uuid(), started: time, format: format.flatMap { $0 == own ? nil : $0 }))
            if let length { books[index].length = length }
        case .unstarted, .reading:
            throw BookClubError.notEnded(title: books[index].title, reference: reference)
        }
    }

    /// Refuses a title and author that another book already has (the same book twice makes every
    /// reference to either ambiguous).
    public func checkUnique(title: String, author: String?, except id: Book.ID? = nil) throws {
        if books.contains(where: {
            $0.id != id && $0.title.lowercased() == title.lowercased()
                && $0.author?.lowercased() == author?.lowercased()
        }) {
            throw BookClubError.duplicateTitle(title)
        }
    }

    /// Removes a book and its history, and takes it off every club's meetings. Returns the removed book.
    @discardableResult
    public mutating func removeBook(id: Book.ID) -> Book? {
        guard let index = index(of: id) else { return nil }
        for club in clubs.indices { clubs[club].forget(bookID: id) }
        return books.remove(at: index)
    }
}

// MARK: - Validation

extension Library {
    /// The page counts `add` and `edit` take; a data file is held to the same.
    public static let pageCounts = 1...100_000

    /// What no command could have written in an entry: a fraction outside 0...1, a page outside the
    /// page counts. `nil` when it is sound.
    static func problem(with entry: ReadingProgress.Entry) -> String? {
        problem(progress: entry.progress, page: entry.page, minutes: entry.minutes, listened: entry.listened)
    }

    /// The same, for an entry's fields.
    static func problem(progress: Double, page: Int?, minutes: Int?, listened: Int?) -> String? {
        if !progress.isFinite || !(0...1).contains(progress) {
            return "`progress`: expected a fraction from 0 to 1"
        }
        if let page, !(0...pageCounts.upperBound).contains(page) {
            return "`page`: expected a page from 0 to \(pageCounts.upperBound)"
        }
        if let minutes, !(0...1440).contains(minutes) {
            return "`minutes`: expected the minutes of a day, 0 to 1440"
        }
        if let listened, !(0...Book.lengths.upperBound).contains(listened) {
            return "`listened`: expected a place in an audiobook, 0 to \(Book.lengths.upperBound)"
        }
        return nil
    }

    /// The first thing in a decoded library that no command could have written ("at `books[2].pages`:
    /// expected a positive number"), or `nil` when it is sound.
    func problem() -> String? {
        var ids = Set<Book.ID>(minimumCapacity: books.count)
        for (b, book) in books.enumerated() {
            // Said only when something is wrong: most libraries are sound, and have thousands of books.
            func at() -> String { "at `books[\(b)]" }
            if book.id.isEmpty || !ids.insert(book.id).inserted { return "\(at()).id`: expected an id of its own" }
            if book.title.trimmed.isEmpty { return "\(at()).title`: expected a title" }
            if let pages = book.pages, !Self.pageCounts.contains(pages) {
                return "\(at()).pages` ('\(book.title)'): expected a page count from 1 to \(Self.pageCounts.upperBound)"
            }
            if let rating = book.rating, !Rating.range.contains(rating) {
                return "\(at()).rating`: expected a rating from 0 to 5"
            }
            if let length = book.length, !Book.lengths.contains(length) {
                return
                    "\(at()).length` ('\(book.title)'): expected a length in minutes, 1 to \(Book.lengths.upperBound)"
            }
            for (r, reading) in book.readings.enumerated() {
                if let rating = reading.ending?.rating, !Rating.range.contains(rating) {
                    return "\(at()).readings[\(r)].ending.rating`: expected a rating from 0 to 5"
                }
                for entry in reading.progress.entries {
                    if let problem = Self.problem(with: entry) {
                        return "\(at()).readings[\(r)].latest` ('\(book.title)'): \(problem)"
                    }
                }
                var highlightIDs = Set<String>()
                for (h, highlight) in (reading.highlights ?? []).enumerated() {
                    func place() -> String { "\(at()).readings[\(r)].highlights[\(h)]" }
                    if highlight.id.isEmpty || !highlightIDs.insert(highlight.id).inserted {
                        return "\(place()).id`: expected an id of its own"
                    }
                    if highlight.text.trimmed.isEmpty, highlight.note?.trimmed.isEmpty ?? true {
                        return "\(place()).text`: expected the passage, or a note"
                    }
                    if let page = highlight.page, !(0...Self.pageCounts.upperBound).contains(page) {
                        return "\(place()).page`: expected a page from 0 to \(Self.pageCounts.upperBound)"
                    }
                }
            }
        }
        var clubIDs = Set<Club.ID>()
        for (c, club) in clubs.enumerated() where club.id.isEmpty || !clubIDs.insert(club.id).inserted {
            return "at `clubs[\(c)].id`: expected an id of its own"
        }
        return nil
    }
}
