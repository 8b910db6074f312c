#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `progress`: one entry logged on the chosen book. It reads that book, and its history only when
/// the entry is backdated before the latest one (it is then placed among, and counts from, the
/// entries before it).
public struct LogProgress: LibraryOperation {
    /// What logging did, with the book as it is after.
    public struct Logged: Equatable, Sendable {
        public var outcome: Library.ProgressOutcome
        public var book: Book
        /// How messages refer to the book (see `BookChoice.Chosen`).
        public var reference: String
    }

    public var book: BookChoice
    public var value: ProgressValue
    public var note: String?
    /// The entry's time, when given; else the clock's reading as the book is resolved (under the
    /// store's lock), and never before the latest entry, so that a command that waited for the lock
    /// does not slip in behind the entries it waited for.
    public var date: Date?
    public var clock: () -> Date
    public var ids: IDSource

    public init(
        book: BookChoice, value: ProgressValue, note: String?, date: Date?, clock: @escaping () -> Date, ids: IDSource
    ) {
        self.book = book
        self.value = value
        self.note = note
        self.date = date
        self.clock = clock
        self.ids = ids
    }

    public var books: LibraryScope.Books { book.books }

    public func resolve(in snapshot: Library) throws -> OperationPlan<Logged> {
        let chosen = try book.choose(in: snapshot)
        let latest = chosen.book.currentReading?.progress.latest
        let time = date ?? max(clock().wholeSeconds, latest?.time ?? .distantPast)
        let backdated = latest.map { time < $0.time } ?? false
        let (id, reference) = (chosen.book.id, chosen.reference)
        return OperationPlan(history: backdated ? [id] : []) { [value, note, ids] library in
            let outcome = try library.logProgress(
                value, note: note, at: time, bookID: id, reference: reference, ids: ids)
            guard let book = library[id: id] else { throw BookClubError.bookNotFound(reference) }
            return Logged(outcome: outcome, book: book, reference: reference)
        }
    }
}
