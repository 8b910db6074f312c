#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writing a change: planned whole before anything is written, then appended to the journal as
/// one transaction, or folded into a new snapshot.
extension LibraryFiles {
    /// How a transaction will be committed, worked out (every book decoded, every byte encoded) before
    /// anything is written, so that a store that cannot take it fails the command with no file changed.
    enum Plan {
        /// Append these lines to the journal of this committed length.
        case append(Data, at: Int)
        /// Write this snapshot of a new generation, and start its journal.
        case fold(snapshot: Data, generation: String)
    }

    /// The most the journal holds before the next save writes a new snapshot instead: every command
    /// reads the whole journal, and a new snapshot costs little more than its bytes (`SnapshotBook`).
    static let journalLimit = 128 * 1024

    /// The most the books of a change of several books append to the journal: one of more (a batch or
    /// an import of a hundred books or so) folds at once, so that it pays for the snapshot rather than
    /// the next few writes, which would find the journal nearly full and fold it, every command until
    /// then reading it whole. A change of one book appends, however long its line (a long review, a
    /// device's hundreds of highlights).
    static let mostBookBytes = journalLimit / 4

    /// Appends the transaction to the journal, or writes a new snapshot (and an empty journal) when the
    /// journal would outgrow `journalLimit`, the transaction's books (more than one) take more than
    /// `mostBookBytes`, the snapshot is of an earlier schema or layout, or there is no journal of its
    /// generation.
    func plan(_ transaction: Transaction, folding: Bool = false) throws -> Plan {
        if !folding, let length = journalLength, version == LibraryStorage.schemaVersion, snapshotRun != nil,
            // A batch's lines are not written out only to be found too many.
            length + Self.leastJournalBytes(transaction) <= Self.journalLimit,
            transaction.books.count < 2 || Self.bookBytes(transaction) <= Self.mostBookBytes
        {
            let records = Self.journalLines(transaction)
            if length + records.count <= Self.journalLimit { return .append(records, at: length) }
        }
        var next = self
        next.apply(transaction)
        let generation = storage.ids.hex()
        let document = Document(
            books: [], clubs: try next.decodedClubs(), generation: generation,
            previousGeneration: try self.generation.map { try journalGenerationOnDisk() ?? $0 } ?? "",
            historyLength: next.commit.historyLength,
            schemaVersion: LibraryStorage.schemaVersion, state: next.commit.state, undoLength: next.commit.undoLength)
        // About the snapshot and the journal it folds.
        let room = snapshotSize + (journalLength ?? 0) + (64 << 10)
        return .fold(
            snapshot: try Self.snapshot(document, books: next.snapshotBooksToWrite(), room: room),
            generation: generation)
    }

    /// The generation the journal on disk starts with: the snapshot's own, or, after a fold cut short,
    /// the one the snapshot replaced. A new snapshot names it as the one it replaces, for it stays until
    /// the new journal is renamed over it (two folds cut short one after the other must leave a store
    /// that opens). `nil` when the journal is missing, empty, or starts otherwise.
    private func journalGenerationOnDisk() throws -> String? {
        try fileSystem.readRange(storage.journalPath, 0, 128).flatMap(Self.generation(ofJournal:))
    }

    /// A book as a new snapshot writes it.
    enum SnapshotBook {
        /// Its text in the snapshot, as it stands: a book of a snapshot of this schema laid out as
        /// bookclub writes it, which no change since has replaced, is written as it was.
        case text(Data)
        case book(StoredBook)
    }

    /// The books of the committed state, for a new snapshot: those of the snapshot that no change in
    /// the journal replaced as their text, the others decoded.
    private func snapshotBooksToWrite() throws -> [SnapshotBook] {
        let (books, asLaidOut) = try snapshotLines()
        let keepsText = asLaidOut && version == LibraryStorage.schemaVersion
        return try allLines(snapshot: books).map { id, line in
            keepsText && journalBooks[id] == nil
                ? .text(line) : .book(try StoredBook.decode(line, path: path))
        }
    }

