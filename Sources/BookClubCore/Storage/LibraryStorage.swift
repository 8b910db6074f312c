#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the library is kept on disk: a snapshot of the books with a journal of changes beside it, and an
/// append-only history of every progress entry.
///
/// - `STORE` (`store.json`): the snapshot, pretty-printed JSON with sorted keys: each book with only
///   the *latest* entry of each reading, the clubs, and `historyLength`, the committed size of the
///   history. Rewritten only when the journal has grown to a quarter of its size.
/// - `STORE.journal`: JSON Lines, each change's changed books and a commit line, appended.
/// - `STORE.history`: JSON Lines, one progress entry a line, appended and never rewritten.
/// - `STORE.lock`: the lock file every read-modify-write holds (`flock(2)`; scripts may use `flock(1)`).
///
/// A save appends the new entries to the history (cutting away anything past `historyLength` that an
/// interrupted save left) and syncs it, then appends the changed books and a commit line to the
/// journal and syncs it: the commit line is the commit. So a `progress` write costs the same however
/// many books and entries the store holds, and a crash at any point leaves the last committed state.
/// A command about one book decodes that book's line only (`LibraryScope`); a book's full history is
/// read only when a command needs it (`show`, `notes`, `stats`, `export`).
public struct LibraryStorage {
    /// 1: books only. 2: clubs too. 3: with a journal, whose generation the snapshot names. A file of an
    /// earlier version is read as it is, and kept as `STORE.v1` (or `.v2`) the first time it is rewritten.
    public static let schemaVersion = 3

    public let path: String
    public let fileSystem: FileSystem
    /// Makes the ids of the states and snapshot generations a save writes.
    public let ids: IDSource

    public init(path: String, fileSystem: FileSystem, ids: IDSource) {
        self.path = path
        self.fileSystem = fileSystem
        self.ids = ids
    }

    public var historyPath: String { path + ".history" }
    public var journalPath: String { path + ".journal" }
    public var lockPath: String { path + ".lock" }
    /// Where this store's sync state is kept (see `SyncState`).
    public var syncStatePath: String { path + ".sync" }

    /// A cheap sign of the committed state, from two `stat`s: every commit appends to the journal or
    /// replaces the snapshot, and so changes it. Two equal signs mean no commit came between (a
    /// different sign may also mean only that a stopped save left bytes behind).
    public func fingerprint() throws -> String {
        let journal = try fileSystem.size(journalPath) ?? 0
        let snapshot = try fileSystem.size(path) ?? 0
        let modified = Int(fileSystem.modified(path)?.timeIntervalSince1970 ?? 0)
        return "\(journal) \(snapshot) \(modified)"
    }

    /// Where a store of an earlier schema is kept, as it was, before it is first rewritten.
    public func backupPath(version: Int) -> String { path + ".v\(version)" }

    /// The persistence of a library store. With `lockTimeout`, the store is locked first (and stays
    /// locked until the store goes away), then read: use it for commands that change the library.
    ///
    /// - Parameters:
    ///   - recording: the command line and time to record each save under in the undo log.
    ///   - scope: the books to load; a save writes the books that changed, so the others stay as they are.
    public func persistence(
        lockTimeout: Double?, recording: (command: String, time: Date)? = nil, scope: LibraryScope = .everything
    ) -> Persistence<Library> {
        persistence(lockTimeout: lockTimeout, recording: recording, scope: scope) { try LibraryFiles(reading: self) }
    }

