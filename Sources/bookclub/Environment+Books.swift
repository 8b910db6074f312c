import BookClubCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Environment {
    /// The book a command names, or the scene's selection when it names none.
    ///
    /// - Returns: the book and how to refer to it in messages that name a fix.
    func resolveBook(_ reference: String?, in library: Library) throws -> (book: Book, reference: String) {
        if let reference {
            return (try library.resolve(reference), Self.shellWord(reference))
        }
        guard let id = try scene().state.selection else { throw BookClubError.noSelection }
        guard let book = library[id: id] else {
            throw BookClubError.aborted(
                "The selected book is no longer in the store. Name a book, or select one with `bookclub select BOOK`.")
        }
        return (book, Self.shellWord(book.title.lowercased()))
    }

    /// A reference as it would be typed in a shell: bare when safe, else single-quoted.
    static func shellWord(_ text: String) -> String {
        let safe = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        return safe ? text : text.shellQuoted
    }
}
