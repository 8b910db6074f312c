#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A change or a report of the library that says what it reads: which books, and which of them with
/// every progress entry. The storage loads what it asks for and nothing else, and the operation
/// applies itself to that; a command builds one from its arguments, has the session open the library
/// for it, and renders its result.
///
/// ```swift
/// let operation = LogProgress(book: choice, value: .page(120), note: nil, date: nil, clock: now, ids: ids)
/// let (store, plan) = try storage.open(for: operation, lockTimeout: 1)  // the book; its history if backdated
/// let logged = try store.update { try plan.apply(&$0) }
/// ```
///
/// Resolving happens once, against the snapshot (each book with the latest entry of each reading,
/// before any history is read): the plan it makes carries what it found (a book's id, an entry's
/// time) into `apply`. A rule that reads a history the plan did not ask for throws
/// `BookClubError.historyNotLoaded` rather than compute from the latest entry.
public protocol LibraryOperation {
    associatedtype Result

    /// The books to read from the store, decided before it is read.
    var books: LibraryScope.Books { get }

    /// Resolves what the operation names against `snapshot`, the library as the store holds it before
    /// any history is loaded, and says which books `apply` reads in full.
    func resolve(in snapshot: Library) throws -> OperationPlan<Result>
}

extension LibraryOperation {
    /// Resolves and applies the operation at once, to a library that holds what it needs (built in
    /// memory, or loaded whole).
    public func apply(to library: inout Library) throws -> Result {
        try resolve(in: library).apply(&library)
    }
}