    private func persistence(
        lockTimeout: Double?, recording: (command: String, time: Date)?, scope: LibraryScope,
        read: @escaping () throws -> LibraryFiles
    ) -> Persistence<Library> {
        var files: LibraryFiles?
        var unlock: (() -> Void)?
        return Persistence(
            load: {
                if let timeout = lockTimeout {
                    unlock = try fileSystem.lock(lockPath, timeout)
                    sweep()
                }
                let read = try read()
                files = read
                return try read.library(in: scope)
            },
            save: { old, new in
                guard var current = files else { return }
                // Everything that can fail comes before the first byte is written: the kind of each
                // file, the history's length, every byte to write (a new snapshot decodes every book).
                try checkFiles(committed: current.commit)
                let tails = LibraryFiles.HistoryTails(current)
                let (lines, newTails) = try Self.historyLines(
                    adding: new, to: old, at: current.commit.historyLength, tail: tails.tail(of:))
                let commit = LibraryFiles.Commit(
                    historyLength: current.commit.historyLength + lines.count, state: ids.hex())
                var (transaction, revert) = try Self.transaction(
                    from: old, to: new, commit: commit, before: current.commit,
                    tail: { newTails[$0] ?? tails.tail(of: $0) }, oldTail: tails.tail(of:))
                let undo = try recording.map { recording in
                    let change = Change(
                        time: recording.time, command: recording.command,
                        summary: ChangeSummary.describe(from: old, to: new), before: revert, after: commit.state)
                    return try record(change, committed: current.commit)
                }
                transaction.commit.undoLength = undo?.length
                let plan = try current.plan(transaction)

                // A failure from here on undoes what was written, so that a failed command changes no file.
                var rollback: [() -> Void] = []
                do {
                    try keepOriginal(of: current)
                    // A file's fsync makes its bytes durable, not its name: the folder is synced before
                    // the commit when a file the commit depends on may be new to it. The history is,
                    // while no commit has counted a byte of it (a stopped writer may have created it).
                    var syncsFolder = undo?.isNewToTheStore ?? false
                    if !lines.isEmpty {
                        let length = current.commit.historyLength
                        try fileSystem.append(historyPath, lines, length)
                        rollback.append { _ = try? fileSystem.append(historyPath, Data(), length) }
                        syncsFolder = syncsFolder || length == 0
                    }
                    if let undo {
                        try write(undo)
                        rollback.append { try? self.revert(undo) }
                    }
                    if syncsFolder { try fileSystem.syncFolder(path) }
                    try current.commit(transaction, as: plan)
                } catch {
                    // Unless the commit took place and only what follows it failed (the folder's sync
                    // after a new snapshot's rename): then the change stands, and its files with it.
                    if (try? LibraryFiles(reading: self).commit.state) != commit.state {
                        for step in rollback.reversed() { step() }
                    }
                    throw error
                }
                files = current
            },
            close: {
                unlock?()
                unlock = nil
            })
    }

    /// Refuses a store whose files a save could not change as it should: one that is not a plain file
    /// (a symbolic link would be replaced by a file, a folder or a pipe cannot be written), or a
    /// history shorter than the store counts.
    private func checkFiles(committed: LibraryFiles.Commit) throws {
        for file in [path, journalPath, historyPath, undoPath, previousUndoPath] {
            if let kind = fileSystem.kind(file) {
                let renaming =
                    "bookclub replaces its files by renaming a new one over them, which would replace the link"
                let advice =
                    switch kind {
                    case .symbolicLink where file == path:
                        renaming + ": give the real path with --store or BOOKCLUB_STORE"
                    case .symbolicLink: renaming + ": put the file itself in its place"
                    default: "bookclub keeps a file of its own there: move it away"
                    }
                throw BookClubError.io(path: file, cause: "is \(kind.rawValue); \(advice). Nothing was changed.")
            }
        }
        try checkHistory(committedLength: committed.historyLength)
    }

    /// Refuses a history shorter than the store counts, or missing.
    func checkHistory(committedLength length: Int) throws {
        guard let size = try fileSystem.size(historyPath) else {
            guard length == 0 else {
                throw BookClubError.corruptFile(
                    path: historyPath,
                    detail:
                        "is missing: \(path.lastPathComponent) counts \(length) bytes of progress entries in it. Put it back beside \(path.lastPathComponent) (from a backup, or the machine the store came from)"
                )
            }
            return
        }
        guard size >= length else { throw POSIXFile.tooShort(historyPath, size, length) }
    }

    /// Keeps a store of an earlier schema as it was, once, before it is first rewritten.
    private func keepOriginal(of files: LibraryFiles) throws {
        if files.version < Self.schemaVersion, let original = try fileSystem.read(path),
            try fileSystem.read(backupPath(version: files.version)) == nil
        {
            try fileSystem.writeAtomically(backupPath(version: files.version), original)
        }
    }

    /// Folds the journal into a new snapshot, so that `STORE` alone holds the library (before it is
    /// edited by hand, say: a change in the journal is newer than the snapshot and wins over it).
    /// Takes the store lock. Returns `false` when there was nothing to fold.
    public func foldJournal(lockTimeout: Double) throws -> Bool {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        sweep()
        var files = try LibraryFiles(reading: self)
        guard !files.isFolded, try fileSystem.read(path) != nil else { return false }
        try keepOriginal(of: files)
        let transaction = LibraryFiles.Transaction(commit: files.commit)
        try files.commit(transaction, as: files.plan(transaction, folding: true))
        return true
    }

