#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LibraryStorage {
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
    func restartLostJournal(lockTimeout: Double, keepingAsideWith suffix: String) throws -> JournalRestart? {
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
            try fileSystem.writeAtomically(restart.unplacedPath, unplaced.reduce(Data()) { $0 + $1 + Data(utf8: "\n") })
        }
        // The history is cut back to what the snapshot counts and the entries put back are appended as
        // lines of their own; then the new snapshot, which counts them, commits.
        try persistence.save(snapshot, library)
        _ = fileSystem.remove(recoveringPath)
        return restart
    }
}
