#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A store's committed state as raw JSON, a slice a book: the snapshot `STORE` with the committed
/// transactions of the journal `STORE.journal` laid over it. A book's JSON is decoded only when the
/// book is asked for, so that a command about one book reads one book, however many the store holds.
///
/// The snapshot is the document JSONEncoder writes, pretty-printed with sorted keys, whose layout is
/// known: each book is the object between a line `    {` and a line `    }`, and its id is on a line
/// `      "id" : "…",` of its own, so a book is found by searching for its id.
///
/// The journal starts with `{"generation":"…"}`, the snapshot's, and holds transactions: lines
/// `{"book":{…}}`, `{"remove":"id"}` and `{"clubs":[…]}`, then the commit line
/// `{"commit":{"historyLength":…,"state":"…","undoLength":…},"length":…,"crc":"…"}`, which carries the
/// transaction's length in bytes and the CRC-32C of the transaction and of itself (`Seal`). A power
/// cut may keep any piece of an unsynced append and lose another, so a transaction is committed only
/// when its checksum holds: a last one that fails it never committed, and is passed over with whatever
/// follows the last whole commit (a writer stopped mid-save), and cut by the next writer.
struct LibraryFiles {
    /// What a commit line (or the snapshot's header) says.
    struct Commit: Codable, Equatable {
        /// The committed length of the history file.
        var historyLength: Int
        /// The id of the committed state: each change makes a new one; undo goes back to an earlier one.
        var state: String
        /// The length of the undo log once the change was recorded in it; `nil` when not known (the
        /// snapshot does not keep it). A log of another length was written since by a writer that never
        /// committed, which may not have made the log's name durable.
        var undoLength: Int?
    }

    /// A commit line, before its seal.
    struct CommitLine: Codable, Equatable {
        var commit: Commit
        /// The length of the transaction's lines before the commit line; absent before bookclub 0.4.
        var length: Int?

