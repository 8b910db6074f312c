#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What stopped writers and power cuts leave past what the store committed. None of it is ever read as
/// committed: the next save cuts the journal and the history back, and the log's stale records are
/// passed over. `doctor` reports them and `doctor --fix` removes them.
struct Leftovers: Equatable, Sendable {
    /// Bytes after the journal's last whole commit.
    public var journalBytes: Int
    /// Bytes after the history's committed length.
    public var historyBytes: Int
    /// Lines of the undo log that are not records of changes the store holds.
    public var undoRecords: Int

    public init(journalBytes: Int = 0, historyBytes: Int = 0, undoRecords: Int = 0) {
        (self.journalBytes, self.historyBytes, self.undoRecords) = (journalBytes, historyBytes, undoRecords)
    }

    public var isEmpty: Bool { self == Leftovers() }
}

extension LibraryStorage {
    func leftovers() throws -> Leftovers {
        try leftovers(of: readFiles(locked: false))
    }

    private func leftovers(of files: LibraryFiles) throws -> Leftovers {
        var leftovers = Leftovers()
        if let length = files.journalLength {
            leftovers.journalBytes = max(0, (try fileSystem.size(journalPath) ?? 0) - length)
        }
        leftovers.historyBytes = max(0, (try fileSystem.size(historyPath) ?? 0) - files.commit.historyLength)
        let log = try fileSystem.read(undoPath)
        leftovers.undoRecords = Self.lines(of: log).count - Self.changes(upTo: files.commit.state, in: log).count
        return leftovers
    }

    /// Removes the leftovers under the store lock, and says what they were.
    func cutLeftovers(lockTimeout: Double) throws -> Leftovers {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        var files = try readFiles(locked: true)
        let leftovers = try leftovers(of: files)
        if leftovers.journalBytes > 0, let length = files.journalLength {
            try fileSystem.append(journalPath, Data(), length)
        }
        if leftovers.historyBytes > 0 { try fileSystem.append(historyPath, Data(), files.commit.historyLength) }
        if leftovers.undoRecords > 0 {
            // The log is written anew: the records the journal carries would no longer be where it says.
            try files.settleCarried()
            try writeChanges(changes(upTo: files.commit.state))
        }
        return leftovers
    }
}
