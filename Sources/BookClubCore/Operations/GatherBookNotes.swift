#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `notes BOOK`: the notes of the chosen book's current reading, which it reads whole.
public struct GatherBookNotes: LibraryOperation {
    /// The book, with its whole history, and its notes (`NotesReport.notes(of:)`).
    public struct Notes: Equatable, Sendable {
        public var book: Book
        public var notes: [NotesReport.Note]
    }

    public var book: BookChoice

    public init(book: BookChoice) {
        self.book = book
    }

    public var books: LibraryScope.Books { book.books }

    public func resolve(in snapshot: Library) throws -> OperationPlan<Notes> {
        let id = try book.choose(in: snapshot).book.id
        return OperationPlan(history: [id]) { library in
            guard let book = library[id: id] else { throw BookClubError.bookNotFound(id) }
            return Notes(book: book, notes: try NotesReport.notes(of: book))
        }
    }
}