    /// What `restartLostJournal` did.
    public struct JournalRestart: Equatable, Sendable {
        /// Progress entries past what the snapshot counts, put back into their readings.
        public var recovered = 0
        /// Lines past what the snapshot counts that could not be placed (of a book the snapshot does
        /// not hold, or not whole), kept as they were in `unplacedPath`.
        public var unplaced = 0
        public var unplacedPath: String
        /// Where the undo log was copied (its records hold the books as they were before each change
        /// the lost journal committed); `nil` when there was none.
        public var undoCopyPath: String?
    }

    /// Where `restartLostJournal` keeps the history's lines past what the snapshot counts until its
    /// commit, so that a power cut while the history is cut back and written again loses none of them.
    var recoveringPath: String { historyPath + ".recovering" }

    /// Starts a new journal when the snapshot's is missing or empty, going on from the snapshot and
    /// the history: the history's lines past what the snapshot counts (the entries the lost journal
    /// committed) are put back into their readings where they can be (a reading the snapshot does not
    /// hold is started again), the others are written to `STORE.history` + `suffix`, and the undo log
    /// is copied to `STORE.undo` + `suffix`, so that nothing is lost. The lines are first copied to
    /// `recoveringPath`, read again by a restart that a power cut stopped; the commit is a new snapshot.
    /// `nil` when the journal is neither missing nor empty. Takes the store lock.
    public func restartLostJournal(lockTimeout: Double, keepingAsideWith suffix: String) throws -> JournalRestart? {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        sweep()
        guard let files = try LibraryFiles.snapshotOfLostJournal(self) else {
            // Committed: what a restart kept for its commit is in the store.
            _ = fileSystem.remove(recoveringPath)
            return nil
        }
        var restart = JournalRestart(unplacedPath: historyPath + suffix)
        let undo = (try fileSystem.read(previousUndoPath) ?? Data()) + (try fileSystem.read(undoPath) ?? Data())
        if !undo.isEmpty {
            restart.undoCopyPath = undoPath + suffix
            try fileSystem.writeAtomically(undoPath + suffix, undo)
        }
        let counted = files.commit.historyLength
        let history = try fileSystem.read(historyPath) ?? Data()
        var tail = Data(history[(history.startIndex + min(counted, history.count))...])
        if let kept = try fileSystem.read(recoveringPath) {
            tail = kept + tail
        } else if !tail.isEmpty {
            try fileSystem.writeAtomically(recoveringPath, tail)
        }
        let persistence = persistence(lockTimeout: nil, recording: nil, scope: .everything.withHistory) { files }
        let snapshot = try persistence.load()
        var library = snapshot
        // Books added since the snapshot, as the undo log's records hold them, come back first.
        var missing = Set<Book.ID>()
        Self.forEachLine(of: tail) { line in
            if let record = try? record(line), library.index(of: record.book) == nil { missing.insert(record.book) }
        }
        library.books += try recordedContents(of: missing)
        var unplaced: [Data] = []
        var seen = Set<Data>()
        tail.withUnsafeBytes { tail in
            var start = 0
            while start < tail.count {
                let newline = tail[start...].firstIndex(of: 0x0A)
                let line = UnsafeRawBufferPointer(rebasing: tail[start..<(newline ?? tail.count)])
                start = (newline ?? tail.count) + 1
                // Only a whole line (its line break written) of an entry of a book the store holds.
                if newline != nil, let record = try? record(line), let entry = try? checked(record),
                    let book = library.books.firstIndex(where: { $0.id == record.book })
                {
                    var readings = library.books[book].readings
                    let reading: Int
                    if let found = readings.firstIndex(where: { $0.id == record.reading }) {
                        reading = found
                    } else {
                        readings.append(Reading(id: record.reading, started: entry.time))
                        reading = readings.count - 1
                    }
                    if !readings[reading].progress.entries.contains(where: { $0.id == entry.id }) {
                        readings[reading].progress.add(entry)
                        readings[reading].started = min(readings[reading].started ?? entry.time, entry.time)
                        restart.recovered += 1
                    }
                    library.books[book].readings = readings
                } else if line.contains(where: { $0 != 0x20 }), seen.insert(Data(line)).inserted {
                    unplaced.append(Data(line))
                }
            }
        }
        restart.unplaced = unplaced.count
        if !unplaced.isEmpty {
            try fileSystem.writeAtomically(restart.unplacedPath, unplaced.reduce(Data()) { $0 + $1 + Data("\n".utf8) })
        }
        // The history is cut back to what the snapshot counts and the entries put back are appended as
        // lines of their own; then the new snapshot, which counts them, commits.
        try persistence.save(snapshot, library)
        _ = fileSystem.remove(recoveringPath)
        return restart
    }

