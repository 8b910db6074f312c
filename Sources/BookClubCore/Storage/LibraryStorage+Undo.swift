#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One change of the library, as `history` lists it and `undo` reverts it.
public struct UndoRecord: Codable, Equatable, Sendable {
    public var time: Date
    /// The command line that made it, e.g. `progress dune 120`; `syncCommand` for what a sync brought in.
    public var command: String
    /// What changed, e.g. `'Dune': p. 120`.
    public var summary: String
    /// What turns the store back to how it was before the change; `nil` in a record of bookclub 0.1,
    /// which kept the whole state file instead (such a change is listed, not undone).
    var before: Revert?
    /// The id of the state the change committed: the change can be undone while it is the latest.
    var after: String

    /// The command that changes from other machines are recorded under: `undo` does not take them back.
    public static let syncCommand = "sync"

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

/// The undo log, `STORE.undo`: JSON Lines, one `UndoRecord` a line, each sealed with its checksum
/// (`Seal`), the last few commands that changed the library. Once it holds `undoDepth` records it is
/// renamed to `STORE.undo.1` (replacing the one before) and a new log begins, so that the two hold
/// between `undoDepth` and twice as many changes and no save rewrites them, however large a change
/// (a batch, an import) some record holds. A change is recorded before it is
/// committed, so the log may hold records the store never committed (the writer was stopped, or the
/// power cut) and records of changes since undone. They are told apart by the store itself: the changes
/// the store holds are the record of its committed state, the record of the state before that, and so
/// on. `history` lists those and `undo` reverts the latest of them; the rest are passed over.
extension LibraryStorage {
    /// How many changes `undo` can go back, at least.
    public static let undoDepth = 20

    public var undoPath: String { path + ".undo" }
    /// The log before the current one.
    public var previousUndoPath: String { undoPath + ".1" }

    /// The changes the store holds, oldest first.
    public func changes() throws -> [UndoRecord] {
        try changes(upTo: readFiles(locked: false).commit.state)
    }

    /// The changes that led to `state`, oldest first, after those that bookclub 0.1 recorded at the
    /// start of the log (listed, never undone).
    func changes(upTo state: String) throws -> [UndoRecord] {
        let previous = try fileSystem.read(previousUndoPath) ?? Data()
        return Self.changes(upTo: state, in: previous + Data(utf8: "\n") + (try fileSystem.read(undoPath) ?? Data()))
    }

    /// The same, from the log's bytes already read.
    static func changes(upTo state: String, in log: Data?) -> [UndoRecord] {
        let records = records(in: log)
        let earliest = records.prefix { $0.before == nil }
        let byState = Dictionary(
            records.filter { $0.before != nil }.map { ($0.after, $0) }, uniquingKeysWith: { _, last in last })
        var chain: [UndoRecord] = []
        var state = state
        while chain.count < records.count, let change = byState[state], let before = change.before {
            chain.append(change)
            state = before.state
        }
        return earliest + chain.reversed()
    }

    /// Every record of the log whole enough to read, oldest first; a line a power cut tore is passed over.
    private static func records(in log: Data?) -> [UndoRecord] {
        lines(of: log).compactMap { line in
            Seal.check(line) == false ? nil : JSONCoding.decodeLine(UndoRecord.self, from: line)
        }
    }

    /// The non-empty lines of the log.
    static func lines(of log: Data?) -> [Data] {
        var lines: [Data] = []
        forEachLine(of: log) { lines.append(Data($0)) }
        return lines
    }

    /// Hands each non-empty line of the log to `body`, found with `memchr` (Data's own `split` goes a
    /// byte at a time, and copies).
    static func forEachLine(of log: Data?, _ body: (UnsafeRawBufferPointer) -> Void) {
        log?.withUnsafeBytes { forEachLine(of: $0, body) }
    }

