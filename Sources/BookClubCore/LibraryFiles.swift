#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store's committed state as raw JSON lines, one a book: the snapshot `STORE` with the committed
/// transactions of the journal `STORE.journal` laid over it. A line is decoded only when its book is
/// asked for, so that a command about one book reads one book, however many the store holds.
///
/// The snapshot is one JSON document, laid out a book a line:
///
/// ```
/// {"generation":"…","historyLength":1234,"schemaVersion":3,"state":"…",
/// "clubs":[…],
/// "books":[
/// {"added":"…","id":"…",…,"title":"Dune"},
/// {"added":"…","id":"…",…,"title":"Kindred"}
/// ]}
/// ```
///
/// The journal starts with `{"generation":"…"}`, the snapshot's, and holds transactions: lines
/// `{"book":{…}}`, `{"remove":"id"}` and `{"clubs":[…]}`, then `{"commit":{"historyLength":…,"state":"…"}}`.
/// What follows the last commit line never committed (its writer was stopped) and is passed over.
struct LibraryFiles {
    /// What a commit line (or the snapshot's first line) says.
    struct Commit: Codable, Equatable {
        /// The committed length of the history file.
        var historyLength: Int
        /// The id of the committed state: each change makes a new one; undo goes back to an earlier one.
        var state: String
    }

    /// What one change writes.
    struct Transaction {
        var books: [(id: Book.ID, line: Data)] = []
        var removed: [Book.ID] = []
        var clubs: Data?
        var commit: Commit
    }

    private struct Header: Codable {
        var generation: String?
        var historyLength: Int
        var schemaVersion: Int
        var state: String?
    }

    /// The whole snapshot, for a store of an earlier schema or laid out otherwise (edited by hand).
    private struct Document: Decodable {
        var schemaVersion: Int
        var historyLength: Int
        var generation: String?
        var state: String?
        var books: [StoredBook]
        /// Absent in version 1.
        var clubs: [Club]?
    }

    private(set) var storage: LibraryStorage
    /// The schema version of the snapshot.
    private(set) var version = LibraryStorage.schemaVersion
    private(set) var commit = Commit(historyLength: 0, state: "")
    private var generation: String?
    private var clubs = Data("[]".utf8)
    /// The snapshot's book lines as one run of bytes, split only when every book is needed.
    private var snapshotBooks = Data()
    /// The snapshot's book lines, when it was not laid out a book a line.
    private var snapshotLines: [Data]?
    private var snapshotSize = 0
    /// The journal's committed book lines by id (`nil` once removed), and the ids in the order they came.
    private var journalBooks: [Book.ID: Data?] = [:]
    private var journalOrder: [Book.ID] = []
    /// The committed size of a journal of the snapshot's generation; `nil` when there is none.
    private(set) var journalLength: Int?

    private var path: String { storage.path }
    private var fileSystem: FileSystem { storage.fileSystem }

    // MARK: Reading

    /// Reads the committed state. Without the lock a writer may compact meanwhile, replacing both files:
    /// a journal of another generation than the snapshot just read is then read again with its snapshot.
    init(reading storage: LibraryStorage) throws {
        var attempts = 0
        while true {
            let snapshot = try storage.fileSystem.read(storage.path)
            self = try LibraryFiles(storage: storage, snapshot: snapshot)
            let journal = try storage.fileSystem.read(storage.journalPath)
            guard let journal, !journal.isEmpty else { return }
            if try lay(journal) { return }
            attempts += 1
            // Still the same snapshot: the journal is one a compaction cut short left behind, to be replaced.
            if try attempts == 3 || storage.fileSystem.read(storage.path) == snapshot { return }
        }
    }

    private init(storage: LibraryStorage, snapshot: Data?) throws {
        self.storage = storage
        guard let data = snapshot else { return }
        snapshotSize = data.count
        if try !readLines(of: data) { try readDocument(data) }
        guard commit.historyLength >= 0 else {
            throw BookClubError.corruptFile(path: path, detail: "at `historyLength`: expected a size of 0 or more")
        }
    }

