#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One change of the library, as `history` lists it and `undo` reverts it.
public struct Change: Codable, Equatable, Sendable {
    public var time: Date
    /// The command line that made it, e.g. `progress dune 120`.
    public var command: String
    /// What changed, e.g. `'Dune': p. 120`.
    public var summary: String
    /// What turns the store back to how it was before the change; `nil` in a record of bookclub 0.1,
    /// which kept the whole state file instead (such a change is listed, not undone).
    var before: Revert?
    /// The id of the state the change committed: the change can be undone while it is the latest.
    var after: String

    init(time: Date, command: String, summary: String, before: Revert, after: String) {
        (self.time, self.command, self.summary, self.before, self.after) = (time, command, summary, before, after)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(Date.self, forKey: .time)
        command = try container.decode(String.self, forKey: .command)
        summary = try container.decode(String.self, forKey: .summary)
        before = try? container.decode(Revert.self, forKey: .before)
        after = try container.decode(String.self, forKey: .after)
    }
}

/// The books and clubs a change replaced, as they were, and the committed history and state before it.
struct Revert: Codable, Equatable, Sendable {
    var books: [StoredBook]
    /// The books the change added.
    var absent: [Book.ID]
    /// `nil` when the change left the clubs alone.
    var clubs: [Club]?
    var historyLength: Int
    var state: String
}

/// The undo log, `STORE.undo`: JSON Lines, one `Change` a line, each sealed with its checksum
/// (`Seal`), the last few commands that changed the library. A change is recorded before it is
/// committed, so the log may hold records the store never committed (the writer was stopped, or the
/// power cut) and records of changes since undone. They are told apart by the store itself: the changes
/// the store holds are the record of its committed state, the record of the state before that, and so
/// on. `history` lists those and `undo` reverts the latest of them; the rest are passed over.
extension LibraryStorage {
    /// How many changes `undo` can go back, at least.
    public static let undoDepth = 20

    public var undoPath: String { path + ".undo" }

    /// The changes the store holds, oldest first.
    public func changes() throws -> [Change] {
        try changes(upTo: LibraryFiles(reading: self).commit.state)
    }

    /// The changes that led to `state`, oldest first, after those that bookclub 0.1 recorded at the
    /// start of the log (listed, never undone).
    func changes(upTo state: String) throws -> [Change] {
        let records = try records()
        let earliest = records.prefix { $0.before == nil }
        let byState = Dictionary(records.filter { $0.before != nil }.map { ($0.after, $0) }, uniquingKeysWith: { _, last in last })
        var chain: [Change] = []
        var state = state
        while chain.count < records.count, let change = byState[state], let before = change.before {
            chain.append(change)
            state = before.state
        }
        return earliest + chain.reversed()
    }

    /// Every record whole enough to read, oldest first; a line a power cut tore is passed over.
    private func records() throws -> [Change] {
        try lines().compactMap { line in
            Seal.check(line) == false ? nil : JSONCoding.decodeLine(Change.self, from: line)
        }
    }

    private func lines() throws -> [Data] {
        guard let data = try fileSystem.read(undoPath) else { return [] }
        return data.split(separator: 0x0A).map { Data($0) }
    }

    /// Reverts the latest change that is still in the store: the books and clubs it changed go back to
    /// what they were, and entries it added drop out of the committed history. Returns `nil` when there
    /// is nothing to undo. Takes the store lock.
    public func undo(lockTimeout: Double) throws -> Change? {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        sweep()
        var files = try LibraryFiles(reading: self)
        let changes = try changes(upTo: files.commit.state)
        // When no record is of the store's state (it was restored or edited by hand), nothing is undone.
        guard let change = changes.last, let revert = change.before else { return nil }
        var transaction = LibraryFiles.Transaction(
            commit: LibraryFiles.Commit(historyLength: revert.historyLength, state: revert.state))
        transaction.books = try revert.books.map { ($0.id, try LibraryFiles.line(for: $0)) }
        transaction.removed = revert.absent
        transaction.clubs = try revert.clubs.map(LibraryFiles.line(for:))
        try files.commit(transaction)
        // Committed: from here the undone record no longer leads to the store's state, whether or not
        // the log is rewritten.
        try writeChanges(Array(changes.dropLast()))
        return change
    }

    /// A change recorded in the log, ready to be written.
    struct Record {
        /// Appended to the log at this size, or (when `nil`) the whole log, trimmed, written anew.
        var offset: Int?
        var data: Data
        /// The whole log before a rewrite, to put back if the change fails.
        var previous: Data?
        /// Whether the log may be new to the store: empty, or not as the last commit left it (so a writer
        /// that never committed may have created it without syncing its folder).
        var isNewToTheStore: Bool
        /// The log's length once written.
        var length: Int { (offset ?? 0) + data.count }
    }

    /// Records a change about to be committed on top of `committed`, trimming the log now and then.
    func record(_ change: Change, committed: LibraryFiles.Commit) throws -> Record {
        let line = Seal.seal(try JSONCoding.encoder(pretty: false).encode(change))
        let size = try fileSystem.size(undoPath) ?? 0
        if size > 2 * Self.undoDepth * max(line.count, 1_000) {
            // Written whole and renamed in place, its folder synced.
            let changes = Array(try changes(upTo: committed.state).suffix(Self.undoDepth - 1)) + [change]
            return Record(offset: nil, data: try Self.log(changes), previous: try fileSystem.read(undoPath), isNewToTheStore: false)
        }
        // The leading line break ends any line an interrupted write left.
        let record = Data("\n".utf8) + line + Data("\n".utf8)
        return Record(offset: size, data: record, isNewToTheStore: size == 0 || committed.undoLength != size)
    }

