#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The book lines of the committed state: found by id in the snapshot's run of bytes or the
/// journal's lines, split, and decoded into a library.
extension LibraryFiles {
    /// The id of a book line.
    static func id(of line: Data) -> Book.ID? {
        line.withUnsafeBytes { JSONLine.string("id", in: $0) }
    }

    /// A book's line, as the journal keeps it.
    static func line(for book: StoredBook) -> Data {
        var writer = JSONWriter(compact: true)
        writer.storedBook(book)
        return writer.take()
    }

    /// The clubs' line, as the journal keeps it.
    static func line(for clubs: [Club]) throws -> Data {
        try JSONCoding.encoder(pretty: false).encode(clubs)
    }

    /// The snapshot's books, each as its JSON, and whether they are their text as the snapshot lays
    /// them out: split from its run of books, or (a run that does not split, edited by hand) decoded
    /// from the whole snapshot, which says where a hand edit broke the JSON.
    func snapshotLines() throws -> (books: [Data], asLaidOut: Bool) {
        guard let snapshotRun else { return (snapshotBooks, false) }
        if let books = splitBooks ?? Self.split(snapshotRun) { return (books, true) }
        return (try Self.document(snapshotBytes, path: path).books.map { Self.line(for: $0) }, false)
    }

    /// Every book's line, in the store's order; `snapshot`, the snapshot's books when already split.
    func allLines(snapshot: [Data]? = nil) throws -> [(id: Book.ID, line: Data)] {
        let snapshot = try snapshot ?? snapshotLines().books
        var result: [(id: Book.ID, line: Data)] = []
        result.reserveCapacity(snapshot.count + journalOrder.count)
        var seen = Set<Book.ID>(minimumCapacity: snapshot.count + journalOrder.count)
        func add(_ line: Data, number: Int) throws {
            guard let id = Self.id(of: line) ?? JSONCoding.decodeLine(StoredBook.self, from: line)?.id else {
                // A hand edit that broke the JSON is said with where it broke, in the whole file.
                if let whole = try? fileSystem.read(path), let syntax = JSONSyntax.error(in: whole) {
                    throw BookClubError.corruptFile(path: path, detail: "not valid JSON at \(syntax)")
                }
                throw BookClubError.corruptFile(path: path, detail: "at `books[\(number)]`: expected a book with an id")
            }
            guard seen.insert(id).inserted else {
                throw BookClubError.corruptFile(
                    path: path, detail: "at `books[\(number)].id`: expected an id of its own")
            }
            switch journalBooks[id] {
            case .none: result.append((id, line))
            case .some(.some(let newer)): result.append((id, newer))
            case .some(.none): break
            }
        }
        for (number, book) in snapshot.enumerated() { try add(book, number: number) }
        for id in journalOrder where !seen.contains(id) {
            if case .some(.some(let line)) = journalBooks[id] { result.append((id, line)) }
        }
        return result
    }

    /// Where a book's last line in the history begins, as its line in the store says; `nil` when it
    /// does not say (a store of an earlier bookclub) or the book is not there.
    func historyTail(of id: Book.ID) -> Int? {
        line(of: id).flatMap(Self.historyTail(in:))
    }