    /// Reads a snapshot laid out a book a line; `false` when it is laid out otherwise.
    private mutating func readLines(of data: Data) throws -> Bool {
        let lines = data.withUnsafeBytes { bytes -> (header: Range<Int>, clubs: Range<Int>, books: Range<Int>)? in
            guard let base = bytes.baseAddress else { return nil }
            func lineEnd(from start: Int) -> Int? {
                memchr(base + start, 0x0A, bytes.count - start).map { base.distance(to: UnsafeRawPointer($0)) }
            }
            let tail = Array("\n]}\n".utf8)
            let booksStart = Array("\"books\":[\n".utf8)
            let clubsStart = Array("\"clubs\":".utf8)
            guard let headerEnd = lineEnd(from: 0), headerEnd > 1, bytes[0] == UInt8(ascii: "{"), bytes[headerEnd - 1] == UInt8(ascii: ","),
                let clubsEnd = lineEnd(from: headerEnd + 1), clubsEnd - headerEnd > clubsStart.count + 2,
                memcmp(base + headerEnd + 1, clubsStart, clubsStart.count) == 0, bytes[clubsEnd - 1] == UInt8(ascii: ","),
                bytes.count >= clubsEnd + 1 + booksStart.count + 3,
                memcmp(base + clubsEnd + 1, booksStart, booksStart.count) == 0
            else { return nil }
            let books = clubsEnd + 1 + booksStart.count
            if bytes.count == books + 3, memcmp(base + books, Array("]}\n".utf8), 3) == 0 {
                return (0..<headerEnd - 1, headerEnd + 1 + clubsStart.count..<clubsEnd - 1, books..<books)
            }
            guard memcmp(base + bytes.count - tail.count, tail, tail.count) == 0 else { return nil }
            return (0..<headerEnd - 1, headerEnd + 1 + clubsStart.count..<clubsEnd - 1, books..<bytes.count - tail.count + 1)
        }
        guard let lines, let header = JSONCoding.decodeLine(Header.self, from: data[lines.header] + Data("}".utf8)) else {
            return false
        }
        try LibraryStorage.check(header.schemaVersion, path: path)
        version = header.schemaVersion
        generation = header.generation
        commit = Commit(historyLength: header.historyLength, state: header.state ?? "")
        clubs = data[lines.clubs]
        snapshotBooks = data[lines.books]
        return true
    }

    /// Reads a snapshot as one document: one of an earlier schema, or one edited by hand.
    private mutating func readDocument(_ data: Data) throws {
        let document: Document
        do {
            document = try JSONCoding.decode(Document.self, from: data, path: path)
        } catch {
            // The header alone explains a failure that a newer schema may well cause.
            let header = try JSONCoding.decode(SchemaHeader.self, from: data, path: path)
            if let version = header.schemaVersion { try LibraryStorage.check(version, path: path) }
            throw error
        }
        try LibraryStorage.check(document.schemaVersion, path: path)
        version = document.schemaVersion
        generation = document.generation
        commit = Commit(historyLength: document.historyLength, state: document.state ?? "")
        clubs = try JSONCoding.encoder(pretty: false).encode(document.clubs ?? [])
        snapshotLines = try document.books.map { try Self.line(for: $0) }
    }

    /// Lays the journal's committed transactions over the snapshot; `false` when the journal is of
    /// another generation (left by a compaction that was cut short, or written since the snapshot was read).
    private mutating func lay(_ journal: Data) throws -> Bool {
        let journalPath = storage.journalPath
        var pending = Transaction(commit: commit)
        var committed: (length: Int, line: Data)?
        var unreadable: Int?
        var lineNumber = 0
        var start = journal.startIndex
        while let newline = journal[start...].firstIndex(of: 0x0A) {
            defer { start = newline + 1 }
            lineNumber += 1
            let line = journal[start..<newline]
            if lineNumber == 1 {
                let found = line.withUnsafeBytes { JSONLine.string("generation", in: $0) }
                guard let found else { throw BookClubError.corruptFile(path: journalPath, detail: "line 1: expected the journal's generation") }
                guard found == generation else { return false }
                journalLength = newline + 1 - journal.startIndex
                continue
            }
            switch Self.record(line) {
            case .book(let id, let book): pending.books.append((id, book))
            case .remove(let id): pending.removed.append(id)
            case .clubs(let raw): pending.clubs = raw
            case .commit:
                if let unreadable {
                    throw BookClubError.corruptFile(path: journalPath, detail: "line \(unreadable): expected a book, a removal, clubs or a commit")
                }
                apply(pending)
                pending = Transaction(commit: commit)
                committed = (newline + 1 - journal.startIndex, line)
            case nil:
                unreadable = unreadable ?? lineNumber
            }
        }
        guard lineNumber > 0 else { return generation == nil }
        if let committed {
            let raw = committed.line.dropFirst(10).dropLast()
            guard let value = JSONCoding.decodeLine(Commit.self, from: Data(raw)), value.historyLength >= 0 else {
                throw BookClubError.corruptFile(path: journalPath, detail: "the last commit cannot be read")
            }
            commit = value
            journalLength = committed.length
        }
        return true
    }

