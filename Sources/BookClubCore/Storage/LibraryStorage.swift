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
///   history. Rewritten when the journal would outgrow 128 KiB, the books no change replaced copied as
///   they stand.
/// - `STORE.journal`: JSON Lines, each change's changed books and a commit line, appended.
/// - `STORE.history`: JSON Lines, one progress entry a line, appended and never rewritten.
/// - `STORE.lock`: the lock file every read-modify-write holds (`flock(2)`; scripts may use `flock(1)`).
///
/// A save appends the new entries to the history (cutting away anything past `historyLength` that an
/// interrupted save left) and its record to the undo log, unsynced, then appends the changed books,
/// the same entries and record (`LibraryFiles.Carried`) and a commit line to the journal and syncs
/// it: the commit line is the commit, and the journal's `fsync` the only one. So a `progress` write costs the same however
/// many books and entries the store holds, and a crash at any point leaves the last committed state.
/// A command about one book decodes that book's line only (`LibraryScope`); a book's full history is
/// read only when a command needs it (`show`, `notes`, `stats`, `export`).
public struct LibraryStorage {
    /// 1: books only. 2: clubs too. 3: with a journal, whose generation the snapshot names. 4: the
    /// journal's commits carry the history's lines and the undo record (`LibraryFiles.Carried`). A file
    /// of an earlier version is read as it is, and kept as `STORE.v1` (or `.v2`, `.v3`) the first time
    /// it is rewritten.
    public static let schemaVersion = 4

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
    /// The index of the snapshot's books by title (`NameIndex`): derived data.
    public var namesPath: String { path + ".names" }
    /// A row of each of the snapshot's books as `list` shows it (`BookRow`): derived data.
    public var listingPath: String { path + ".listing" }
    /// Where this store's sync state is kept (see `SyncState`).
    var syncStatePath: String { path + ".sync" }

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
    ///   - scope: the books to load; a save writes the books that changed, so the others stay as they
    ///     are. A scope that leaves the books' details out (`LibraryScope.listing`) is for reading
    ///     only: a save stops the process.
    ///   - didSave: told what each save changed, once it is committed (for the hooks and the sync log).
    ///   - staged: the history lines the command wrote before its save (`StagedHistory`), asked for
    ///     when it saves.
    public func persistence(
        lockTimeout: Double?, recording: (command: String, time: Date)? = nil, scope: LibraryScope = .everything,
        didSave: ((LibraryDiff) -> Void)? = nil, staged: @escaping () -> StagedHistory? = { nil }
    ) -> Persistence<Library> {
        persistence(lockTimeout: lockTimeout, recording: recording, scope: scope, didSave: didSave, staged: staged) {
            try readFiles(locked: lockTimeout != nil)
        }
    }

