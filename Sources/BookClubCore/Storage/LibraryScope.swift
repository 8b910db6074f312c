#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a command reads of the library: which books, and which of them with every progress entry.
///
/// The snapshot holds the latest entry of each reading; the rest is in the history, read only for the
/// books a scope names, so that a command about one book reads one book however many the store holds.
/// A book loaded without its history holds the latest entry of each reading and nothing else, and
/// says so (`ReadingProgress.isWhole`). A command says what it reads by an operation
/// (`LibraryScope(for:resolved:)`); the scopes here serve the storage, sync and tests, and `listing`
/// the commands that read every book but not its imported details.
///
/// ```swift
/// storage.persistence(lockTimeout: nil, scope: .book(named: "dune").withHistory)
/// storage.persistence(lockTimeout: nil, scope: .everything.withHistory { Set($0.clubs.compactMap(\.bookID)) })
/// ```
public struct LibraryScope {
    public enum Books: Equatable, Sendable {
        case everything
        /// The book a reference names, by the rules of `Library.resolve`; a reference that names no book,
        /// or several, fails the load with the error `resolve` gives.
        case book(named: String)
        /// These books, those of them that are in the store.
        case books(Set<Book.ID>)
    }

    public var books: Books
    /// The loaded books that come with every entry, chosen from the books as the snapshot has them;
    /// an error fails the load.
    var history: (Library) throws -> Set<Book.ID>
    /// Whether the books come without their `details` (an import's columns, kept for `export`), so
    /// that a command that shows a line a book need not decode them. Saving such a library is a
    /// programming error: the save stops the process before it writes anything.
    public internal(set) var leavesDetails = false

    public static var everything: LibraryScope { LibraryScope(books: .everything, history: { _ in [] }) }
    public static func book(named reference: String) -> LibraryScope {
        LibraryScope(books: .book(named: reference), history: { _ in [] })
    }
    public static func books(_ ids: Set<Book.ID>) -> LibraryScope {
        LibraryScope(books: .books(ids), history: { _ in [] })
    }

    /// Every book without its `details`, for a command that lists the books and changes nothing
    /// (`list`, `stats`); see `leavesDetails`.
    public static var listing: LibraryScope {
        LibraryScope(books: .everything, history: { _ in [] }, leavesDetails: true)
    }

    /// The same books, each with its full history.
    public var withHistory: LibraryScope {
        LibraryScope(books: books, history: { Set($0.books.map(\.id)) }, leavesDetails: leavesDetails)
    }

    /// The same books, those that `choose` names with their full history; `choose` sees them with
    /// the latest entries only.
    public func withHistory(of choose: @escaping (Library) -> Set<Book.ID>) -> LibraryScope {
        LibraryScope(books: books, history: choose, leavesDetails: leavesDetails)
    }
}
