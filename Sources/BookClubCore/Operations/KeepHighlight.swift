#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `highlight`: keeps a passage in the chosen book's latest reading. Shared with a club, it also
/// gives the place the highlight may reveal: where the reader was at the highlight's own time, read
/// from the book's history when that time is before the latest entry.
public struct KeepHighlight: LibraryOperation {
    public var choice: BookChoice
    public var highlight: Highlight
    /// Whether the place is wanted (the highlight is shared).
    public var placed: Bool
    /// The ids of a reading the highlight starts.
    public var ids: IDSource

    public init(choice: BookChoice, highlight: Highlight, placed: Bool, ids: IDSource) {
        (self.choice, self.highlight, self.placed, self.ids) = (choice, highlight, placed, ids)
    }

    /// The book as it is after, and the place the highlight may reveal when it was asked for.
    public struct Kept: Sendable {
        public var book: Book
        public var reference: String
        public var place: ClubPosition?
    }

    public var books: LibraryScope.Books { choice.books }

    public func resolve(in snapshot: Library) throws -> OperationPlan<Kept> {
        let chosen = try choice.choose(in: snapshot)
        let latest = chosen.book.readings.compactMap(\.progress.latest?.time).max()
        let backdated = placed && highlight.time.map { time in latest.map { time < $0 } ?? false } ?? false
        return OperationPlan(history: backdated ? [chosen.book.id] : []) { [highlight, placed, ids] library in
            guard let book = library[id: chosen.book.id] else { throw BookClubError.bookNotFound(chosen.reference) }
            var place: ClubPosition?
            if placed {
                let position =
                    try backdated
                    ? Spoilers.position(of: book, at: highlight.time ?? .distantFuture) : Spoilers.position(of: book)
                place = Spoilers.place(of: highlight, in: book, at: position)
            }
            try library.addHighlights([highlight], bookID: book.id, reference: chosen.reference, ids: ids)
            return Kept(book: library[id: book.id]!, reference: chosen.reference, place: place)
        }
    }
}
