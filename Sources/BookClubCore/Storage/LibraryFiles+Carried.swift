#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The history's lines and undo records the journal carries (`LibraryFiles.Carried`), checked against
/// the files they were written to unsynced, and put back where a power cut took them.
extension LibraryFiles {
    /// Whether the history and the undo log hold what the journal carries, byte for byte; notes
    /// whether the undo records are in the log set aside. A file that is not a plain one (a link,
    /// say) is left to the command, which refuses it.
    mutating func carriedBytesAreInPlace() throws -> Bool {
        let undoIsInPlace = try carriedUndoIsInPlace()
        guard !carried.history.isEmpty, fileSystem.kind(storage.historyPath) == nil else { return undoIsInPlace }
        let base = commit.historyLength - carried.history.count
        return try undoIsInPlace && base >= 0
            && fileSystem.readRange(storage.historyPath, base, carried.history.count) == carried.history
    }

    private mutating func carriedUndoIsInPlace() throws -> Bool {
        carried.undoIsSetAside = false
        guard fileSystem.kind(storage.undoPath) == nil, try !holdsCarriedUndo(storage.undoPath) else { return true }
        // A save that sets the log aside syncs it first, and its commit carries only the record that
        // begins the new one: stopped before that commit, it left the records in the log set aside.
        carried.undoIsSetAside =
            try fileSystem.kind(storage.previousUndoPath) == nil && holdsCarriedUndo(storage.previousUndoPath)
        return carried.undoIsSetAside
    }

    /// Whether the log at `path` holds the undo records the journal carries, each where it was written.
    private func holdsCarriedUndo(_ path: String) throws -> Bool {
        guard let (first, end) = carriedUndoRange else { return true }
        guard try (fileSystem.size(path) ?? 0) >= end else { return false }
        // One read for every record: a run of commands carries one each.
        let log = try fileSystem.readRange(path, first, end - first) ?? Data()
        guard log.count == end - first else { return false }
        // Each record compared where it lies in the one read (`CarriedUndo.isIn`).
        return log.withUnsafeBytes { log in
            carried.undo.allSatisfy { $0.isIn(log.baseAddress! + ($0.offset - first)) }
        }
    }

    /// Where the undo records the journal carries lie in the log, from the first byte of one to the
    /// last.
    private var carriedUndoRange: (first: Int, end: Int)? {
        guard let first = carried.undo.map({ $0.offset }).min(),
            let end = carried.undo.map({ $0.end }).max()
        else { return nil }
        return (first, end)
    }

    /// Syncs the history and the undo log, and commits a change that carries nothing and changes
    /// nothing, so that the journal no longer carries what came before: before the undo log is
    /// written anew, or a record is appended to a new one while the records carried are in the log set
    /// aside. Nothing when the journal carries nothing.
    mutating func settleCarried() throws {
        guard !carried.history.isEmpty || !carried.undo.isEmpty else { return }
        try commit(Transaction(commit: commit))
    }

    /// Writes what the journal carries into the history and the undo log, and syncs them: the history
    /// from where its carried lines begin (what follows was never committed), the undo log from its
    /// first carried record (a gap a stopped writer's record left, and the power took, as empty lines).
    func putBackCarried() throws {
        try putBackHistory()
        try putBackUndo()
    }

    /// The most of the undo log a repair writes at once.
    static let largestUndoGap = 1 << 28

    private func putBackHistory() throws {
        if !carried.history.isEmpty, fileSystem.kind(storage.historyPath) == nil {
            let base = commit.historyLength - carried.history.count
            guard base >= 0 else {
                throw BookClubError.corruptFile(
                    path: storage.journalPath, detail: "carries more of the history than the store counts")
            }
            // Missing, or shorter than what was synced before: said as a command that reads it says it.
            try storage.checkHistory(committedLength: base)
            try fileSystem.append(storage.historyPath, carried.history, base)
        }
    }

    private func putBackUndo() throws {
        guard !carried.undoIsSetAside, let (first, end) = carriedUndoRange, fileSystem.kind(storage.undoPath) == nil
        else { return }
        let start = min(first, try fileSystem.size(storage.undoPath) ?? 0)
        // Between records, what stopped writers left: a batch's record may be megabytes, never this.
        guard end - start <= Self.largestUndoGap else {
            throw BookClubError.corruptFile(
                path: storage.journalPath, detail: "carries an undo record at byte \(end), past any log bookclub writes"
            )
        }
        var image = try fileSystem.readRange(storage.undoPath, start, end - start) ?? Data()
        image += Data(repeating: 0x0A, count: end - start - image.count)
        for undo in carried.undo {
            image.replaceSubrange((undo.offset - start)..<(undo.end - start), with: undo.bytes)
        }
        try fileSystem.append(storage.undoPath, image, start)
    }
}

extension LibraryStorage {
    /// How long a command that only reads waits for the store lock to put back what a power cut took.
    static let repairLockTimeout = 10.0

    /// The committed state, after putting back into the history and the undo log what the journal
    /// carries and a power cut took from them (which happens only after a power cut or a disk tool
    /// cut them). That takes the store lock: unless `locked` (the caller holds it), for as long as it
    /// takes.
    func readFiles(locked: Bool) throws -> LibraryFiles {
        var files = try LibraryFiles(reading: self)
        guard try !files.carriedBytesAreInPlace() else { return files }
        let unlock = locked ? {} : try fileSystem.lock(lockPath, Self.repairLockTimeout)
        defer { unlock() }
        var current = locked ? files : try LibraryFiles(reading: self)
        if try !current.carriedBytesAreInPlace() {
            try current.putBackCarried()
            current = try LibraryFiles(reading: self)
            guard try current.carriedBytesAreInPlace() else {
                throw BookClubError.io(
                    path: historyPath,
                    cause: "does not hold what was written back to it from \(journalPath.lastPathComponent)")
            }
        }
        return current
    }
}