    func persistence(
        lockTimeout: Double?, recording: (command: String, time: Date)?, scope: LibraryScope,
        didSave: ((LibraryDiff) -> Void)? = nil, staged: @escaping () -> StagedHistory? = { nil },
        read: @escaping () throws -> LibraryFiles
    ) -> Persistence<Library> {
        var files: LibraryFiles?
        var unlock: (() -> Void)?
        var scope = scope
        return Persistence(
            load: {
                if let timeout = lockTimeout {
                    unlock = try fileSystem.lock(lockPath, timeout)
                    sweep()
                }
                var read = try read()
                let library = try read.library(in: scope)
                // What chose the histories (an operation, and what it holds: a batch's lines, an
                // import's file) is let go once they are read, rather than held until the store is.
                scope.history = { _ in [] }
                files = read
                return library
            },
            save: { old, new in
                guard var current = files else { return }
                precondition(!scope.leavesDetails, "a library loaded without its books' details was saved")
                // Everything that can fail comes before the first byte is written: the kind of each
                // file, the history's length, every byte to write (a new snapshot decodes every book).
                try checkFiles(committed: current.commit)
                var staged = staged() ?? StagedHistory(base: current.commit.historyLength)
                guard staged.base == current.commit.historyLength,
                    try fileSystem.size(historyPath) ?? 0 >= staged.base + staged.length
                else {
                    throw BookClubError.io(
                        path: historyPath, cause: "changed while a command wrote to it; nothing was changed")
                }
                let tails = LibraryFiles.HistoryTails(current)
                let diff = LibraryDiff(from: old, to: new)
                // The lines of a large change are written a part at a time as they are made, and then
                // stand as staged lines do (and are cut back as they are, should the save fail).
                var cutsBack = false
                defer { if cutsBack { _ = try? fileSystem.append(historyPath, Data(), staged.base) } }
                let (lines, written, newTails) = try Self.historyLines(
                    diff, at: staged.base + staged.length, tail: { staged.tails[$0] ?? tails.tail(of: $0) },
                    write: {
                        cutsBack = true
                        try fileSystem.write(historyPath, $0, $1)
                    })
                staged.length += written
                let commit = LibraryFiles.Commit(
                    historyLength: staged.base + staged.length + lines.count, state: ids.hex())
                var (transaction, revert) = try Self.transaction(
                    diff, commit: commit, before: current.commit,
                    tail: { newTails[$0] ?? staged.tails[$0] ?? tails.tail(of: $0) }, oldTail: tails.tail(of:))
                let undo = try recording.map { recording in
                    let change = UndoRecord(
                        time: recording.time, command: recording.command,
                        summary: diff.summary, before: revert, after: commit.state)
                    return try record(change, committed: current.commit)
                }
                transaction.commit.undoLength = undo?.length
                // A save stopped after it set the log aside: the records the journal carries are
                // looked for in one log, so those set aside are synced and a commit that carries
                // nothing says so.
                if current.carried.undoIsSetAside { try current.settleCarried() }
                // Lines staged before the save lie between those the journal carries and these: a commit
                // after staged lines carries nothing, and stands on the history and the log synced.
                transaction.carried =
                    staged.length > 0
                    ? nil
                    : LibraryFiles.Carried(
                        history: lines,
                        undo: undo.map {
                            LibraryFiles.CarriedUndo(line: $0.line, offset: $0.offset, rotates: $0.rotates)
                        })
                let plan = try current.plan(transaction)

                // A failure from here on undoes what was written, so that a failed command changes no file.
                var rollback: [() -> Void] = []
                if staged.length > 0 {
                    rollback.append { _ = try? fileSystem.append(historyPath, Data(), staged.base) }
                }
                cutsBack = false
                do {
                    try keepOriginal(of: current)
                    // A file's fsync makes its bytes durable, not its name: the folder is synced before
                    // the commit when a file the commit depends on may be new to it. The history is,
                    // while no commit has counted a byte of it (a stopped writer may have created it).
                    var syncsFolder = undo?.isNewToTheStore ?? false
                    if staged.length > 0 { syncsFolder = syncsFolder || staged.base == 0 }
                    if !lines.isEmpty {
                        let length = staged.base + staged.length
                        try fileSystem.write(historyPath, lines, length)
                        rollback.append { _ = try? fileSystem.append(historyPath, Data(), length) }
                        syncsFolder = syncsFolder || length == 0
                    }
                    if let undo {
                        try write(undo)
                        rollback.append { try? self.revert(undo) }
                    }
                    if syncsFolder { try fileSystem.syncFolder(path) }
                    // The journal's fsync commits all three (`LibraryFiles.Carried`); a new snapshot
                    // syncs the history and the undo log first.
                    try current.commit(transaction, as: plan)
                    // A command that named its book by title found the index missing or out of date.
                    if case .append = plan {
                        if current.nameIndexIsUnusable { current.writeNameIndex() }
                        // A store of bookclub before the listing, or whose listing was lost.
                        if !current.hasListing { current.writeListing() }
                    }
                } catch {
                    // Unless the commit took place and only what follows it failed (the folder's sync
                    // after a new snapshot's rename): then the change stands, and its files with it.
                    if (try? LibraryFiles(reading: self).commit.state) != commit.state {
                        for step in rollback.reversed() { step() }
                    }
                    throw error
                }
                files = current
                didSave?(diff)
            },
            close: {
                unlock?()
                unlock = nil
            })
    }

