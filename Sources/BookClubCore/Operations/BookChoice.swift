#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The book a command is about: the one a reference names, else the scene's selected book, else the
/// selected club's next book. As an operation it reads that book alone (or, for a club's book, every
/// book's line), and resolves to it once.
///
/// ```swift
/// let choice = BookChoice(reference: "dune", scene: scene, now: now, quote: shellWord)
/// let chosen = try choice.apply(to: &library)   // chosen.book, chosen.reference ("dune")
/// ```
public struct BookChoice: LibraryOperation {
    /// The book as resolved, and how messages that name a fix refer to it.
    public struct Chosen: Equatable, Sendable {
        public var book: Book
        /// The reference as typed, else the book's title in lowercase, as `quote` makes it.
        public var reference: String
    }

    public var reference: String?
    public var scene: SceneState
    /// The moment a selected club's next book is chosen at.
    public var now: Date
    /// How a message quotes a reference (the CLI: as a shell word).
    public var quote: (String) -> String

    public init(reference: String?, scene: SceneState, now: Date, quote: @escaping (String) -> String = { $0 }) {
        self.reference = reference
        self.scene = scene
        self.now = now
        self.quote = quote
    }

    public var books: LibraryScope.Books {
        if let reference { return .book(named: reference) }
        if let selection = scene.selection { return .books([selection]) }
        return .everything
    }

    /// The chosen book in `library`.
    public func choose(in library: Library) throws -> Chosen {
        if let reference { return Chosen(book: try library.resolve(reference), reference: quote(reference)) }
        if scene.selection == nil, let clubID = scene.club, let club = library.clubs.first(where: { $0.id == clubID }) {
            guard let id = club.currentBookID(at: now), let book = library[id: id] else {
                throw BookClubError.noUpcomingBook(club: club.name)
            }
            return Chosen(book: book, reference: quote(book.title.lowercased()))
        }
        guard let id = scene.selection else { throw BookClubError.noSelection }
        guard let book = library[id: id] else { throw BookClubError.selectionGone }
        return Chosen(book: book, reference: quote(book.title.lowercased()))
    }

    /// Reads no history: the plan gives the book as loaded.
    public func resolve(in snapshot: Library) throws -> OperationPlan<Chosen> {
        let chosen = try choose(in: snapshot)
        return OperationPlan { library in
            guard let book = library[id: chosen.book.id] else { throw BookClubError.bookNotFound(chosen.reference) }
            return Chosen(book: book, reference: chosen.reference)
        }
    }
}