    /// The transaction that turns `old` into `new`, and the one that turns it back.
    private static func transaction(
        from old: Library, to new: Library, commit: LibraryFiles.Commit, before: LibraryFiles.Commit,
        tail: (Book.ID) -> Int?, oldTail: (Book.ID) -> Int?
    ) throws -> (LibraryFiles.Transaction, Revert) {
        func stored(_ book: Book, tail: (Book.ID) -> Int?) -> StoredBook {
            var stored = StoredBook(book)
            stored.historyTail = tail(book.id)
            return stored
        }
        var transaction = LibraryFiles.Transaction(commit: commit)
        var revert = Revert(books: [], absent: [], clubs: nil, historyLength: before.historyLength, state: before.state)
        let oldBooks = Dictionary(old.books.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.books.map(\.id))
        for book in new.books where oldBooks[book.id] != book {
            transaction.books.append((book.id, LibraryFiles.line(for: stored(book, tail: tail))))
            if let before = oldBooks[book.id] {
                revert.books.append(stored(before, tail: oldTail))
            } else {
                revert.absent.append(book.id)
            }
        }
        for book in old.books where !newIDs.contains(book.id) {
            transaction.removed.append(book.id)
            revert.books.append(stored(book, tail: oldTail))
        }
        if old.clubs != new.clubs {
            transaction.clubs = try LibraryFiles.line(for: new.clubs)
            revert.clubs = old.clubs
        }
        return (transaction, revert)
    }

    /// Removes what writers killed mid-save left; only under the store lock.
    func sweep() {
        for file in temporaryFiles { fileSystem.sweep(file) }
    }

    /// The files of the store written by way of a temporary file, each under the store lock: the
    /// temporaries a stopped writer left beside them are swept by the next writer.
    public var temporaryFiles: [String] { [path, journalPath, undoPath, syncStatePath, recoveringPath] }

    /// Every entry in the committed history of these books (of every book when `nil`), by reading id,
    /// in time order.
    public func history(of bookIDs: Set<Book.ID>?) throws -> [UUID: [ReadingProgress.Entry]] {
        try history(of: bookIDs, length: LibraryFiles(reading: self).commit.historyLength)
    }

    /// Every entry in the first `length` bytes of the history.
    func history(of bookIDs: Set<Book.ID>?, length: Int) throws -> [UUID: [ReadingProgress.Entry]] {
        // Before any line is read, so that a history cut short is reported as such, not as bad JSON.
        try checkHistory(committedLength: length)
        // A few books: only the lines holding their ids are read (a line that merely mentions one is
        // read, then passed over).
        let needles = bookIDs.flatMap { $0.count <= 16 ? $0.map { Array("\"\($0)\"".utf8) } : nil }
        var result: [UUID: [ReadingProgress.Entry]] = [:]
        // The readings of each book, noted at each one's first line: a book's new start drops them.
        var readings: [Book.ID: [UUID]] = [:]
        try forEachHistoryLine(length: length) { line in
            guard needles?.contains(where: { JSONLine.find($0, in: line) != nil }) ?? true else { return }
            let record = try self.record(line)
            guard bookIDs?.contains(record.book) ?? true else { return }
            if record.previous == -1, let earlier = readings.removeValue(forKey: record.book) {
                for reading in earlier { result[reading] = nil }
            }
            let entry = try checked(record)
            if result[record.reading]?.append(entry) == nil {
                result[record.reading] = [entry]
                readings[record.book, default: []].append(record.reading)
            }
        }
        return result.mapValues { ReadingProgress(entries: $0).entries }
    }

    /// Hands `body` each non-empty line of the first `length` bytes of the history, found with `memchr`.
    func forEachHistoryLine(length: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachHistoryLine(in: 0..<length) { line, _ in try body(line) }
    }