        /// Reads a commit line as Foundation's decoder would, its seal passed over; `nil` leaves it to
        /// the decoder.
        static func scan(_ line: Data) -> CommitLine? {
            line.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes: bytes)
                var commit: Commit?
                var length: Int?
                var seen = JSONScanner.SeenKeys()
                let complete = scanner.object { key, scanner in
                    switch key {
                    case "commit" where seen.first(0):
                        var (history, undo): (Int?, Int?)
                        var state: String?
                        var inner = JSONScanner.SeenKeys()
                        guard
                            scanner.object({ key, scanner in
                                switch key {
                                case "historyLength" where inner.first(0): return scanner.read(&history)
                                case "state" where inner.first(1): return scanner.read(&state)
                                case "undoLength" where inner.first(2): return scanner.read(&undo)
                                case "historyLength", "state", "undoLength": return false
                                default: return scanner.skipValue()
                                }
                            }), let history, let state
                        else { return false }
                        commit = Commit(historyLength: history, state: state, undoLength: undo)
                        return true
                    case "length" where seen.first(1): return scanner.read(&length)
                    case "commit", "length": return false
                    default: return scanner.skipValue()
                    }
                }
                guard complete, scanner.atEnd, let commit else { return nil }
                return CommitLine(commit: commit, length: length)
            }
        }

        static func read(_ line: Data) -> CommitLine? {
            scan(line) ?? JSONCoding.decodeLine(CommitLine.self, from: line)
        }
    }

    /// What one change writes.
    struct Transaction {
        var books: [(id: Book.ID, line: Data)] = []
        var removed: [Book.ID] = []
        var clubs: Data?
        var commit: Commit
    }

    /// What the snapshot says besides its books.
    struct Header: Decodable, Equatable {
        var schemaVersion: Int
        var historyLength: Int
        var generation: String?
        var previousGeneration: String?
        var state: String?

        /// Reads the header as Foundation's decoder would, other members passed over; `nil` leaves
        /// it to the decoder (a `null`, a key given twice, a number of another form).
        static func scan(_ data: Data) -> Header? {
            data.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes: bytes)
                var (version, length): (Int?, Int?)
                var (generation, previous, state): (String?, String?, String?)
                var seen = JSONScanner.SeenKeys()
                let complete = scanner.object { key, scanner in
                    switch key {
                    case "schemaVersion" where seen.first(0): return scanner.read(&version)
                    case "historyLength" where seen.first(1): return scanner.read(&length)
                    case "generation" where seen.first(2): return scanner.read(&generation)
                    case "previousGeneration" where seen.first(3): return scanner.read(&previous)
                    case "state" where seen.first(4): return scanner.read(&state)
                    case "schemaVersion", "historyLength", "generation", "previousGeneration", "state": return false
                    default: return scanner.skipValue()
                    }
                }
                guard complete, scanner.atEnd, let version, let length else { return nil }
                return Header(
                    schemaVersion: version, historyLength: length, generation: generation,
                    previousGeneration: previous, state: state)
            }
        }
    }

    /// The whole snapshot: as written, and as read when it is not laid out as written (a store of
    /// schema 1, or one edited by hand).
    struct Document: Codable {
        var books: [StoredBook]
        /// Absent in version 1.
        var clubs: [Club]?
        var generation: String?
        /// The generation of the journal this snapshot replaced, "" when it replaced none; absent in a
        /// snapshot of bookclub before 0.4, whose journal is not checked.
        var previousGeneration: String?
        var historyLength: Int
        var schemaVersion: Int
        var state: String?
    }

    private(set) var storage: LibraryStorage
    /// The schema version of the snapshot.
    private(set) var version = LibraryStorage.schemaVersion
    private(set) var commit = Commit(historyLength: 0, state: "")
    private var generation: String?
    private var previousGeneration: String?
    private var clubs = Data("[]".utf8)
    /// The snapshot's books, each as its JSON.
    private var snapshotBooks: [Data] = []
    /// The snapshot's books as one run of bytes, from the line break before the first `    {` to the
    /// last `    }`, to search for an id in; `nil` when the snapshot is not laid out as bookclub writes it.
    private var snapshotRun: Data?
    private var snapshotSize = 0
    /// The journal's committed book lines by id (`nil` once removed), and the ids in the order they came.
    private var journalBooks: [Book.ID: Data?] = [:]
    private var journalOrder: [Book.ID] = []
    /// The committed size of a journal of the snapshot's generation; `nil` when there is none.
    private(set) var journalLength: Int?
    /// Whether the snapshot alone holds the library: no change waits in the journal, and the snapshot
    /// is of this schema and laid out as bookclub writes it.
    var isFolded: Bool {
        !journalHasChanges && journalLength != nil && snapshotRun != nil && version == LibraryStorage.schemaVersion
    }
    private var journalHasChanges = false

    private var path: String { storage.path }
    private var fileSystem: FileSystem { storage.fileSystem }

    // MARK: Reading

    /// Reads the committed state. Without the lock a writer may fold the journal meanwhile, replacing
    /// both files: a journal of another generation than the snapshot just read is then read again with
    /// its snapshot.
    init(reading storage: LibraryStorage) throws {
        var attempts = 0
        while true {
            // The snapshot is only ever replaced by a rename, so it may be mapped.
            let snapshot = try storage.fileSystem.map(storage.path)
            self = try LibraryFiles(storage: storage, snapshot: snapshot)
            let journal = try storage.fileSystem.read(storage.journalPath)
            guard let journal, !journal.isEmpty else {
                // A snapshot of a generation always has a journal beside it, which starts with a line
                // of its generation: its own, or (when a fold was cut short) the one it replaced. One
                // missing or empty (cut by a sync or disk tool) held changes that are gone with it.
                if expectsJournal { throw journal == nil ? missingJournal : emptyJournal }
                return
            }
            if try lay(journal) { return }
            attempts += 1
            // Still the same snapshot: the journal is the one it replaced, left by a fold cut short
            // (passed over, and replaced by the next save), or one of another store.
            if try attempts == 3 || storage.fileSystem.map(storage.path) == snapshot {
                let found = journal.prefix { $0 != 0x0A }.withUnsafeBytes { JSONLine.string("generation", in: $0) }
                if let previousGeneration, generation != nil, found != previousGeneration { throw foreignJournal }
                return
            }
        }
    }

    /// Whether the snapshot always has a journal beside it (its own, or the one it replaced): one
    /// written by bookclub 0.4 or later, which writes a first snapshot after its journal.
    private var expectsJournal: Bool { generation != nil && previousGeneration != nil }

    private var missingJournal: BookClubError {
        .corruptFile(
            path: storage.journalPath,
            detail: """
                is missing: \(path.lastPathComponent) keeps its latest changes in it. Put it back beside \(path.lastPathComponent) \
                (from a backup, or the machine the store came from); or, to go on from \(path.lastPathComponent) and the \
                progress entries of \(path.lastPathComponent).history, run `bookclub doctor --fix`
                """)
    }

    private var emptyJournal: BookClubError {
        .corruptFile(
            path: storage.journalPath,
            detail: """
                is empty: \(path.lastPathComponent) keeps its latest changes in it, and something cut it. Put the whole \
                file back (from a backup, or the machine the store came from); or, to go on from \(path.lastPathComponent) \
                and the progress entries of \(path.lastPathComponent).history, run `bookclub doctor --fix`
                """)
    }

    private var foreignJournal: BookClubError {
        .corruptFile(
            path: storage.journalPath,
            detail: """
                belongs to another store: it is not the journal \(path.lastPathComponent) was written with. Put back the one \
                that came with \(path.lastPathComponent), or move this one away and run `bookclub doctor --fix`
                """)
    }

    /// The snapshot alone, when its journal is lost (missing or empty): its next commit is a fold, a
    /// new snapshot with a journal of its own. `nil` when the journal is neither missing nor empty.
    static func snapshotOfLostJournal(_ storage: LibraryStorage) throws -> LibraryFiles? {
        let files = try LibraryFiles(storage: storage, snapshot: storage.fileSystem.read(storage.path))
        guard files.expectsJournal, try (storage.fileSystem.size(storage.journalPath) ?? 0) == 0 else { return nil }
        return files
    }

    private init(storage: LibraryStorage, snapshot: Data?) throws {
        self.storage = storage
        guard let data = snapshot else { return }
        snapshotSize = data.count
        if try !readLayout(of: data) { try readDocument(data) }
        guard commit.historyLength >= 0 else {
            throw BookClubError.corruptFile(path: path, detail: "at `historyLength`: expected a size of 0 or more")
        }
    }

    /// Reads a snapshot laid out as bookclub writes it; `false` when it is laid out otherwise.
    private mutating func readLayout(of data: Data) throws -> Bool {
        let opening = Data("{\n  \"books\" : [\n".utf8)
        guard data.starts(with: opening) else { return false }
        // Near the end, after the books: only the clubs and the header follow.
        let booksEnd = data.withUnsafeBytes { JSONLine.searchBackward(Array("\n  ],\n  \"clubs\" : ".utf8), in: $0) }
        guard let booksEnd, booksEnd >= opening.count - 1 else { return false }
        // The rest, from `"clubs"`, is an object once it is opened again.
        let rest = Data("{".utf8) + data[(data.startIndex + booksEnd + 5)...]
        guard let header = Header.scan(rest) ?? JSONCoding.decodeLine(Header.self, from: rest),
            let clubs = rest.withUnsafeBytes({ JSONLine.value(of: "clubs", in: $0).map { Data($0) } })
        else { return false }
        try LibraryStorage.check(header.schemaVersion, path: path)
        version = header.schemaVersion
        generation = header.generation
        previousGeneration = header.previousGeneration
        commit = Commit(historyLength: header.historyLength, state: header.state ?? "")
        self.clubs = clubs
        let run = data[(data.startIndex + opening.count - 1)..<(data.startIndex + booksEnd)]
        guard let books = Self.split(run) else { return false }
        snapshotRun = run
        snapshotBooks = books
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
        previousGeneration = document.previousGeneration
        commit = Commit(historyLength: document.historyLength, state: document.state ?? "")
        clubs = try Self.line(for: document.clubs ?? [])
        snapshotBooks = document.books.map { Self.line(for: $0) }
    }

    /// Lays the journal's committed transactions over the snapshot; `false` when the journal is of
    /// another generation (left by a fold that was cut short, or written since the snapshot was read).
    private mutating func lay(_ journal: Data) throws -> Bool {
        let journalPath = storage.journalPath
        var pending = Transaction(commit: commit)
        var committed: (length: Int, line: Data)?
        var unreadable: Int?
        /// The first line of a transaction whose checksum failed: from there on, nothing committed.
        var torn: Int?
        var transactionStart = journal.startIndex
        var firstLine = 2
        var lineNumber = 0
        // Where each line ends, found with `firstByte` (a journal may run to hundreds of kilobytes).
        let ends = journal.withUnsafeBytes { bytes -> [Int] in
            var ends: [Int] = []
            var offset = 0
            while offset < bytes.count,
                let hit = firstByte(0x0A, at: bytes.baseAddress! + offset, count: bytes.count - offset)
            {
                offset = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit)) + 1
                ends.append(offset)
            }
            return ends
        }
        var start = journal.startIndex
        for end in ends {
            let newline = journal.startIndex + end - 1
            defer { start = newline + 1 }
            lineNumber += 1
            let line = journal[start..<newline]
            if lineNumber == 1 {
                let found = line.withUnsafeBytes { JSONLine.string("generation", in: $0) }
                guard let found else {
                    throw BookClubError.corruptFile(
                        path: journalPath, detail: "line 1: expected the journal's generation")
                }
                guard found == generation else { return false }
                journalLength = newline + 1 - journal.startIndex
                transactionStart = newline + 1
                continue
            }
            switch Self.record(line) {
            case .book(let id, let book): pending.books.append((id, book))
            case .remove(let id): pending.removed.append(id)
            case .clubs(let raw): pending.clubs = raw
            case .commit:
                let transaction = journal[transactionStart..<start]
                defer {
                    pending = Transaction(commit: commit)
                    unreadable = nil
                    transactionStart = newline + 1
                    firstLine = lineNumber + 1
                }
                guard Self.isWhole(line, transaction) else {
                    torn = torn ?? firstLine
                    continue
                }
                if let torn {
                    throw BookClubError.corruptFile(
                        path: journalPath,
                        detail:
                            "line \(torn): a change fails its checksum, yet a later one is whole: the file was damaged; restore it from a backup"
                    )
                }
                if let unreadable {
                    throw BookClubError.corruptFile(
                        path: journalPath, detail: "line \(unreadable): expected a book, a removal, clubs or a commit")
                }
                apply(pending)
                committed = (newline + 1 - journal.startIndex, line)
            case nil:
                unreadable = unreadable ?? lineNumber
            }
        }
        guard lineNumber > 0 else { return generation == nil }
        if let committed {
            guard let value = CommitLine.read(committed.line),
                value.commit.historyLength >= 0
            else {
                throw BookClubError.corruptFile(path: journalPath, detail: "the last commit cannot be read")
            }
            commit = value.commit
            journalLength = committed.length
        }
        return true
    }

    /// Whether a commit line and the transaction before it were written whole: sealed with a checksum
    /// that holds and the transaction's length, or (from a bookclub before 0.4) unsealed and readable.
    private static func isWhole(_ line: Data, _ transaction: Data) -> Bool {
        switch Seal.check(line, covering: transaction) {
        case true?:
            let length = line.withUnsafeBytes {
                JSONLine.value(of: "length", in: $0, first: true).map { String(decoding: $0, as: UTF8.self) }
            }
            return length == String(transaction.count)
        case false?: return false
        case nil: return CommitLine.read(line).map { $0.length == nil } ?? false
        }
    }

    private enum Record {
        case book(Book.ID, Data)
        case remove(Book.ID)
        case clubs(Data)
        case commit
    }

    private static func record(_ line: Data) -> Record? {
        /// What `{"<key>":…}` wraps.
        func wrapped(_ prefix: StaticString) -> Data? {
            let count = prefix.utf8CodeUnitCount
            let matches = line.withUnsafeBytes { bytes in
                bytes.count > count + 1 && sameBytes(bytes.baseAddress!, prefix.utf8Start, count: count)
                    && bytes[bytes.count - 1] == UInt8(ascii: "}")
            }
            return matches ? line[(line.startIndex + count)..<(line.endIndex - 1)] : nil
        }
        if let book = wrapped(#"{"book":"#) {
            return book.withUnsafeBytes { JSONLine.string("id", in: $0, first: true) }.map { .book($0, book) }
        }
        if wrapped(#"{"commit":"#) != nil { return .commit }
        if let raw = wrapped(#"{"remove":"#) {
            return JSONCoding.decodeLine(String.self, from: Data(raw)).map { .remove($0) }
        }
        if let raw = wrapped(#"{"clubs":"#) { return .clubs(raw) }
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
        journalHasChanges = true
    }

    // MARK: Books

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

    /// Every book's line, in the store's order.
    func allLines() throws -> [(id: Book.ID, line: Data)] {
        var result: [(id: Book.ID, line: Data)] = []
        var seen = Set<Book.ID>()
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
        for (number, book) in snapshotBooks.enumerated() { try add(book, number: number) }
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
        private let files: LibraryFiles
        private var asked = 0
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
        private func line(of id: Book.ID) -> Data? {
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

        private static func lines(in run: Data) -> [[UInt8]: Data?] {
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
        let books = try lines.map { try StoredBook.decode($0, path: path).book }
        let library = Library(books: books, clubs: try decodedClubs())
        if let problem = library.problem() { throw BookClubError.corruptFile(path: path, detail: problem) }
        return library
    }

    // MARK: Writing

    /// How a transaction will be committed, worked out (every book decoded, every byte encoded) before
    /// anything is written, so that a store that cannot take it fails the command with no file changed.
    enum Plan {
        /// Append these lines to the journal of this committed length.
        case append(Data, at: Int)
        /// Write this snapshot of a new generation, and start its journal.
        case fold(snapshot: Data, generation: String)
    }

    /// Appends the transaction to the journal, or writes a new snapshot (and an empty journal) when the
    /// journal has grown past a quarter of the snapshot (and 64 KiB), the snapshot is of an earlier
    /// schema or layout, or there is no journal of its generation.
    func plan(_ transaction: Transaction, folding: Bool = false) throws -> Plan {
        let records = Self.journalLines(transaction)
        if !folding, let length = journalLength, version == LibraryStorage.schemaVersion, snapshotRun != nil,
            length + records.count <= max(64 * 1024, snapshotSize / 4)
        {
            return .append(records, at: length)
        }
        var next = self
        next.apply(transaction)
        let generation = storage.ids.hex()
        let document = Document(
            books: try next.allLines().map { try StoredBook.decode($0.line, path: path) },
            clubs: try next.decodedClubs(), generation: generation, previousGeneration: self.generation ?? "",
            historyLength: next.commit.historyLength,
            schemaVersion: LibraryStorage.schemaVersion, state: next.commit.state)
        return .fold(snapshot: try Self.snapshot(document), generation: generation)
    }

    /// The snapshot's bytes, as JSONEncoder writes `document` (pretty, sorted keys) and a line break;
    /// the books written by hand (JSONEncoder spends about 10 µs an entry).
    static func snapshot(_ document: Document) throws -> Data {
        var writer = JSONWriter(depth: 0)
        writer.spreadsEmptyArrays = true
        // Clubs are few: JSONEncoder writes them, indented to their place.
        let clubs = try document.clubs.map { clubs in
            clubs.isEmpty
                ? "[\n\n  ]"
                : String(decoding: try JSONCoding.encoder().encode(clubs), as: UTF8.self).replacing("\n", with: "\n  ")
        }
        writer.object { w in
            w.field("books")
            w.array(document.books) { w, book in w.storedBook(book) }
            if let clubs {
                w.field("clubs")
                w.text(clubs)
            }
            w.field("generation", document.generation)
            w.field("historyLength", document.historyLength)
            w.field("previousGeneration", document.previousGeneration)
            w.field("schemaVersion", document.schemaVersion)
            w.field("state", document.state)
        }
        writer.text("\n")
        return writer.take()
    }

    /// Commits a transaction as planned: the append or the snapshot's rename is the commit.
    mutating func commit(_ transaction: Transaction) throws {
        try commit(transaction, as: plan(transaction))
    }

    mutating func commit(_ transaction: Transaction, as plan: Plan) throws {
        switch plan {
        case .append(let records, let length):
            do {
                try fileSystem.append(storage.journalPath, records, length)
            } catch {
                // Written but not synced (say): the commit line must not stay to be read as committed.
                try? fileSystem.append(storage.journalPath, Data(), length)
                throw error
            }
            apply(transaction)
            journalLength = length + records.count
        case .fold(let snapshot, let generation):
            let journal = try JSONCoding.encoder(pretty: false).encode(["generation": generation]) + Data("\n".utf8)
            // A snapshot of a generation never stands without a journal: the first one is written after
            // its journal (which no snapshot reads until then); a later one replaces a journal that
            // stays until the new one is renamed over it.
            if self.generation == nil {
                let previous = try fileSystem.read(storage.journalPath)
                func putBack() {
                    if let previous {
                        try? fileSystem.writeAtomically(storage.journalPath, previous)
                    } else {
                        _ = fileSystem.remove(storage.journalPath)
                    }
                }
                do {
                    try fileSystem.writeAtomically(storage.journalPath, journal)
                } catch BookClubError.io(let folder, let cause) {
                    // Renamed, perhaps, but not committed: nothing reads that journal yet.
                    putBack()
                    throw BookClubError.io(
                        path: folder,
                        cause: cause.firstRange(of: " after replacing").map { String(cause[..<$0.lowerBound]) } ?? cause
                    )
                }
                do {
                    try fileSystem.writeAtomically(path, snapshot)
                } catch {
                    // Not committed, unless only the folder's sync after the rename failed.
                    if try fileSystem.read(path) != snapshot { putBack() }
                    throw error
                }
            } else {
                try fileSystem.writeAtomically(path, snapshot)
            }
            // Committed. A journal that cannot be replaced is of the old generation: passed over, and
            // replaced by the next save.
            let replaced =
                self.generation == nil || (try? fileSystem.writeAtomically(storage.journalPath, journal)) != nil
            self = try LibraryFiles(storage: storage, snapshot: snapshot)
            if replaced { _ = try lay(journal) }
        }
    }

    private static func journalLines(_ transaction: Transaction) -> Data {
        var data = Data()
        for book in transaction.books { data += Data(#"{"book":"#.utf8) + book.line + Data("}\n".utf8) }
        var writer = JSONWriter(compact: true)
        for id in transaction.removed {
            writer.object { w in w.field("remove", id) }
            data += writer.take() + Data("\n".utf8)
        }
        if let clubs = transaction.clubs { data += Data(#"{"clubs":"#.utf8) + clubs + Data("}\n".utf8) }
        let commit = transaction.commit
        writer.object { w in
            w.field("commit")
            w.object { w in
                w.field("historyLength", commit.historyLength)
                w.field("state", commit.state)
                w.field("undoLength", commit.undoLength)
            }
            w.field("length", data.count)
        }
        return data + Seal.seal(writer.take(), covering: data) + Data("\n".utf8)
    }
}

/// What a command reads of the library: which books, and which of them with every progress entry.
///
/// The snapshot holds the latest entry of each reading; the rest is in the history, read only for the
/// books a scope names, so that a command about one book reads one book however many the store holds.
/// A book loaded without its history holds the latest entry of each reading and nothing else.
///
/// ```swift
/// storage.persistence(lockTimeout: nil, scope: .book(named: "dune").withHistory)
/// storage.persistence(lockTimeout: nil, scope: .everything.withHistory { Set($0.clubs.compactMap(\.bookID)) })
/// ```
public struct LibraryScope {
    public enum Books: Equatable, Sendable {
        case everything
        /// The book a reference names, by the rules of `Library.resolve`; a reference that names no book,
        /// or several, fails the load with the error `resolve` gives.
        case book(named: String)
        /// These books, those of them that are in the store.
        case books(Set<Book.ID>)
    }

    public var books: Books
    /// The loaded books that come with every entry, chosen from the books as the snapshot has them.
    var history: (Library) -> Set<Book.ID>

    public static var everything: LibraryScope { LibraryScope(books: .everything, history: { _ in [] }) }
    public static func book(named reference: String) -> LibraryScope {
        LibraryScope(books: .book(named: reference), history: { _ in [] })
    }
    public static func books(_ ids: Set<Book.ID>) -> LibraryScope {
        LibraryScope(books: .books(ids), history: { _ in [] })
    }

    /// The same books, each with its full history.
    public var withHistory: LibraryScope {
        LibraryScope(books: books, history: { Set($0.books.map(\.id)) })
    }

    /// The same books, those that `choose` names with their full history; `choose` sees them with
    /// the latest entries only.
    public func withHistory(of choose: @escaping (Library) -> Set<Book.ID>) -> LibraryScope {
        LibraryScope(books: books, history: choose)
    }
}

extension LibraryFiles {
    func library(in scope: LibraryScope) throws -> Library {
        var library = try library(of: scope.books)
        let ids = scope.history(library)
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

    private func library(of books: LibraryScope.Books) throws -> Library {
        switch books {
        case .everything:
            return try library(allLines().map(\.line))
        case .books(let ids):
            return try library(ids.sorted().compactMap { try lineReadingAll(of: $0) })
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
                let title =
                    try book.line.withUnsafeBytes { JSONLine.string("title", in: $0) }
                    ?? JSONCoding.decode(StoredBook.self, from: book.line, path: path).title
                return Entry(id: book.id, title: title, line: book.line)
            }
            let found = try Reference.book(reference, in: entries, id: \.id, title: \.title) { entry in
                let book = try? JSONCoding.decode(StoredBook.self, from: entry.line, path: path)
                return BookClubError.Candidate(
                    id: entry.id, title: entry.title, author: book?.author, added: book?.added)
            }
            return try library([found.line])
        }
    }
}
