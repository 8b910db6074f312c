#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The library as the store has it, each reading with its latest entry, and a way through its books
/// with every entry, a few books at a time: `stats` and `export` over a history of a million entries
/// hold tens of megabytes rather than the whole history.
///
/// ```swift
/// let walk = try storage.historyWalk()
/// try walk.forEachBook { book in print(book.title, book.readings.map(\.progress.entries.count)) }
/// ```
public struct HistoryWalk {
    /// Every book, each reading with its latest entry only, and the clubs.
    public let library: Library
    let storage: LibraryStorage
    /// The committed length of the history, as the library was read.
    let length: Int

    /// Hands `body` each book of `library` with every entry the history holds for it, in the library's
    /// order. A history of up to 16 MiB (`readWholeUpTo`) is read in one go; a longer one is read once
    /// to count each book's lines, then once for each run of books that holds at most `entriesAtOnce`
    /// entries (or one book that holds more).
    public func forEachBook(
        entriesAtOnce: Int = 300_000, readWholeUpTo: Int = 1 << 24, _ body: (Book) throws -> Void
    ) throws {
        guard length > readWholeUpTo else {
            var history = try storage.history(of: nil, length: length)
            for var book in library.books {
                book.loadHistory(&history)
                try body(book)
            }
            return
        }
        let books = library.books
        let positions = BookPositions(books)
        // The book of each line, by its position in the library (-1: a book no longer there).
        var lineBooks: [Int32] = []
        var counts = Array(repeating: 0, count: books.count)
        try storage.checkHistory(committedLength: length)
        try storage.forEachHistoryLine(length: length) { line in
            // A line in another form, or of a book no longer there, is read whole.
            let position =
                try HistoryLine.bookID(line).flatMap(positions.position) ?? positions.position(
                    of: storage.record(line).book) ?? -1
            lineBooks.append(Int32(position))
            if position >= 0 { counts[position] += 1 }
        }
        var first = 0
        while first < books.count {
            var end = first + 1
            var entries = counts[first]
            while end < books.count, entries + counts[end] <= entriesAtOnce {
                entries += counts[end]
                end += 1
            }
            // The entries of each book of the run, reading by reading: no hashing of ids.
            var found = books[first..<end].map { book in book.readings.map { _ in [ReadingProgress.Entry]() } }
            for position in first..<end where books[position].readings.count == 1 {
                found[position - first][0].reserveCapacity(counts[position])  // room for every line at once
            }
            var number = 0
            try storage.forEachHistoryLine(length: length) { line in
                defer { number += 1 }
                guard number < lineBooks.count, first..<end ~= Int(lineBooks[number]) else { return }
                let position = Int(lineBooks[number])
                let book = books[position]
                // An undo and a write since the first reading may have put other lines in the place of
                // uncommitted ones.
                guard let record = try storage.record(line, ofBook: book.id) else {
                    throw BookClubError.corruptFile(
                        path: storage.historyPath, detail: "changed while it was read; run the command again")
                }
                let entry = try storage.checked(record)
                // A new start of the book (see `HistoryRecord`): the lines before are not its history.
                if record.previous == -1 {
                    for index in found[position - first].indices { found[position - first][index] = [] }
                }
                if let reading = book.readings.firstIndex(where: { $0.id == record.reading }) {
                    found[position - first][reading].append(entry)
                }
            }
            for (offset, var book) in books[first..<end].enumerated() {
                book.loadHistory { index, _ in
                    defer { found[offset][index] = [] }  // let go, so that the entries are not copied
                    return found[offset][index]
                }
                try body(book)
            }
            first = end
        }
    }
}

/// Each book's position in the library, looked up by the bytes of its id: the first pass over a
/// history finds the books of a million lines without making a string of each id.
private struct BookPositions {
    private let ids: [[UInt8]]
    /// Open addressing: a position plus one in the slot its id's hash leads to, or the next free one.
    private var slots: [Int32]

    init(_ books: [Book]) {
        ids = books.map { Array($0.id.utf8) }
        var size = 16
        while size < books.count * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        for position in ids.indices {
            let id = ids[position]
            var slot = id.withUnsafeBytes(Self.hash) & (size - 1)
            while slots[slot] != 0 {
                // A second book of the same id: the first is the one found, as the store finds it.
                if ids[Int(slots[slot]) - 1] == id { break }
                slot = (slot + 1) & (size - 1)
            }
            if slots[slot] == 0 { slots[slot] = Int32(position + 1) }
        }
    }

    func position(of id: UnsafeRawBufferPointer) -> Int? {
        var slot = Self.hash(id) & (slots.count - 1)
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            let found = ids[position].withUnsafeBytes { known in
                known.count == id.count
                    && (id.isEmpty || sameBytes(known.baseAddress!, id.baseAddress!, count: id.count))
            }
            if found { return position }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    func position(of id: Book.ID) -> Int? {
        var id = id
        return id.withUTF8 { position(of: UnsafeRawBufferPointer($0)) }
    }

    /// FNV-1a.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash)
    }
}

extension LibraryStorage {
    /// Reads the library, each reading with its latest entry, to go through its books with every entry.
    ///
    /// - Parameter ordered: the books in the order of `Library.exportOrder`, rather than the store's.
    public func historyWalk(ordered: Bool = false) throws -> HistoryWalk {
        let files = try LibraryFiles(reading: self)
        var library = try files.library(in: .everything)
        if ordered { library.books.sort(by: Library.exportOrder) }
        return HistoryWalk(library: library, storage: self, length: files.commit.historyLength)
    }
}