    /// The same for the bytes of `range` (which begins at a line's start), each line with its offset.
    func forEachHistoryLine(in range: Range<Int>, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        var read = 0
        try fileSystem.readLines(historyPath, range) { chunk in
            let chunkOffset = range.lowerBound + read
            read += chunk.count
            try chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                guard let base = bytes.baseAddress else { return }
                var start = 0
                while start < bytes.count {
                    let end =
                        firstByte(0x0A, at: base + start, count: bytes.count - start).map {
                            base.distance(to: UnsafeRawPointer($0))
                        }
                        ?? bytes.count
                    defer { start = end + 1 }
                    if end > start {
                        try body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), chunkOffset + start)
                    }
                }
            }
        }
        guard read == range.count else {
            throw POSIXFile.tooShort(historyPath, range.lowerBound + read, range.upperBound)
        }
    }

    /// A line of the history, read directly when bookclub wrote it, else by the decoder.
    func record(_ line: UnsafeRawBufferPointer) throws -> HistoryRecord {
        try HistoryLine.record(line) ?? JSONCoding.decode(HistoryRecord.self, from: Data(line), path: historyPath)
    }

    /// The same, for a line that should be of `book`; `nil` when it is of another.
    func record(_ line: UnsafeRawBufferPointer, ofBook book: Book.ID) throws -> HistoryRecord? {
        let record = try HistoryLine.record(line, ofBook: book) ?? self.record(line)
        return record.book == book ? record : nil
    }

    /// The record's entry; one out of bounds is refused.
    func checked(_ record: HistoryRecord) throws -> ReadingProgress.Entry {
        if let problem = Library.problem(with: record.entry) {
            throw BookClubError.corruptFile(path: historyPath, detail: "book \(record.book): \(problem)")
        }
        return record.entry
    }

    /// The entries of these books, found by following each one's chain back from its last line, so
    /// that a book's history costs its own lines however long the whole history is; `nil` when a chain
    /// does not hold (a line not of its book or not at a line's start, a link out of order, a line not
    /// chained), and the history must be read whole.
    func history(following chains: [(book: Book.ID, tail: Int)], length: Int) throws -> [UUID: [ReadingProgress.Entry]]?
    {
        try checkHistory(committedLength: length)
        var result: [UUID: [ReadingProgress.Entry]] = [:]
        for (book, tail) in chains {
            var offset = tail
            var end = length
            // Last line first: put back in the history's order, which breaks ties of time.
            var records: [HistoryRecord] = []
            // Lines of a book close together (a batch, an evening's reading) are read 64 KiB at a time.
            var window = (start: 0, bytes: Data())
            var isNear = false
            while offset != -1 {
                guard offset >= 0, offset < end else { return nil }
                let line =
                    try isNear
                    ? historyLine(at: offset, within: length, window: &window) : historyLine(at: offset, within: length)
                guard let line,
                    let record = line.withUnsafeBytes({ HistoryLine.record($0) })
                        ?? JSONCoding.decodeLine(HistoryRecord.self, from: line),
                    record.book == book, let previous = record.previous
                else { return nil }
                _ = try checked(record)
                records.append(record)
                (end, offset) = (offset, previous)
                isNear = end - offset <= 1024
            }
            for record in records.reversed() { result[record.reading, default: []].append(record.entry) }
        }
        return result.mapValues { ReadingProgress(entries: $0).entries }
    }

    /// The line of the history that begins at `offset` (the byte before it a line break), within the
    /// first `length` bytes; `nil` when there is no such line, or none shorter than 64 KiB. One
    /// `pread` for a line of bookclub's, the byte before it included.
    private func historyLine(at offset: Int, within length: Int) throws -> Data? {
        let start = max(offset - 1, 0)
        var text = Data()
        while start + text.count < length, text.count < 1 << 16 {
            let count = min(1024, length - start - text.count)
            guard let chunk = try fileSystem.readRange(historyPath, start + text.count, count), !chunk.isEmpty else {
                return nil
            }
            let searched = text.count
            text += chunk
            if offset > 0 && text.first != 0x0A { return nil }
            let from = text.startIndex + max(searched, offset > 0 ? 1 : 0)
            if let end = text[from...].firstIndex(of: 0x0A) {
                return Data(text[(text.startIndex + (offset > 0 ? 1 : 0))..<end])
            }
        }
        return nil
    }

    /// The same, from `window` (some 64 KiB of the history before the line), read anew when it does
    /// not hold the line.
    private func historyLine(at offset: Int, within length: Int, window: inout (start: Int, bytes: Data)) throws
        -> Data?
    {
        func inWindow() -> Data? {
            let (start, bytes) = window
            guard offset - 1 >= start || (offset == 0 && start == 0), offset < start + bytes.count else { return nil }
            let from = bytes.startIndex + offset - start
            guard let end = bytes[from...].firstIndex(of: 0x0A) else { return nil }
            // Not at a line's start: a line no chain leads to.
            guard offset == 0 || bytes[from - 1] == 0x0A else { return Data() }
            return Data(bytes[from..<end])
        }
        if let line = inWindow() { return line }
        let start = max(0, offset - (60 << 10))
        window = (start, try fileSystem.readRange(historyPath, start, min(64 << 10, length - start)) ?? Data())
        return try inWindow() ?? historyLine(at: offset, within: length)
    }

    static func check(_ version: Int, path: String) throws {
        guard version >= 1 else {
            throw BookClubError.corruptFile(path: path, detail: "at `schemaVersion`: expected 1 or more")
        }
        guard version <= schemaVersion else {
            throw BookClubError.newerSchema(path: path, found: version, supported: schemaVersion)
        }
    }

    /// JSON Lines for the entries in `new` that `old` does not have, to be appended at `base`, each
    /// chained to its book's line before it; and where each book's last line now begins.
    ///
    /// - Parameter tail: where a book's last line began before (`nil`: unknown, or no line).
    static func historyLines(
        adding new: Library, to old: Library, at base: Int, tail: (Book.ID) -> Int?
    ) throws -> (lines: Data, tails: [Book.ID: Int]) {
        var known = Set<UUID>()
        var hadEntries = Set<Book.ID>()
        for book in old.books {
            for reading in book.readings {
                for entry in reading.progress.entries { known.insert(entry.id) }
                if reading.progress.latest != nil { hadEntries.insert(book.id) }
            }
        }
        var writer = JSONWriter(compact: true)
        var tails: [Book.ID: Int] = [:]
        for book in new.books {
            for reading in book.readings {
                for entry in reading.progress.entries where !known.contains(entry.id) {
                    // Looked up only for a book with a new line (a search of the store's files). Its first
                    // line starts its chain (-1); after lines not chained, the chain is unknown (`nil`).
                    let previous =
                        tails[book.id] ?? tail(book.id) ?? (hadEntries.contains(book.id) ? nil : -1)
                    let offset = base + writer.bytes.count
                    writer.historyLine(book: book.id, reading: reading.id, entry: entry, previous: previous)
                    tails[book.id] = offset
                }
            }
        }
        return (writer.take(), tails)
    }
}

