#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading the committed state: the snapshot, then the journal's whole transactions laid over it.
extension LibraryFiles {
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
                let found = Self.generation(ofJournal: journal)
                if let previousGeneration, generation != nil, found != previousGeneration { throw foreignJournal }
                return
            }
        }
    }

    /// The generation a journal's first line names; `nil` when it names none.
    static func generation(ofJournal journal: Data) -> String? {
        journal.prefix { $0 != 0x0A }.withUnsafeBytes { JSONLine.string("generation", in: $0) }
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

    init(storage: LibraryStorage, snapshot: Data?) throws {
        self.storage = storage
        guard let data = snapshot else { return }
        snapshotBytes = data
        if try !readLayout(of: data) { try readDocument(data) }
        // The index of names vouches for the snapshot's layout: bookclub wrote it from this very
        // snapshot (its generation, size and time of change), split whole. Without one, the snapshot
        // is split now, and one that does not split (edited by hand) is read as one document.
        if snapshotRun != nil {
            nameIndex = nameIndexHeader.flatMap {
                NameIndex(reading: storage.namesPath, header: $0, fileSystem: fileSystem)
            }
            if nameIndex == nil, let run = snapshotRun {
                splitBooks = Self.split(run)
                if splitBooks == nil {
                    snapshotRun = nil
                    try readDocument(data)
                }
            }
        }
        guard commit.historyLength >= 0 else {
            throw BookClubError.corruptFile(path: path, detail: "at `historyLength`: expected a size of 0 or more")
        }
    }

    /// Reads a snapshot laid out as bookclub writes it; `false` when it is laid out otherwise.
    private mutating func readLayout(of data: Data) throws -> Bool {
        let opening = Data(utf8: "{\n  \"books\" : [\n")
        guard data.starts(with: opening) else { return false }
        // Near the end, after the books: only the clubs and the header follow.
        let booksEnd = data.withUnsafeBytes { JSONLine.searchBackward(Array("\n  ],\n  \"clubs\" : ".utf8), in: $0) }
        guard let booksEnd, booksEnd >= opening.count - 1 else { return false }
        // The rest, from `"clubs"`, is an object once it is opened again.
        let rest = Data(utf8: "{") + data[(data.startIndex + booksEnd + 5)...]
        guard let header = Header.scan(rest) ?? JSONCoding.decodeLine(Header.self, from: rest),
            let clubs = rest.withUnsafeBytes({ JSONLine.value(of: "clubs", in: $0).map { Data($0) } })
        else { return false }
        try LibraryStorage.check(header.schemaVersion, path: path)
        version = header.schemaVersion
        generation = header.generation
        previousGeneration = header.previousGeneration
        commit = Commit(historyLength: header.historyLength, state: header.state ?? "", undoLength: header.undoLength)
        self.clubs = clubs
        snapshotRun = data[(data.startIndex + opening.count - 1)..<(data.startIndex + booksEnd)]
        return true
    }

    /// Reads a snapshot as one document: one of an earlier schema, or one edited by hand.
    private mutating func readDocument(_ data: Data) throws {
        let document = try Self.document(data, path: path)
        try LibraryStorage.check(document.schemaVersion, path: path)
        version = document.schemaVersion
        generation = document.generation
        previousGeneration = document.previousGeneration
        commit = Commit(
            historyLength: document.historyLength, state: document.state ?? "", undoLength: document.undoLength)
        clubs = try Self.line(for: document.clubs ?? [])
        snapshotBooks = document.books.map { Self.line(for: $0) }
    }

    static func document(_ data: Data, path: String) throws -> Document {
        let document: Document
        do {
            document = try JSONCoding.decode(Document.self, from: data, path: path)
        } catch {
            // The header alone explains a failure that a newer schema may well cause.
            let header = try JSONCoding.decode(SchemaHeader.self, from: data, path: path)
            if let version = header.schemaVersion { try LibraryStorage.check(version, path: path) }
            throw error
        }
        return document
    }

    /// Lays the journal's committed transactions over the snapshot; `false` when the journal is of
    /// another generation (left by a fold that was cut short, or written since the snapshot was read).
    mutating func lay(_ journal: Data) throws -> Bool {
        try journal.withUnsafeBytes { try lay(journal, bytes: $0) }
    }

    /// Reads the journal's lines in place, by their offsets in `bytes` (its bytes): every command reads
    /// a journal of up to `journalLimit`, and a line made a `Data` of its own costs a few hundred
    /// instructions each time it is sliced, compared or appended.
    private mutating func lay(_ journal: Data, bytes: UnsafeRawBufferPointer) throws -> Bool {
        let journalPath = storage.journalPath
        /// The bytes at `range` of the journal, as a `Data` that shares its storage.
        func slice(_ range: Range<Int>) -> Data {
            journal[(journal.startIndex + range.lowerBound)..<(journal.startIndex + range.upperBound)]
        }
        var pending = Transaction(commit: commit)
        var committed: Range<Int>?
        var unreadable: Int?
        /// The first line of a transaction whose checksum failed: from there on, nothing committed.
        var torn: Int?
        var transactionStart = 0
        var firstLine = 2
        var lineNumber = 0
        var start = 0
        while start < bytes.count,
            let hit = firstByte(0x0A, at: bytes.baseAddress! + start, count: bytes.count - start)
        {
            let newline = bytes.baseAddress!.distance(to: hit)
            let line = start..<newline
            defer { start = newline + 1 }
            lineNumber += 1
            if lineNumber == 1 {
                guard let found = JSONLine.string("generation", in: UnsafeRawBufferPointer(rebasing: bytes[line]))
                else {
                    throw BookClubError.corruptFile(
                        path: journalPath, detail: "line 1: expected the journal's generation")
                }
                guard found == generation else { return false }
                journalLength = newline + 1
                transactionStart = newline + 1
                continue
            }
            switch Self.record(bytes, line) {
            case .book(let id, let book): pending.books.append((id, slice(book)))
            case .remove(let id): pending.removed.append(id)
            case .clubs(let raw): pending.clubs = slice(raw)
            case .entry(let entry):
                if pending.carried == nil { pending.carried = Carried() }
                pending.carried!.history.append(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + entry.lowerBound, count: entry.count)
                pending.carried!.history.append(0x0A)
            case .undo(let line, let offset, let rotates):
                if pending.carried == nil { pending.carried = Carried() }
                pending.carried!.undo = CarriedUndo(line: slice(line), offset: offset, rotates: rotates)
            case .commit:
                defer {
                    pending = Transaction(commit: commit)
                    unreadable = nil
                    transactionStart = newline + 1
                    firstLine = lineNumber + 1
                }
                guard Self.isWhole(bytes, line, covering: transactionStart..<start, slice: slice) else {
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
                noteCarried(pending.carried)
                committed = line
            case nil:
                unreadable = unreadable ?? lineNumber
            }
        }
        guard lineNumber > 0 else { return generation == nil }
        if let committed {
            guard let value = CommitLine.read(slice(committed)),
                value.commit.historyLength >= 0
            else {
                throw BookClubError.corruptFile(path: journalPath, detail: "the last commit cannot be read")
            }
            commit = value.commit
            journalLength = committed.upperBound + 1
        }
        return true
    }

    /// Whether the commit line at `line` of `bytes` and the transaction before it were written whole:
    /// sealed with a checksum that holds and the transaction's length, or (from a bookclub before 0.4)
    /// unsealed and readable.
    private static func isWhole(
        _ bytes: UnsafeRawBufferPointer, _ line: Range<Int>, covering transaction: Range<Int>,
        slice: (Range<Int>) -> Data
    ) -> Bool {
        let text = UnsafeRawBufferPointer(rebasing: bytes[line])
        switch Seal.check(text, covering: UnsafeRawBufferPointer(rebasing: bytes[transaction])) {
        case true?:
            guard let length = JSONLine.value(of: "length", in: text, first: true) else { return false }
            var count = String(transaction.count)
            return count.withUTF8 { count in
                count.count == length.count && sameBytes(count.baseAddress!, length.baseAddress!, count: count.count)
            }
        case false?: return false
        case nil: return CommitLine.read(slice(line)).map { $0.length == nil } ?? false
        }
    }

    /// A line of the journal, its parts as ranges of the journal's bytes.
    private enum Record {
        case book(Book.ID, Range<Int>)
        case remove(Book.ID)
        case clubs(Range<Int>)
        /// A line of the history the transaction carries (`Carried`).
        case entry(Range<Int>)
        /// The undo record it carries.
        case undo(Range<Int>, offset: Int, rotates: Bool)
        case commit
    }

    private static func record(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> Record? {
        let base = bytes.baseAddress!
        func starts(_ range: Range<Int>, with prefix: StaticString) -> Bool {
            range.count >= prefix.utf8CodeUnitCount
                && sameBytes(base + range.lowerBound, prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        }
        /// What `{"<key>":…}` wraps.
        func wrapped(_ prefix: StaticString) -> Range<Int>? {
            let count = prefix.utf8CodeUnitCount
            guard line.count > count + 1, bytes[line.upperBound - 1] == UInt8(ascii: "}"), starts(line, with: prefix)
            else { return nil }
            return (line.lowerBound + count)..<(line.upperBound - 1)
        }
        if let book = wrapped(#"{"book":"#) {
            return JSONLine.string("id", in: UnsafeRawBufferPointer(rebasing: bytes[book]), first: true).map {
                .book($0, book)
            }
        }
        if wrapped(#"{"commit":"#) != nil { return .commit }
        if let raw = wrapped(#"{"remove":"#) {
            return JSONCoding.decodeLine(String.self, from: Data(UnsafeRawBufferPointer(rebasing: bytes[raw]))).map {
                .remove($0)
            }
        }
        if let raw = wrapped(#"{"clubs":"#) { return .clubs(raw) }
        if let entry = wrapped(#"{"entry":"#) { return .entry(entry) }
        if let carried = wrapped(#"{"at":"#) {
            // `N,"undo":{…}` or `N,"newUndo":{…}`.
            var end = carried.lowerBound
            var offset = 0
            while end < carried.upperBound, (0x30...0x39).contains(bytes[end]) {
                // At most a terabyte: no log is longer, and the sums of offsets cannot overflow.
                guard end - carried.lowerBound < 13 else { return nil }
                offset = offset * 10 + Int(bytes[end] - 0x30)
                end += 1
            }
            guard end > carried.lowerBound else { return nil }
            let rest = end..<carried.upperBound
            if starts(rest, with: #","undo":"#) {
                return .undo((end + 8)..<carried.upperBound, offset: offset, rotates: false)
            }
            if starts(rest, with: #","newUndo":"#) {
                return .undo((end + 11)..<carried.upperBound, offset: offset, rotates: true)
            }
        }
        return nil
    }

    mutating func apply(_ transaction: Transaction) {
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
}