    private static func historyTail(in line: Data) -> Int? {
        line.withUnsafeBytes { bytes in
            JSONLine.value(of: "historyTail", in: bytes).flatMap { Int(String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// The line of the book with this id, found without reading the other books' lines; `nil` also
    /// when its id is not where bookclub writes it (see `lineReadingAll(of:)`).
    func line(of id: Book.ID) -> Data? {
        if let line = journalBooks[id] { return line }
        guard let snapshotRun else { return snapshotBooks.first { Self.id(of: $0) == id } }
        guard !id.isEmpty, !id.contains("\""), !id.contains("\\") else { return nil }
        let needle = Self.idKey + Array("\(id)\"".utf8)
        return snapshotRun.withUnsafeBytes { bytes -> Data? in
            var offset = 0
            while let at = JSONLine.search(needle, in: bytes, from: offset) {
                offset = at + 1
                guard let book = Self.book(around: at, in: bytes, run: snapshotRun) else { return nil }
                if Self.id(of: book) == id { return book }
            }
            return nil
        }
    }

    /// The snapshot's book whose text begins at `offset` in the snapshot (its line `    {`), as far as
    /// the line `    }` that closes it; `nil` when no book of the run begins there.
    func snapshotBook(at offset: Int) -> Data? {
        guard let run = snapshotRun, offset > run.startIndex, offset < run.endIndex else { return nil }
        return run.withUnsafeBytes { bytes -> Data? in
            let at = offset - 1 - run.startIndex
            guard bytes.count - at > Self.objectStart.count,
                sameBytes(bytes.baseAddress! + at, Self.objectStart, count: Self.objectStart.count),
                let end = JSONLine.search(Self.objectEnd, in: bytes, from: at + 1)
            else { return nil }
            return run[offset..<(run.startIndex + end + Self.objectEnd.count)]
        }
    }

    /// A book's line key, as bookclub writes the snapshot: what `line(of:)` searches for, with the id.
    private static let idKey = Array("\n      \"id\" : \"".utf8)

    /// The book of the snapshot's run around the byte at `at`: back to its `    {`, on to its `    }`;
    /// `nil` when no `    }` follows.
    private static func book(around at: Int, in bytes: UnsafeRawBufferPointer, run: Data) -> Data? {
        var start = at
        while start > 0,
            !(bytes[start] == 0x0A
                && bytes[start + 1..<min(start + 6, bytes.count)].elementsEqual(objectStart.dropFirst()))
        {
            start -= 1
        }
        guard let end = JSONLine.search(objectEnd, in: bytes, from: at) else { return nil }
        return run[(run.startIndex + start + 1)..<(run.startIndex + end + objectEnd.count)]
    }

    /// `historyTail(of:)` for the books one save asks about: a search of the snapshot for each of the
    /// first few, then one pass over it for every book (a batch that logs to 3,000 books asked 6,000
    /// times, each a search of some 2 MB).
    final class HistoryTails {
        let files: LibraryFiles
        var asked = 0
        /// Every book's line in the snapshot, once made: by its id's bytes when the snapshot is laid out
        /// as bookclub writes it (as `line(of:)` finds it: the first book the id's key is found in whose
        /// id it is; `nil` when no book's end follows the key), else by its id.
        private var byKey: [[UInt8]: Data?]?
        private var byID: [Book.ID: Data]?

        init(_ files: LibraryFiles) {
            self.files = files
        }

        func tail(of id: Book.ID) -> Int? {
            asked += 1
            guard asked > 16 else { return files.historyTail(of: id) }
            return line(of: id).flatMap(LibraryFiles.historyTail(in:))
        }

        /// `files.line(of: id)`, from the lines found in one pass.
        func line(of id: Book.ID) -> Data? {
            if let line = files.journalBooks[id] { return line }
            guard let run = files.snapshotRun else {
                if byID == nil {
                    var lines: [Book.ID: Data] = [:]
                    for line in files.snapshotBooks {
                        if let id = LibraryFiles.id(of: line), lines[id] == nil { lines[id] = line }
                    }
                    byID = lines
                }
                return byID?[id]
            }
            guard !id.isEmpty, !id.contains("\""), !id.contains("\\") else { return nil }
            if byKey == nil { byKey = Self.lines(in: run) }
            return byKey?[Array(id.utf8)] ?? nil
        }

        static func lines(in run: Data) -> [[UInt8]: Data?] {
            run.withUnsafeBytes { bytes in
                var lines: [[UInt8]: Data?] = [:]
                var offset = 0
                while let at = JSONLine.search(LibraryFiles.idKey, in: bytes, from: offset) {
                    offset = at + 1
                    let from = at + LibraryFiles.idKey.count
                    guard let quote = bytes[from...].firstIndex(of: UInt8(ascii: "\"")) else { break }
                    let key = Array(bytes[from..<quote])
                    guard !key.isEmpty, !key.contains(UInt8(ascii: "\\")), lines[key] == nil else { continue }
                    guard let book = LibraryFiles.book(around: at, in: bytes, run: run) else {
                        lines[key] = .some(nil)
                        continue
                    }
                    if LibraryFiles.id(of: book) == String(decoding: key, as: UTF8.self) { lines[key] = .some(book) }
                }
                return lines
            }
        }
    }
    /// The line of the book with this id, reading every book's id when the search does not find it.
    func lineReadingAll(of id: Book.ID) throws -> Data? {
        if let line = line(of: id) { return line }
        return try allLines().first { $0.id == id }?.line
    }

    private static let objectStart = Array("\n    {".utf8)
    private static let objectEnd = Array("\n    }".utf8)

    /// The books of a run laid out as JSONEncoder writes them: objects opened by a line `    {`, each
    /// key on a line of its own indented further, closed by a line `    }`, separated by commas.
    /// `nil` for any other layout (a book written on one line, another indent), which is then read as
    /// one document. Looks at the closing braces only, so it costs little however long the run.
    static func split(_ run: Data) -> [Data]? {
        run.withUnsafeBytes { bytes -> [Data]? in
            guard let base = bytes.baseAddress, bytes.count > 1 else {
                return bytes.count == 1 && bytes[0] == 0x0A ? [] : nil
            }
            let open = Array("\n    {\n      \"".utf8)
            let indent = Array("\n    ".utf8)
            var books: [Data] = []
            var start = 0
            while true {
                guard start + open.count <= bytes.count, sameBytes(base + start, open, count: open.count) else {
                    return nil
                }
                // A book ends at the first `}` that closes a line indented four spaces: a string holds
                // no line break, and the book's own lines are indented six.
                var offset = start + open.count
                var end: Int?
                while let hit = firstByte(UInt8(ascii: "}"), at: base + offset, count: bytes.count - offset) {
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if sameBytes(base + at - indent.count, indent, count: indent.count) {
                        end = at + 1
                        break
                    }
                    offset = at + 1
                }
                guard let end else { return nil }
                books.append(run[(run.startIndex + start + 1)..<(run.startIndex + end)])
                if end == bytes.count { return books }
                guard bytes[end] == UInt8(ascii: ",") else { return nil }
                start = end + 1
            }
        }
    }

    /// The clubs, decoded.
    func decodedClubs() throws -> [Club] {
        // Most stores have none: no need to start Foundation's decoder for them.
        let isEmpty = clubs.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes: bytes)
            return scanner.take(UInt8(ascii: "[")) && scanner.take(UInt8(ascii: "]")) && scanner.atEnd
        }
        return isEmpty ? [] : try JSONCoding.decode([Club].self, from: clubs, path: path)
    }

    /// Decodes the books of these lines into a library with the clubs, checking what no command writes.
    func library(_ lines: [Data]) throws -> Library {
        try library(books: lines.map { try StoredBook.decode($0, path: path).book })
    }

    /// Every book, in the store's order, each line read once by the scanner and its id taken from
    /// what it read (`allLines` reads each id first, for its errors); `nil` when a line is not one the
    /// scanner reads or an id comes twice, which `allLines` then says.
    ///
    /// - Parameter leavingDetails: each book without its `details` (`LibraryScope.listing`).
    func everyBook(leavingDetails: Bool = false) throws -> [Book]? {
        let snapshot = try snapshotLines().books
        var books: [Book] = []
        books.reserveCapacity(snapshot.count + journalOrder.count)
        var seen = Set<Book.ID>(minimumCapacity: snapshot.count + journalOrder.count)
        for line in snapshot {
            guard let book = StoredBook(scanning: line, leavingDetails: leavingDetails), seen.insert(book.id).inserted
            else { return nil }
            switch journalBooks[book.id] {
            case .none: books.append(book.book)
            case .some(.some(let newer)):
                guard let newer = StoredBook(scanning: newer, leavingDetails: leavingDetails) else { return nil }
                books.append(newer.book)
            case .some(.none): break
            }
        }
        for id in journalOrder where !seen.contains(id) {
            guard case .some(.some(let line)) = journalBooks[id] else { continue }
            guard let book = StoredBook(scanning: line, leavingDetails: leavingDetails) else { return nil }
            books.append(book.book)
        }
        return books
    }

    /// These books in a library with the clubs, checking what no command writes.
    func library(books: [Book]) throws -> Library {
        let library = Library(books: books, clubs: try decodedClubs())
        if let problem = library.problem() { throw BookClubError.corruptFile(path: path, detail: problem) }
        return library
    }
}
