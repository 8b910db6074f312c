#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `show`: the chosen book with every reading's whole history.
public struct ShowBook: LibraryOperation {
    public var book: BookChoice

    public init(book: BookChoice) {
        self.book = book
    }

    public var books: LibraryScope.Books { book.books }

    public func resolve(in snapshot: Library) throws -> OperationPlan<Book> {
        let id = try book.choose(in: snapshot).book.id
        return OperationPlan(history: [id]) { library in
            guard let book = library[id: id] else { throw BookClubError.bookNotFound(id) }
            return try book.withWholeHistory()
        }
    }
}
