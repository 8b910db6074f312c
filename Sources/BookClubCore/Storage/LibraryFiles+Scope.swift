#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LibraryFiles {
    mutating func library(in scope: LibraryScope) throws -> Library {
        var library = try library(of: scope.books, leavingDetails: scope.leavesDetails)
        let ids = try scope.history(library)
        guard !ids.isEmpty else { return library }
        // In a long history, a few books are read by following each one's chain, when every one has
        // a whole chain; a short one (under 8 MiB, some 50,000 entries) is read whole faster than a
        // line at a time, and so is the history of many books.
        let tails =
            ids.count <= 16 && commit.historyLength >= 1 << 23 ? ids.map { (id: $0, tail: historyTail(of: $0)) } : []
        let chained =
            tails.isEmpty || tails.contains(where: { $0.tail == nil })
            ? nil : try storage.history(following: tails.map { ($0.id, $0.tail!) }, length: commit.historyLength)
        var history = try chained ?? storage.history(of: ids, length: commit.historyLength)
        for index in library.books.indices where ids.contains(library.books[index].id) {
            library.books[index].loadHistory(&history)
        }
        return library
    }

    private mutating func library(of books: LibraryScope.Books, leavingDetails: Bool) throws -> Library {
        switch books {
        case .everything:
            return try everyBook(leavingDetails: leavingDetails).map(library(books:)) ?? library(allLines().map(\.line))
        case .books(let ids):
            return try library(ids.sorted().compactMap { try lineReadingAll(of: $0) })
        case .book(let reference):
            // An id is the first rule, and a book's own: its line is found without reading the others.
            let id = reference.lowercased().trimmed
            let index = nameIndex
            // Written again by this command's save, if it saves.
            if index == nil, nameIndexHeader != nil { nameIndexIsUnusable = true }
            if let line = index.flatMap({ indexedLine(named: id, in: $0) }) {
                return try library([line])
            }
            if let line = line(of: id) {
                // A book its id names that the index did not find: the index is damaged.
                if index != nil { nameIndexIsUnusable = true }
                return try library([line])
            }
            if index?.isSealed == false { nameIndexIsUnusable = true }
            struct Entry {
                var id: Book.ID
                var title: String
                var line: Data
            }
            let entries = try allLines().map { book in
                let title =
                    try book.line.withUnsafeBytes { JSONLine.string("title", in: $0) }
                    ?? JSONCoding.decode(StoredBook.self, from: book.line, path: path).title
                return Entry(id: book.id, title: title, line: book.line)
            }
            let found = try Reference.book(
                reference, in: entries, id: { $0.id }, title: { $0.title },
                candidate: { entry in
                    let book = try? JSONCoding.decode(StoredBook.self, from: entry.line, path: path)
                    return BookClubError.Candidate(
                        id: entry.id, title: entry.title, author: book?.author, added: book?.added)
                })
            return try library([found.line])
        }
    }
}