    private enum Record {
        case book(Book.ID, Data)
        case remove(Book.ID)
        case clubs(Data)
        case commit
    }

    private static func record(_ line: Data) -> Record? {
        func wrapped(_ prefix: String) -> Data? {
            let prefix = Data(prefix.utf8)
            guard line.count > prefix.count, line.starts(with: prefix), line.last == UInt8(ascii: "}") else { return nil }
            return line.dropFirst(prefix.count).dropLast()
        }
        if let book = wrapped(#"{"book":"#) {
            return id(of: book).map { .book($0, book) }
        }
        if let raw = wrapped(#"{"remove":"#) {
            return JSONCoding.decodeLine(String.self, from: Data(raw)).map { .remove($0) }
        }
        if let raw = wrapped(#"{"clubs":"#) { return .clubs(raw) }
        if wrapped(#"{"commit":"#) != nil { return .commit }
        return nil
    }

    private mutating func apply(_ transaction: Transaction) {
        for (id, line) in transaction.books {
            if journalBooks[id] == nil { journalOrder.append(id) }
            journalBooks[id] = .some(line)
        }
        for id in transaction.removed {
            if journalBooks[id] == nil { journalOrder.append(id) }
            journalBooks[id] = .some(nil)
        }
        if let raw = transaction.clubs { clubs = raw }
        commit = transaction.commit
    }

    // MARK: Books

    /// The id of a book line.
    static func id(of line: Data) -> Book.ID? {
        line.withUnsafeBytes { JSONLine.string("id", in: $0) }
    }

    /// A book's line, as the snapshot and the journal keep it.
    static func line(for book: StoredBook) throws -> Data {
        try JSONCoding.encoder(pretty: false).encode(book)
    }

    /// Every book's line, in the store's order.
    func allLines() throws -> [(id: Book.ID, line: Data)] {
        var result: [(id: Book.ID, line: Data)] = []
        var seen = Set<Book.ID>()
        func add(_ line: Data, number: Int) throws {
            guard let id = Self.id(of: line) ?? JSONCoding.decodeLine(StoredBook.self, from: line)?.id else {
                throw BookClubError.corruptFile(path: path, detail: "at `books[\(number)]`: expected a book with an id")
            }
            guard seen.insert(id).inserted else {
                throw BookClubError.corruptFile(path: path, detail: "at `books[\(number)].id`: expected an id of its own")
            }
            switch journalBooks[id] {
            case .none: result.append((id, line))
            case .some(.some(let newer)): result.append((id, newer))
            case .some(.none): break
            }
        }
        if let snapshotLines {
            for (number, line) in snapshotLines.enumerated() { try add(line, number: number) }
        } else {
            var number = 0
            var start = snapshotBooks.startIndex
            while start < snapshotBooks.endIndex {
                let end = snapshotBooks[start...].firstIndex(of: 0x0A) ?? snapshotBooks.endIndex
                var line = snapshotBooks[start..<end]
                if line.last == UInt8(ascii: ",") { line = line.dropLast() }
                try add(line, number: number)
                number += 1
                start = end + 1
            }
        }
        for id in journalOrder where !seen.contains(id) {
            if case .some(.some(let line)) = journalBooks[id] { result.append((id, line)) }
        }
        return result
    }

    /// The line of the book with this id, found without reading the other books' lines.
    func line(of id: Book.ID) -> Data? {
        if let line = journalBooks[id] { return line }
        if let snapshotLines { return snapshotLines.first { Self.id(of: $0) == id } }
        guard !id.isEmpty, !id.contains("\""), !id.contains("\\") else { return nil }
        let needle = Array("\"id\":\"\(id)\"".utf8)
        return snapshotBooks.withUnsafeBytes { bytes -> Data? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while let at = JSONLine.find(needle, in: bytes, from: offset) {
                offset = at + 1
                // The line around the hit; another book's line may hold the id too (a club's, say).
                var start = at
                while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
                let end = memchr(base + at, 0x0A, bytes.count - at).map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
                var line = snapshotBooks[snapshotBooks.startIndex + start..<snapshotBooks.startIndex + end]
                if line.last == UInt8(ascii: ",") { line = line.dropLast() }
                if Self.id(of: line) == id { return line }
            }
            return nil
        }
    }

    /// The clubs, decoded.
    func decodedClubs() throws -> [Club] {
        try JSONCoding.decode([Club].self, from: clubs, path: path)
    }

    /// Decodes the books of these lines into a library with the clubs, checking what no command writes.
    func library(_ lines: [Data]) throws -> Library {
        let books = try lines.map { try JSONCoding.decode(StoredBook.self, from: $0, path: path).book }
        let library = Library(books: books, clubs: try decodedClubs())
        if let problem = library.problem() { throw BookClubError.corruptFile(path: path, detail: problem) }
        return library
    }

    // MARK: Writing

    /// Commits a transaction: appends it to the journal, or writes a new snapshot (and an empty journal)
    /// when the journal has grown past half the snapshot, the snapshot is of an earlier schema or
    /// layout, or there is no journal of its generation. The append or the snapshot's rename is the commit.
    mutating func commit(_ transaction: Transaction) throws {
        let records = try Self.journalLines(transaction)
        if let length = journalLength, version == LibraryStorage.schemaVersion, snapshotLines == nil,
            length + records.count <= max(64 * 1024, snapshotSize / 2)
        {
            do {
                try fileSystem.append(storage.journalPath, records, length)
            } catch {
                // Written but not synced (say): the commit line must not stay to be read as committed.
                try? fileSystem.append(storage.journalPath, Data(), length)
                throw error
            }
            apply(transaction)
            journalLength = length + records.count
            return
        }
        try compact(with: transaction)
    }

    private mutating func compact(with transaction: Transaction) throws {
        var next = self
        next.apply(transaction)
        let generation = LibraryStorage.newID()
        let header = Header(
            generation: generation, historyLength: next.commit.historyLength, schemaVersion: LibraryStorage.schemaVersion,
            state: next.commit.state)
        var snapshot = try JSONCoding.encoder(pretty: false).encode(header).dropLast()
        snapshot += Data(",\n\"clubs\":".utf8) + next.clubs + Data(",\n\"books\":[\n".utf8)
        let lines = try next.allLines()
        for (index, book) in lines.enumerated() {
            snapshot += book.line
            snapshot += Data((index == lines.count - 1 ? "\n" : ",\n").utf8)
        }
        snapshot += Data("]}\n".utf8)
        try fileSystem.writeAtomically(path, snapshot)
        // Committed. A journal that cannot be replaced is of the old generation: passed over, and
        // replaced by the next save.
        let journal = try JSONCoding.encoder(pretty: false).encode(["generation": generation]) + Data("\n".utf8)
        let replaced = (try? fileSystem.writeAtomically(storage.journalPath, journal)) != nil
        self = try LibraryFiles(storage: storage, snapshot: snapshot)
        if replaced { _ = try lay(journal) }
    }

    private static func journalLines(_ transaction: Transaction) throws -> Data {
        let encoder = JSONCoding.encoder(pretty: false)
        var data = Data()
        for book in transaction.books { data += Data(#"{"book":"#.utf8) + book.line + Data("}\n".utf8) }
        for id in transaction.removed { data += Data(#"{"remove":"#.utf8) + (try encoder.encode(id)) + Data("}\n".utf8) }
        if let clubs = transaction.clubs { data += Data(#"{"clubs":"#.utf8) + clubs + Data("}\n".utf8) }
        data += Data(#"{"commit":"#.utf8) + (try encoder.encode(transaction.commit)) + Data("}\n".utf8)
        return data
    }
}

/// Which books a command loads: all of them, or only those it is about (and the clubs), so that a
/// command about one book reads one book however many the store holds.
public enum LibraryScope: Equatable, Sendable {
    case everything
    /// The book a reference names, by the rules of `Library.resolve`; a reference that names no book,
    /// or several, fails the load with the error `resolve` gives.
    case book(named: String)
    /// These books, those of them that are in the store.
    case books(Set<Book.ID>)
}

extension LibraryFiles {
    func library(in scope: LibraryScope) throws -> Library {
        switch scope {
        case .everything:
            return try library(allLines().map(\.line))
        case .books(let ids):
            return try library(ids.sorted().compactMap { line(of: $0) })
        case .book(let reference):
            // An id is the first rule, and a book's own: its line is found without reading the others.
            let id = reference.lowercased().trimmed
            if let line = line(of: id) { return try library([line]) }
            struct Entry {
                var id: Book.ID
                var title: String
                var line: Data
            }
            let entries = try allLines().map { book in
                let title = try book.line.withUnsafeBytes { JSONLine.string("title", in: $0) }
                    ?? JSONCoding.decode(StoredBook.self, from: book.line, path: path).title
                return Entry(id: book.id, title: title, line: book.line)
            }
            return try library([Reference.book(reference, in: entries, id: \.id, title: \.title).line])
        }
    }
}