    /// Refuses a store whose files a save could not change as it should: one that is not a plain file
    /// (a symbolic link would be replaced by a file, a folder or a pipe cannot be written), or a
    /// history shorter than the store counts.
    func checkFiles(committed: LibraryFiles.Commit) throws {
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

    /// Keeps a store of an earlier schema as it was, once, before it is first rewritten: with its
    /// journal (schema 3), as `STORE.v3.journal`.
    func keepOriginal(of files: LibraryFiles) throws {
        let backup = backupPath(version: files.version)
        if files.version < Self.schemaVersion, let original = try fileSystem.read(path),
            try fileSystem.read(backup) == nil
        {
            if let journal = try fileSystem.read(journalPath) {
                try fileSystem.writeAtomically(backup + ".journal", journal)
            }
            try fileSystem.writeAtomically(backup, original)
        }
    }

    /// Folds the journal into a new snapshot, so that `STORE` alone holds the library (before it is
    /// edited by hand, say: a change in the journal is newer than the snapshot and wins over it).
    /// Takes the store lock. Returns `false` when there was nothing to fold.
    func foldJournal(lockTimeout: Double) throws -> Bool {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        sweep()
        var files = try readFiles(locked: true)
        guard !files.isFolded, try fileSystem.read(path) != nil else { return false }
        try keepOriginal(of: files)
        let transaction = LibraryFiles.Transaction(commit: files.commit)
        try files.commit(transaction, as: files.plan(transaction, folding: true))
        return true
    }

    /// The journal's transaction for a change, and what the undo log keeps to turn it back.
    private static func transaction(
        _ diff: LibraryDiff, commit: LibraryFiles.Commit, before: LibraryFiles.Commit,
        tail: (Book.ID) -> Int?, oldTail: (Book.ID) -> Int?
    ) throws -> (LibraryFiles.Transaction, Revert) {
        func stored(_ book: Book, tail: (Book.ID) -> Int?) -> StoredBook {
            var stored = StoredBook(book)
            stored.historyTail = tail(book.id)
            return stored
        }
        var transaction = LibraryFiles.Transaction(commit: commit)
        var revert = Revert(books: [], absent: [], clubs: nil, historyLength: before.historyLength, state: before.state)
        for change in diff.books {
            if let book = change.after {
                transaction.books.append((book.id, LibraryFiles.line(for: stored(book, tail: tail))))
            } else {
                transaction.removed.append(change.id)
            }
            if let book = change.before {
                revert.books.append(stored(book, tail: oldTail))
            } else {
                revert.absent.append(change.id)
            }
        }
        if let (old, new) = diff.clubs {
            transaction.clubs = try LibraryFiles.line(for: new)
            revert.clubs = old
        }
        return (transaction, revert)
    }

    /// Removes what writers killed mid-save left; only under the store lock.
    func sweep() {
        // Their folder is listed once: there is seldom anything to sweep.
        let folder = path.parentPath.isEmpty ? "." : path.parentPath
        guard fileSystem.list(folder).contains(where: { $0.hasPrefix(".") && $0.contains(".tmp-") }) else { return }
        for file in temporaryFiles { fileSystem.sweep(file) }
    }

    /// The files of the store written by way of a temporary file, each under the store lock: the
    /// temporaries a stopped writer left beside them are swept by the next writer.
    var temporaryFiles: [String] {
        [path, journalPath, undoPath, syncStatePath, recoveringPath, namesPath, listingPath]
    }

    static func check(_ version: Int, path: String) throws {
        guard version >= 1 else {
            throw BookClubError.corruptFile(path: path, detail: "at `schemaVersion`: expected 1 or more")
        }
        guard version <= schemaVersion else {
            throw BookClubError.newerSchema(path: path, found: version, supported: schemaVersion)
        }
    }
}