    /// The snapshot's bytes, as JSONEncoder writes `document` (pretty, sorted keys) and a line break;
    /// the books written by hand (JSONEncoder spends about 10 µs an entry), or, given `books`, those.
    ///
    /// - Parameter room: about how many bytes it will take: they are moved into room made once, a
    ///   megabyte at a time, rather than held twice (as written, and as copied into `Data`).
    static func snapshot(_ document: Document, books: [SnapshotBook]? = nil, room: Int = 0) throws -> Data {
        var snapshot = Data(capacity: room)
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
            w.array(books ?? document.books.map { .book($0) }) { w, book in
                switch book {
                // The text as split from the snapshot, from its indent, which the array has written.
                case .text(let text): w.raw(text.dropFirst(4))
                case .book(let book): w.storedBook(book)
                }
                w.handOver(atLeast: StagedHistory.part) { snapshot.append(contentsOf: $0) }
            }
            if let clubs {
                w.field("clubs")
                w.text(clubs)
            }
            w.field("generation", document.generation)
            w.field("historyLength", document.historyLength)
            w.field("previousGeneration", document.previousGeneration)
            w.field("schemaVersion", document.schemaVersion)
            w.field("state", document.state)
            w.field("undoLength", document.undoLength)
        }
        writer.text("\n")
        snapshot.append(contentsOf: writer.bytes)
        return snapshot
    }

    /// Commits a transaction as planned: the append or the snapshot's rename is the commit.
    mutating func commit(_ transaction: Transaction) throws {
        try commit(transaction, as: plan(transaction))
    }

    mutating func commit(_ transaction: Transaction, as plan: Plan) throws {
        // What the journal will no longer carry (a new snapshot's starts empty), and what a commit
        // that carries nothing stands on, made durable first.
        if case .fold = plan {
            try syncHistoryAndUndo()
        } else if transaction.carried?.isEmpty ?? true {
            try syncHistoryAndUndo()
        }
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
            noteCarried(transaction.carried)
            journalLength = length + records.count
        case .fold(let snapshot, let generation):
            // The rows of the new snapshot's books, in its order: the listing's, the journal's books
            // and this change's over them, where the listing is whole (decoding every book again
            // would cost the fold some 100 million instructions at 4,600 books).
            var next = self
            next.apply(transaction)
            let rows = next.listedRows()?.rows
            let journal = try JSONCoding.encoder(pretty: false).encode(["generation": generation]) + Data(utf8: "\n")
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
            writeNameIndex()
            writeListing(rows)
        }
    }

    private func syncHistoryAndUndo() throws {
        try fileSystem.sync(storage.historyPath)
        try fileSystem.sync(storage.undoPath)
    }

    /// Adds what a committed transaction carries to `carried`; one that carries nothing starts it again.
    mutating func noteCarried(_ transaction: Carried?) {
        guard let transaction, !transaction.isEmpty else {
            carried = CarriedBytes()
            return
        }
        carried.history += transaction.history
        if let undo = transaction.undo {
            if undo.rotates { carried.undo = [] }
            carried.undo.append(undo)
        }
    }

    /// The bytes of the transaction's books' lines.
    private static func bookBytes(_ transaction: Transaction) -> Int {
        transaction.books.reduce(0) { $0 + $1.line.count }
    }

    /// Fewer bytes than `journalLines` makes of the transaction.
    private static func leastJournalBytes(_ transaction: Transaction) -> Int {
        bookBytes(transaction) + (transaction.clubs?.count ?? 0)
            + (transaction.carried?.history.count ?? 0) + (transaction.carried?.undo?.line.count ?? 0)
    }

    private static func journalLines(_ transaction: Transaction) -> Data {
        var data = Data()
        for book in transaction.books { data += Data(utf8: #"{"book":"#) + book.line + Data(utf8: "}\n") }
        var writer = JSONWriter(compact: true)
        for id in transaction.removed {
            writer.object { w in w.field("remove", id) }
            data += writer.take() + Data(utf8: "\n")
        }
        if let clubs = transaction.clubs { data += Data(utf8: #"{"clubs":"#) + clubs + Data(utf8: "}\n") }
        if let carried = transaction.carried {
            LibraryStorage.forEachLine(of: carried.history) { line in
                data.append(utf8: #"{"entry":"#)
                data.append(contentsOf: line)
                data.append(utf8: "}\n")
            }
            if let undo = carried.undo {
                let key = undo.rotates ? "newUndo" : "undo"
                data += Data(utf8: #"{"at":\#(undo.offset),"\#(key)":"#) + undo.line + Data(utf8: "}\n")
            }
        }
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
        return data + Seal.seal(writer.take(), covering: data) + Data(utf8: "\n")
    }
}