    /// The same, of bytes in place.
    static func forEachLine(of bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            let end =
                firstByte(0x0A, at: base + start, count: bytes.count - start).map { base.distance(to: $0) }
                ?? bytes.count
            if end > start { body(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
            start = end + 1
        }
    }

    /// The books of `ids` as they were before the latest change of the store that took them out (a
    /// `remove`), each with its whole history, from the records of the changes the store holds; books
    /// none of those records hold are left out. What a sync sends of a book this device removed before
    /// it had sent all it logged of it, so that the book has everything should another device's
    /// change bring it back.
    func lastContents(of ids: Set<Book.ID>) throws -> [Book] {
        guard !ids.isEmpty else { return [] }
        var found: [Book.ID: Book] = [:]
        for change in try changes().reversed() {
            guard let revert = change.before, change.command != UndoRecord.syncCommand else { continue }
            for stored in revert.books where ids.contains(stored.id) && found[stored.id] == nil {
                found[stored.id] = book(stored, historyLength: revert.historyLength)
            }
            if found.count == ids.count { break }
        }
        return Array(found.values)
    }

    /// The books of `ids` as the newest record of the undo logs that holds each had it (the book as it
    /// was before a change), each with its history as far as that record counted; whether or not the
    /// store holds the change: what a lost journal's books can be put back from.
    func recordedContents(of ids: Set<Book.ID>) throws -> [Book] {
        guard !ids.isEmpty else { return [] }
        let log =
            (try fileSystem.read(previousUndoPath) ?? Data()) + Data(utf8: "\n")
            + (try fileSystem.read(undoPath) ?? Data())
        var found: [Book.ID: Book?] = [:]
        var order: [Book.ID] = []
        for change in Self.records(in: log).reversed() {
            guard let revert = change.before else { continue }
            for stored in revert.books where ids.contains(stored.id) && found[stored.id] == nil {
                // A book the change removed stays removed.
                guard !change.summary.contains("removed '\(stored.title)'") else {
                    found[stored.id] = .some(nil)
                    continue
                }
                found[stored.id] = book(stored, historyLength: revert.historyLength)
                order.append(stored.id)
            }
        }
        return order.reversed().compactMap { found[$0] ?? nil }
    }

    /// A book a record holds, with its history as far as the record counted (what of it can still be
    /// read: the book without it otherwise).
    private func book(_ stored: StoredBook, historyLength: Int) -> Book {
        var book = stored.book
        let chain = stored.historyTail.map { [(book: stored.id, tail: $0)] } ?? []
        if var history = try? chain.isEmpty
            ? history(of: [stored.id], length: historyLength)
            : history(following: chain, length: historyLength)
        {
            book.loadHistory(&history)
        }
        return book
    }

    /// Reverts the latest change that is still in the store: the books and clubs it changed go back to
    /// what they were, and entries it added drop out of the committed history. Returns `nil` when there
    /// is nothing to undo; refuses a change a sync brought in. Takes the store lock.
    public func undo(lockTimeout: Double) throws -> UndoRecord? {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        sweep()
        var files = try readFiles(locked: true)
        // As a save does: a pipe or a link where the history or the undo log belongs is refused, not
        // opened to be cut or rewritten (a pipe would hold the command forever).
        try checkFiles(committed: files.commit)
        try keepOriginal(of: files)
        let changes = try changes(upTo: files.commit.state)
        // When no record is of the store's state (it was restored or edited by hand), nothing is undone.
        guard let change = changes.last, let revert = change.before else { return nil }
        if change.command == UndoRecord.syncCommand { throw BookClubError.syncedChange(summary: change.summary) }
        var transaction = LibraryFiles.Transaction(
            commit: LibraryFiles.Commit(historyLength: revert.historyLength, state: revert.state))
        transaction.books = revert.books.map { ($0.id, LibraryFiles.line(for: $0)) }
        transaction.removed = revert.absent
        transaction.clubs = try revert.clubs.map(LibraryFiles.line(for:))
        try files.commit(transaction)
        // Committed: from here the undone record no longer leads to the store's state, whether or not
        // the log is rewritten.
        try writeChanges(Array(changes.dropLast()))
        // The entries the change added are past the committed history now: cut, so that the history
        // ends where the store counts (left, they would be cut by the next save).
        _ = try? fileSystem.append(historyPath, Data(), revert.historyLength)
        return change
    }

    /// A change recorded in the log, ready to be written.
    struct Record {
        /// Appended to the log at this size; at 0 after the log is set aside (`rotates`).
        var offset: Int
        /// The record's line, sealed.
        var line: Data
        /// Whether the log becomes `STORE.undo.1` first, and the record begins a new one.
        var rotates = false
        /// Whether the log may be new to the store: empty, or not as the last commit left it (so a writer
        /// that never committed may have created it without syncing its folder).
        var isNewToTheStore: Bool
        /// What is appended to the log: the line, after a line break that ends any line an
        /// interrupted write left, unless it begins a new log.
        var data: Data { Self.bytes(of: line, rotates: rotates) }
        /// The log's length once written.
        var length: Int { offset + data.count }

        static func bytes(of line: Data, rotates: Bool) -> Data {
            var bytes = Data(capacity: line.count + 2)
            if !rotates { bytes.append(0x0A) }
            bytes.append(line)
            bytes.append(0x0A)
            return bytes
        }
    }

    /// Records a change about to be committed on top of `committed`: appended to the log, or, when the
    /// log holds `undoDepth` records, the first of a new one.
    func record(_ change: UndoRecord, committed: LibraryFiles.Commit) throws -> Record {
        let size = try fileSystem.size(undoPath) ?? 0
        // Mapped, not read: only the pages of the last records are touched (`recordCount`). The log
        // is cut in place only by a holder of the store's lock, as this save is (see `map`).
        let records = size == 0 ? 0 : Self.recordCount(of: try fileSystem.map(undoPath) ?? Data(), upTo: Self.undoDepth)
        if records >= Self.undoDepth {
            return Record(
                offset: 0, line: Seal.seal(try Self.line(for: change, at: 0)), rotates: true, isNewToTheStore: true)
        }
        // After the line break that ends any line an interrupted write left (`Record.bytes`).
        return Record(
            offset: size, line: Seal.seal(try Self.line(for: change, at: size + 1)),
            isNewToTheStore: size == 0 || committed.undoLength != size)
    }

    /// How many records (lines that are not empty) the log holds, counted from its end, up to
    /// `limit`. Every save counts them, and a batch's or an import's record is megabytes: a record
    /// ends with the place its line begins (`"at"`, before its seal), so the count steps from one
    /// record to the one before without reading what lies between. From a line that does not end so
    /// (torn, or written by an earlier bookclub), the lines before it are counted from the log's start.
    /// A record's bytes hold no line break, and bookclub writes none over them, so a place is taken
    /// when the byte before it ends a line: a log changed otherwise (by hand, or a power cut's garbage)
    /// can only be counted short, and set aside later.
    static func recordCount(of log: Data, upTo limit: Int) -> Int {
        log.withUnsafeBytes { bytes in
            var end = bytes.count
            var count = 0
            while count < limit {
                while end > 0, bytes[end - 1] == 0x0A { end -= 1 }
                guard end > 0 else { break }
                guard let place = placeOfLine(endingAt: end, in: bytes) else {
                    forEachLine(of: UnsafeRawBufferPointer(rebasing: bytes[..<end])) { _ in count += 1 }
                    break
                }
                count += 1
                end = place
            }
            return min(count, limit)
        }
    }

    /// The place a record says its line begins, `{…,"at":N,"crc":"…"}` ending at `end`, when the byte
    /// before it ends a line (or it begins the log); `nil` otherwise.
    private static func placeOfLine(endingAt end: Int, in bytes: UnsafeRawBufferPointer) -> Int? {
        let key = Array(#","at":"#.utf8)
        var index = end - Seal.sealLength
        guard index > key.count, bytes[end - 1] == UInt8(ascii: "}"), bytes[end - 2] == UInt8(ascii: "\""),
            Seal.key.withUnsafeBytes({ sameBytes(bytes.baseAddress! + index, $0.baseAddress!, count: $0.count) })
        else { return nil }
        var place = 0
        var scale = 1
        while index > key.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index - 1]), scale < 1 << 60 {
            index -= 1
            place += Int(bytes[index] - UInt8(ascii: "0")) * scale
            scale *= 10
        }
        guard scale > 1, sameBytes(bytes.baseAddress! + index - key.count, key, count: key.count),
            place < index - key.count, place == 0 || bytes[place - 1] == 0x0A, bytes[place] == UInt8(ascii: "{")
        else { return nil }
        return place
    }

