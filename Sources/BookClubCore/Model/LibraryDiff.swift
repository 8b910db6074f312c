#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What one change to the library did, worked out once, when the change is saved, from the library
/// before and after it. Everything that tells of a change is derived from it: the journal's
/// transaction and the undo log's record of what to put back, the history's new lines, the summary
/// `history` prints, the hooks' events and the sync log's operations.
///
/// The libraries may hold only the latest entry of a reading (a command's partial load): an entry
/// counts as added only when the book before did not hold it.
public struct LibraryDiff: Sendable {
    /// A book the change added (`before` is `nil`), changed, or removed (`after` is `nil`).
    public struct BookChange: Sendable {
        public var id: Book.ID
        public var before: Book?
        public var after: Book?

        /// The entries of `after` that `before` did not hold, in the order of its readings and their
        /// entries: the history's new lines.
        public var addedEntries: [(reading: UUID, entry: ReadingProgress.Entry)] {
            guard let after else { return [] }
            let known = Set(before?.readings.flatMap { $0.progress.entries.map(\.id) } ?? [])
            return after.readings.flatMap { reading in
                reading.progress.entries.filter { !known.contains($0.id) }.map { (reading.id, $0) }
            }
        }
    }

    /// The books added and changed, in the order of the library after the change, then those removed,
    /// in the order of the library before it.
    public private(set) var books: [BookChange] = []
    /// The clubs before and after the change; `nil` when it left them alone.
    public private(set) var clubs: (before: [Club], after: [Club])?

    public init(from old: Library, to new: Library) {
        let oldBooks = Dictionary(old.books.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.books.map(\.id))
        for book in new.books where oldBooks[book.id] != book {
            books.append(BookChange(id: book.id, before: oldBooks[book.id], after: book))
        }
        for book in old.books where !newIDs.contains(book.id) {
            books.append(BookChange(id: book.id, before: book, after: nil))
        }
        if old.clubs != new.clubs { clubs = (old.clubs, new.clubs) }
    }

    /// Whether the change changed nothing.
    public var isEmpty: Bool { books.isEmpty && clubs == nil }
}

extension LibraryDiff {
    /// Something a change did that a hook may want to hear of.
    public enum Event: Equatable, Sendable {
        case added(Book.ID)
        case progress(Book.ID, ReadingProgress.Entry)
        case finished(Book.ID, Ending)
    }

    /// The books added, the entries logged and the readings finished, in the order of the books and of
    /// their entries.
    public var events: [Event] {
        books.flatMap { change -> [Event] in
            guard let book = change.after else { return [] }
            guard let before = change.before else { return [.added(book.id)] }
            let endings = Dictionary(
                before.readings.map { ($0.id, $0.ending?.outcome) }, uniquingKeysWith: { first, _ in first })
            let logged = Dictionary(grouping: change.addedEntries, by: \.reading)
            return book.readings.flatMap { reading -> [Event] in
                var events = (logged[reading.id] ?? []).map { Event.progress(book.id, $0.entry) }
                if let ending = reading.ending, ending.outcome == .finished, endings[reading.id] != .finished {
                    events.append(.finished(book.id, ending))
                }
                return events
            }
        }
    }
}