// MARK: - File formats

/// A book as the snapshot and the journal keep it: each reading with its latest entry only. Its
/// fields repeat `Book`'s on purpose: they are the file format (the CLI's `BookJSON` is another).
struct StoredBook: Codable, Equatable, Sendable {
    struct StoredReading: Codable, Equatable, Sendable {
        var id: UUID
        var started: Date?
        var ending: Ending?
        var resumed: [Ending]?
        var latest: ReadingProgress.Entry?
        var highlights: [Highlight]?
        /// See `ReadingProgress.withdrawn`; `nil` when there are none.
        var withdrawn: [UUID]?
    }

    var id: Book.ID
    var title: String
    var author: String?
    var pages: Int?
    var isbn: String?
    var coverName: String?
    var tags: [String]
    var rating: Double?
    var review: String?
    var privateNotes: String?
    var contributors: [Contributor]?
    var details: [String: [String]]?
    var added: Date
    var readings: [StoredReading]
    /// Where the book's last line in the history begins (see `HistoryRecord.previous`); `nil` when
    /// unknown, and the book's history is then read whole.
    var historyTail: Int? = nil

    var book: Book {
        Book(
            id: id, title: title, author: author, pages: pages, isbn: isbn, coverName: coverName, tags: tags,
            rating: rating, review: review, privateNotes: privateNotes, contributors: contributors, details: details,
            added: added,
            readings: readings.map {
                Reading(
                    id: $0.id, started: $0.started,
                    progress: ReadingProgress(
                        entries: $0.latest.map { [$0] } ?? [], withdrawn: Set($0.withdrawn ?? [])),
                    ending: $0.ending, resumed: $0.resumed, highlights: $0.highlights)
            })
    }
}

extension StoredBook {
    init(_ book: Book) {
        (id, title, author, pages, isbn, coverName, tags, added) =
            (book.id, book.title, book.author, book.pages, book.isbn, book.coverName, book.tags, book.added)
        (rating, review, privateNotes) = (book.rating, book.review, book.privateNotes)
        (contributors, details) = (book.contributors, book.details)
        readings = book.readings.map {
            StoredReading(
                id: $0.id, started: $0.started, ending: $0.ending, resumed: $0.resumed, latest: $0.progress.latest,
                highlights: $0.highlights,
                withdrawn: $0.progress.withdrawn.isEmpty
                    ? nil : $0.progress.withdrawn.sorted { $0.uuidString < $1.uuidString })
        }
    }

