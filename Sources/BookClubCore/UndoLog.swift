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

/// The undo log, `STORE.undo`: JSON Lines, one `Change` a line, the last few commands that changed
/// the library. A change is recorded before it is committed; a record whose change never committed
/// (the writer was killed) no longer matches the store and is passed over.
extension LibraryStorage {
    /// How many changes `undo` can go back, at least.
    public static let undoDepth = 20

    public var undoPath: String { path + ".undo" }

    /// The recorded changes, oldest first.
    public func changes() throws -> [Change] {
        guard let data = try fileSystem.read(undoPath) else { return [] }
        // A line an interrupted write left is passed over.
        return data.split(separator: 0x0A).compactMap { JSONCoding.decodeLine(Change.self, from: Data($0)) }
    }

    /// Reverts the latest change that is still in the store: the books and clubs it changed go back to
    /// what they were, and entries it added drop out of the committed history. Returns `nil` when there
    /// is nothing to undo. Takes the store lock.
    public func undo(lockTimeout: Double) throws -> Change? {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        sweep()
        var files = try LibraryFiles(reading: self)
        let changes = try changes()
        // The latest record that matches the store; later ones are of commands that never committed.
        // When none matches (the store was restored or edited by hand), the log is left as it is.
        guard let index = changes.lastIndex(where: { $0.after == files.commit.state }), let revert = changes[index].before
        else { return nil }
        let change = changes[index]
        var transaction = LibraryFiles.Transaction(
            commit: LibraryFiles.Commit(historyLength: revert.historyLength, state: revert.state))
        transaction.books = try revert.books.map { ($0.id, try LibraryFiles.line(for: $0)) }
        transaction.removed = revert.absent
        transaction.clubs = try revert.clubs.map(LibraryFiles.line(for:))
        try files.commit(transaction)
        try writeChanges(Array(changes[..<index]))
        return change
    }

    /// Records a change about to be committed, trimming the log now and then.
    func record(_ change: Change) throws {
        let line = try JSONCoding.encoder(pretty: false).encode(change)
        let size = try fileSystem.size(undoPath) ?? 0
        if size > 2 * Self.undoDepth * max(line.count, 1_000) {
            try writeChanges(Array(try changes().suffix(Self.undoDepth - 1)) + [change])
        } else {
            // The leading line break ends any line an interrupted write left.
            try fileSystem.append(undoPath, Data("\n".utf8) + line + Data("\n".utf8), size)
        }
    }

    private func writeChanges(_ changes: [Change]) throws {
        let encoder = JSONCoding.encoder(pretty: false)
        var data = Data()
        for change in changes { data += try encoder.encode(change) + Data("\n".utf8) }
        try fileSystem.writeAtomically(undoPath, data)
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