    /// Writes the record unsynced: the journal's commit carries it (`LibraryFiles.Carried`). A log set
    /// aside is synced first: from the commit on, the journal carries only the records of the new one,
    /// and until then its records are found in the one set aside.
    func write(_ record: Record) throws {
        if record.rotates {
            try fileSystem.sync(undoPath)
            try fileSystem.rename(undoPath, previousUndoPath)
        }
        // A new log takes the name once the folder holds the rename that set the old one aside (this
        // save's, or one a stopped save made): a power cut could otherwise keep the new log's name and
        // lose the rename, and the log set aside with it.
        if record.offset == 0 { try fileSystem.syncFolder(path) }
        try fileSystem.write(undoPath, record.data, record.offset)
    }

    /// Takes back a record whose change failed. A log set aside stays aside: its records are still
    /// read, and the record that began the new one leads to no committed state.
    func revert(_ record: Record) throws {
        try fileSystem.append(undoPath, Data(), record.offset)
    }

    /// Writes the log anew with `changes` (after an `undo`), the one before it then no longer needed.
    func writeChanges(_ changes: [UndoRecord]) throws {
        try fileSystem.writeAtomically(undoPath, Self.log(changes))
        _ = fileSystem.remove(previousUndoPath)
    }

    private static func log(_ changes: [UndoRecord]) throws -> Data {
        var data = Data()
        for change in changes { data += Seal.seal(try line(for: change, at: data.count)) + Data(utf8: "\n") }
        return data
    }

    /// A record's line, before its seal, that begins at `place` in its log.
    static func line(for change: UndoRecord, at place: Int) throws -> Data {
        var writer = JSONWriter(compact: true)
        writer.change(change, clubs: try change.before?.clubs.map(LibraryFiles.line(for:)), at: place)
        return writer.take()
    }
}