    func write(_ record: Record) throws {
        if let offset = record.offset {
            try fileSystem.append(undoPath, record.data, offset)
        } else {
            try fileSystem.writeAtomically(undoPath, record.data)
        }
    }

    /// Puts the log back as it was before `record` was written.
    func revert(_ record: Record) throws {
        if let offset = record.offset {
            try fileSystem.append(undoPath, Data(), offset)
        } else if let previous = record.previous {
            try fileSystem.writeAtomically(undoPath, previous)
        }
    }

    private func writeChanges(_ changes: [Change]) throws {
        try fileSystem.writeAtomically(undoPath, Self.log(changes))
    }

    private static func log(_ changes: [Change]) throws -> Data {
        let encoder = JSONCoding.encoder(pretty: false)
        var data = Data()
        for change in changes { data += Seal.seal(try encoder.encode(change)) + Data("\n".utf8) }
        return data
    }
}

/// What stopped writers and power cuts leave past what the store committed. None of it is ever read as
/// committed: the next save cuts the journal and the history back, and the log's stale records are
/// passed over. `doctor` reports them and `doctor --fix` removes them.
public struct Leftovers: Equatable, Sendable {
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
    public func leftovers() throws -> Leftovers {
        try leftovers(of: LibraryFiles(reading: self))
    }

    private func leftovers(of files: LibraryFiles) throws -> Leftovers {
        var leftovers = Leftovers()
        if let length = files.journalLength { leftovers.journalBytes = max(0, (try fileSystem.size(journalPath) ?? 0) - length) }
        leftovers.historyBytes = max(0, (try fileSystem.size(historyPath) ?? 0) - files.commit.historyLength)
        leftovers.undoRecords = try lines().count - changes(upTo: files.commit.state).count
        return leftovers
    }

    /// Removes the leftovers under the store lock, and says what they were.
    public func cutLeftovers(lockTimeout: Double) throws -> Leftovers {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        let files = try LibraryFiles(reading: self)
        let leftovers = try leftovers(of: files)
        if leftovers.journalBytes > 0, let length = files.journalLength { try fileSystem.append(journalPath, Data(), length) }
        if leftovers.historyBytes > 0 { try fileSystem.append(historyPath, Data(), files.commit.historyLength) }
        if leftovers.undoRecords > 0 { try writeChanges(changes(upTo: files.commit.state)) }
        return leftovers
    }
}

/// What changed between two libraries, in a line: `added 'Dune'; 'Kindred': p. 120`.
public enum ChangeSummary {
    public static func describe(from old: Library, to new: Library) -> String {
        var parts: [String] = []
        let oldBooks = Dictionary(old.books.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.books.map(\.id))
        // An import adds many books at once: they are counted rather than listed.
        let added = new.books.filter { oldBooks[$0.id] == nil }
        if added.count > 3 { parts.append("added \(added.count) books") }
        for book in new.books {
            guard let before = oldBooks[book.id] else {
                if added.count <= 3 { parts.append("added '\(book.title)'") }
                continue
            }
            guard before != book else { continue }
            let title = "'\(book.title)'"
            if book.readings.count > before.readings.count, before.status != .unstarted {
                parts.append("\(title): started reading \(book.readings.count)")
            } else if book.status != before.status, book.status == .finished || book.status == .abandoned {
                parts.append("\(title): \(book.status.rawValue)")
            } else if before.status == .finished || before.status == .abandoned, book.status == .reading {
                parts.append("\(title): resumed")
            } else if let logged = Self.logged(before: before, after: book) {
                parts.append("\(title): \(logged)")
            } else {
                parts.append("\(title): edited")
            }
        }
        for book in old.books where !newIDs.contains(book.id) { parts.append("removed '\(book.title)'") }
        let oldClubs = Dictionary(old.clubs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newClubIDs = Set(new.clubs.map(\.id))
        for club in new.clubs where oldClubs[club.id] != club {
            parts.append(oldClubs[club.id] == nil ? "added the club '\(club.name)'" : "club '\(club.name)': changed")
        }
        for club in old.clubs where !newClubIDs.contains(club.id) { parts.append("removed the club '\(club.name)'") }
        return parts.isEmpty ? "no change" : parts.joined(separator: "; ")
    }

    /// The entries a change added to the current reading, as they were logged (`p. 120`; `p. 80,
    /// backdated` for one that went before the latest), or the latest entry when one was replaced.
    private static func logged(before: Book, after: Book) -> String? {
        guard let reading = after.currentReading, let latest = reading.progress.latest else { return nil }
        let earlier = Set(before.currentReading?.progress.entries.map(\.id) ?? [])
        let added = reading.progress.entries.filter { !earlier.contains($0.id) }
        if added.isEmpty {
            return latest != before.currentReading?.progress.latest ? ProgressText.place(latest) : nil
        }
        return added.map { ProgressText.place($0) + ($0.id != latest.id && $0.time < latest.time ? ", backdated" : "") }
            .joined(separator: ", ")
    }
}
