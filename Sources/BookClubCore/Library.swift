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

    public init(books: [Book] = []) {
        self.books = books
    }

    /// The book with this id, if any.
    public subscript(id id: Book.ID) -> Book? {
        books.first { $0.id == id }
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
        _ value: ProgressValue, note: String?, at time: Date, bookID: Book.ID, reference: String
    ) throws -> ProgressOutcome {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        var book = books[index]
        switch book.status {
        case .finished: throw BookClubError.finished(title: book.title, reference: reference)
        case .abandoned: throw BookClubError.abandoned(title: book.title, reference: reference)
        case .unstarted, .reading: break
        }
        let (fraction, page) = try value.resolve(for: book, reference: reference)
        if book.status == .unstarted {
            book.readings.append(Reading(started: time))
        }
        let last = book.readings.count - 1
        if note == nil, let latest = book.readings[last].progress.latest,
            latest.progress == fraction, latest.page == page
        {
            return .unchanged
        }
        let entry = ReadingProgress.Entry(progress: fraction, page: page, time: time, note: note)
        book.readings[last].progress.add(entry)
        books[index] = book
        return .logged(entry)
    }

    /// Ends the current reading as finished or abandoned (starting one if the book was never started).
    ///
    /// Returns `false` when the reading already ended that way, and changes nothing.
    public mutating func end(
        _ outcome: Ending.Outcome, date: Date?, note: String?, bookID: Book.ID, reference: String
    ) throws -> Bool {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        let book = books[index]
        switch (book.status, outcome) {
        case (.finished, .finished), (.abandoned, .abandoned):
            return false
        case (.finished, .abandoned):
            throw BookClubError.finished(title: book.title, reference: reference)
        case (.abandoned, .finished):
            throw BookClubError.abandoned(title: book.title, reference: reference)
        case (.unstarted, _):
            books[index].readings.append(Reading(started: nil))
        case (.reading, _):
            break
        }
        books[index].readings[books[index].readings.count - 1].ending = Ending(outcome: outcome, date: date, note: note)
        return true
    }

    /// Resumes a finished or abandoned reading: the "I'm Done" toggle turned off. Returns how it had ended.
    public mutating func resume(bookID: Book.ID, reference: String) throws -> Ending.Outcome {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        let last = books[index].readings.count - 1
        guard last >= 0, let ending = books[index].readings[last].ending else {
            throw BookClubError.notFinished(title: books[index].title, reference: reference)
        }
        books[index].readings[last].ending = nil
        return ending.outcome
    }

    /// Starts a new reading of a finished or abandoned book.
    public mutating func reread(at time: Date, bookID: Book.ID, reference: String) throws {
        guard let index = index(of: bookID) else { throw BookClubError.bookNotFound(reference) }
        switch books[index].status {
        case .finished, .abandoned:
            books[index].readings.append(Reading(started: time))
        case .unstarted, .reading:
            throw BookClubError.notEnded(title: books[index].title, reference: reference)
        }
    }

    /// Removes a book and its history. Returns the removed book.
    @discardableResult
    public mutating func removeBook(id: Book.ID) -> Book? {
        guard let index = index(of: id) else { return nil }
        return books.remove(at: index)
    }
}