    /// Reads a book's line as Foundation's decoder would, Foundation left to read any line this cannot
    /// (a key it does not know, a `null`, a date of another form): about ten times faster, for `list`
    /// and every command that reads all the books. The fuzz tests hold the two to each other.
    static func decode(_ line: Data, path: String) throws -> StoredBook {
        try StoredBook(scanning: line) ?? JSONCoding.decode(StoredBook.self, from: line, path: path)
    }

    init?(scanning line: Data) {
        guard
            let book = line.withUnsafeBytes({ bytes -> StoredBook? in
                var scanner = JSONScanner(bytes: bytes)
                let book = StoredBook.scan(&scanner)
                return scanner.atEnd ? book : nil
            })
        else { return nil }
        self = book
    }

    private static func scan(_ scanner: inout JSONScanner) -> StoredBook? {
        var id: String?
        var title: String?
        var added: Date?
        var tags: [String]?
        var readings: [StoredReading]?
        var (author, isbn, coverName, review, privateNotes): (String?, String?, String?, String?, String?)
        var pages: Int?
        var rating: Double?
        var contributors: [Contributor]?
        var details: [String: [String]]?
        var historyTail: Int?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object { key, scanner in
            switch key {
            case "id" where seen.first(0): return scanner.read(&id)
            case "title" where seen.first(1): return scanner.read(&title)
            case "added" where seen.first(2): return scanner.read(&added)
            case "author" where seen.first(3): return scanner.read(&author)
            case "isbn" where seen.first(4): return scanner.read(&isbn)
            case "coverName" where seen.first(5): return scanner.read(&coverName)
            case "review" where seen.first(6): return scanner.read(&review)
            case "privateNotes" where seen.first(7): return scanner.read(&privateNotes)
            case "pages" where seen.first(8): return scanner.read(&pages)
            case "rating" where seen.first(9): return scanner.read(&rating)
            case "historyTail" where seen.first(14): return scanner.read(&historyTail)
            case "tags" where seen.first(10):
                tags = strings(&scanner)
                return tags != nil
            case "readings" where seen.first(11):
                var list: [StoredReading] = []
                guard scanner.array({ scanner in reading(&scanner).map { list.append($0) } != nil }) else {
                    return false
                }
                readings = list
            case "contributors" where seen.first(12):
                var list: [Contributor] = []
                let complete = scanner.array { scanner in
                    var name: String?
                    var role: String?
                    let complete = scanner.object { key, scanner in
                        switch key {
                        case "name" where name == nil: return scanner.read(&name)
                        case "role" where role == nil: return scanner.read(&role)
                        default: return false
                        }
                    }
                    guard complete, let name else { return false }
                    list.append(Contributor(name: name, role: role))
                    return true
                }
                guard complete else { return false }
                contributors = list
            case "details" where seen.first(13):
                var map: [String: [String]] = [:]
                guard
                    scanner.object({ key, scanner in
                        guard map[key] == nil, let values = strings(&scanner) else { return false }
                        map[key] = values
                        return true
                    })
                else { return false }
                details = map
            default: return false
            }
            return true
        }
        guard complete, let id, let title, let added, let tags, let readings else { return nil }
        return StoredBook(
            id: id, title: title, author: author, pages: pages, isbn: isbn, coverName: coverName, tags: tags,
            rating: rating, review: review, privateNotes: privateNotes, contributors: contributors, details: details,
            added: added, readings: readings, historyTail: historyTail)
    }

    private static func strings(_ scanner: inout JSONScanner) -> [String]? {
        var list: [String] = []
        let complete = scanner.array { scanner in
            guard let text = scanner.string() else { return false }
            list.append(text)
            return true
        }
        return complete ? list : nil
    }

    private static func reading(_ scanner: inout JSONScanner) -> StoredReading? {
        var id: UUID?
        var started: Date?
        var ending: Ending?
        var resumed: [Ending]?
        var latest: ReadingProgress.Entry?
        var highlights: [Highlight]?
        var withdrawn: [UUID]?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object { key, scanner in
            switch key {
            case "withdrawn" where seen.first(6):
                var list: [UUID] = []
                guard scanner.array({ scanner in scanner.uuid().map { list.append($0) } != nil }) else { return false }
                withdrawn = list
            case "highlights" where seen.first(5):
                var list: [Highlight] = []
                guard scanner.array({ scanner in highlight(&scanner).map { list.append($0) } != nil }) else {
                    return false
                }
                highlights = list
            case "id" where seen.first(0):
                id = scanner.uuid()
                return id != nil
            case "started" where seen.first(1): return scanner.read(&started)
            case "ending" where seen.first(2):
                ending = self.ending(&scanner)
                return ending != nil
            case "resumed" where seen.first(3):
                var list: [Ending] = []
                guard scanner.array({ scanner in self.ending(&scanner).map { list.append($0) } != nil }) else {
                    return false
                }
                resumed = list
            case "latest" where seen.first(4):
                latest = HistoryLine.entry(&scanner)
                return latest != nil
            default: return false
            }
            return true
        }
        guard complete, let id else { return nil }
        return StoredReading(
            id: id, started: started, ending: ending, resumed: resumed, latest: latest, highlights: highlights,
            withdrawn: withdrawn)
    }

    private static func highlight(_ scanner: inout JSONScanner) -> Highlight? {
        var (id, text, note, location, chapter, source): (String?, String?, String?, String?, String?, String?)
        var page: Int?
        var time: Date?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object { key, scanner in
            switch key {
            case "id" where seen.first(0): scanner.read(&id)
            case "text" where seen.first(1): scanner.read(&text)
            case "note" where seen.first(2): scanner.read(&note)
            case "location" where seen.first(3): scanner.read(&location)
            case "chapter" where seen.first(4): scanner.read(&chapter)
            case "source" where seen.first(5): scanner.read(&source)
            case "page" where seen.first(6): scanner.read(&page)
            case "time" where seen.first(7): scanner.read(&time)
            default: false
            }
        }
        guard complete, let id, let text, let source = source.flatMap(Highlight.Source.init(rawValue:)) else {
            return nil
        }
        return Highlight(
            id: id, text: text, note: note, page: page, location: location, chapter: chapter, time: time,
            source: source)
    }

    private static func ending(_ scanner: inout JSONScanner) -> Ending? {
        var outcome: Ending.Outcome?
        var date: Date?
        var note: String?
        var rating: Double?
        var review: String?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object { key, scanner in
            switch key {
            case "outcome" where seen.first(0):
                outcome = scanner.string().flatMap(Ending.Outcome.init(rawValue:))
                return outcome != nil
            case "date" where seen.first(1): return scanner.read(&date)
            case "note" where seen.first(2): return scanner.read(&note)
            case "review" where seen.first(3): return scanner.read(&review)
            case "rating" where seen.first(4): return scanner.read(&rating)
            default: return false
            }
        }
        guard complete, let outcome else { return nil }
        return Ending(outcome: outcome, date: date, note: note, rating: rating, review: review)
    }
}

/// A line of the history. `previous` is where the line before it of the same book begins, `-1` when
/// it is the book's first: a chain through the history that `show` follows back from the book's
/// `historyTail` rather than read every line. A book removed and back again (from another machine, or
/// imported again) starts a new chain: the lines before its new first line are no longer its history. `nil` in a line of an earlier bookclub, or one written
/// when the book's lines before it were not chained: the book's history is then read whole.
struct HistoryRecord: Codable {
    var book: Book.ID
    var reading: UUID
    var entry: ReadingProgress.Entry
    var previous: Int?
}

extension Book {
    /// Gives each reading every entry the history holds for it, taken out of `history`; the latest
    /// entry, which the snapshot holds, is kept should the history not have it.
    mutating func loadHistory(_ history: inout [UUID: [ReadingProgress.Entry]]) {
        // Taken out, so that the entries are not copied when added to.
        loadHistory { _, id in history.removeValue(forKey: id) ?? [] }
    }

    /// The same, `entries` giving the history's entries of the reading at an index, with an id.
    mutating func loadHistory(_ entries: (Int, UUID) -> [ReadingProgress.Entry]) {
        for index in readings.indices {
            var entries = entries(index, readings[index].id)
            let withdrawn = readings[index].progress.withdrawn
            if !withdrawn.isEmpty { entries.removeAll { withdrawn.contains($0.id) } }
            // The snapshot's one latest entry is the history's last, most likely: looked for from the end.
            let held = readings[index].progress.entries
            let loaded = held.count > 1 ? Set(entries.map(\.id)) : []
            entries += held.filter { entry in
                held.count > 1 ? !loaded.contains(entry.id) : !entries.reversed().contains { $0.id == entry.id }
            }
            readings[index].progress = ReadingProgress(entries: entries, withdrawn: withdrawn)
        }
        deriveFractions()
    }
}
