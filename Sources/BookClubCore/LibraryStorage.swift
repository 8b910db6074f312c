#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the library is kept on disk: a small current-state file and an append-only history beside it.
///
/// - `STORE` (`store.json`): pretty JSON with sorted keys: the books, their readings, and only the
///   *latest* entry of each reading, plus `historyLength`, the committed size of the history.
/// - `STORE.history`: JSON Lines, one progress entry a line, appended and never rewritten.
/// - `STORE.lock`: the lock file every read-modify-write holds (`flock(2)`; scripts may use `flock(1)`).
///
/// A save appends the new entries to the history (cutting away anything past `historyLength` that an
/// interrupted save left), syncs it, then replaces the state file atomically. So a `progress` write
/// costs the same whatever the length of the history, and a crash at any point leaves the last
/// committed state. A book's full history is read only when a command needs it (`show`, `notes`).
public struct LibraryStorage {
    /// 1: books only. 2: clubs too; a version 1 file is read as having none, and is kept as
    /// `STORE.v1` the first time it is rewritten.
    public static let schemaVersion = 2

    public let path: String
    public let fileSystem: FileSystem

    public init(path: String, fileSystem: FileSystem) {
        self.path = path
        self.fileSystem = fileSystem
    }

    public var historyPath: String { path + ".history" }
    public var lockPath: String { path + ".lock" }
    /// Where a store of an earlier schema is kept, as it was, before it is first rewritten.
    public func backupPath(version: Int) -> String { path + ".v\(version)" }

    /// The persistence of a library store. With `lockTimeout`, the store is locked first (and stays
    /// locked until the store goes away), then read: use it for commands that change the library.
    ///
    /// - Parameters:
    ///   - recording: the command line and time to record each save under in the undo log.
    public func persistence(lockTimeout: Double?, recording: (command: String, time: Date)? = nil) -> Persistence<Library> {
        var committedHistory = 0
        var loadedVersion = Self.schemaVersion
        var unlock: (() -> Void)?
        return Persistence(
            load: {
                if let timeout = lockTimeout {
                    unlock = try fileSystem.lock(lockPath, timeout)
                    sweep()
                }
                let (library, length, version) = try loadState()
                committedHistory = length
                loadedVersion = version
                return library
            },
            save: { old, new in
                if loadedVersion < Self.schemaVersion, let original = try fileSystem.read(path),
                    try fileSystem.read(backupPath(version: loadedVersion)) == nil
                {
                    try fileSystem.writeAtomically(backupPath(version: loadedVersion), original)
                }
                let lines = try Self.historyLines(adding: new, to: old)
                if !lines.isEmpty {
                    try fileSystem.append(historyPath, lines, committedHistory)
                }
                let length = committedHistory + lines.count
                let state = try encodeState(new, historyLength: length)
                if let recording {
                    let before = try fileSystem.read(path) ?? encodeState(Library(), historyLength: 0)
                    try record(
                        Change(
                            time: recording.time, command: recording.command,
                            summary: ChangeSummary.describe(from: old, to: new),
                            before: String(decoding: before, as: UTF8.self), after: Self.digest(state)),
                        stateSize: state.count)
                }
                try fileSystem.writeAtomically(path, state)
                committedHistory = length
                loadedVersion = Self.schemaVersion
            },
            close: {
                unlock?()
                unlock = nil
            })
    }

    /// How much of the history file the store has committed.
    func committedHistoryLength() throws -> Int {
        try loadState().historyLength
    }

    /// Removes what writers killed mid-save left; only under the store lock.
    func sweep() {
        fileSystem.sweep(path)
        fileSystem.sweep(undoPath)
    }

    /// Every entry in the committed history of these books (of every book when `bookIDs` is `nil`), by
    /// reading id, in time order.
    ///
    /// The history is read in chunks, so that memory holds one chunk of text at a time. Lines in the
    /// shape bookclub writes are read directly; any others of a chunk are decoded in one go, as one
    /// JSON array (far cheaper than a decode a line).
    public func history(of bookIDs: Set<Book.ID>?) throws -> [UUID: [ReadingProgress.Entry]] {
        let (_, length, _) = try loadState()
        // Before any line is decoded, so that a history cut short is reported as such, not as bad JSON.
        let size = try fileSystem.size(historyPath) ?? 0
        guard size >= length else { throw POSIXFile.tooShort(historyPath, size, length) }
        let needles = bookIDs.map { $0.map { Array("\"book\":\"\($0)\"".utf8) } }
        var result: [UUID: [ReadingProgress.Entry]] = [:]
        func keep(_ record: HistoryRecord) {
            if bookIDs?.contains(record.book) ?? true { result[record.reading, default: []].append(record.entry) }
        }
        var read = 0
        try fileSystem.readLines(historyPath, length) { chunk in
            read += chunk.count
            var others = Data("[".utf8)
            Self.forEachLine(of: chunk) { line in
                if let needles, !needles.contains(where: { Self.contains(line, $0) }) { return }
                if let record = HistoryRecord(line: line) {
                    keep(record)
                } else {
                    if others.count > 1 { others.append(0x2C) }
                    others.append(contentsOf: line)
                }
            }
            guard others.count > 1 else { return }
            others.append(0x5D)
            for record in try JSONCoding.decode([HistoryRecord].self, from: others, path: historyPath) { keep(record) }
        }
        guard read == length else { throw POSIXFile.tooShort(historyPath, read, length) }
        for reading in result.keys {
            result[reading]!.sort { $0.time < $1.time }
        }
        return result
    }

    /// Calls `body` with each line of `data` that is not empty, without its line break.
    static func forEachLine(of data: Data, _ body: (UnsafeRawBufferPointer) -> Void) {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                let end = memchr(base + start, 0x0A, bytes.count - start).map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
                if end > start { body(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
                start = end + 1
            }
        }
    }

    /// Whether `line` holds `needle`: memchr for its first byte, memcmp for the rest.
    private static func contains(_ line: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard let start = line.baseAddress, let first = needle.first, needle.count <= line.count else { return false }
        let count = line.count
        var offset = 0
        while offset + needle.count <= count,
            let hit = memchr(start + offset, Int32(first), count - offset - needle.count + 1)
        {
            let at = start.distance(to: UnsafeRawPointer(hit))
            if memcmp(hit, needle, needle.count) == 0 { return true }
            offset = at + 1
        }
        return false
    }

    // MARK: State file

    private func loadState() throws -> (Library, historyLength: Int, version: Int) {
        guard let data = try fileSystem.read(path) else { return (Library(), 0, Self.schemaVersion) }
        let header = try JSONCoding.decode(SchemaHeader.self, from: data, path: path)
        guard let version = header.schemaVersion else {
            throw BookClubError.corruptFile(path: path, detail: "missing key `schemaVersion`")
        }
        guard version >= 1 else {
            throw BookClubError.corruptFile(path: path, detail: "at `schemaVersion`: expected 1 or more")
        }
        guard version <= Self.schemaVersion else {
            throw BookClubError.newerSchema(path: path, found: version, supported: Self.schemaVersion)
        }
        let state = try JSONCoding.decode(StateFile.self, from: data, path: path)
        guard state.historyLength >= 0 else {
            throw BookClubError.corruptFile(path: path, detail: "at `historyLength`: expected a size of 0 or more")
        }
        let library = Library(books: state.books.map(\.book), clubs: state.clubs ?? [])
        if let problem = library.problem() { throw BookClubError.corruptFile(path: path, detail: problem) }
        return (library, state.historyLength, version)
    }

    private func encodeState(_ library: Library, historyLength: Int) throws -> Data {
        let state = StateFile(
            schemaVersion: Self.schemaVersion, historyLength: historyLength,
            books: library.books.map(StoredBook.init), clubs: library.clubs)
        return try JSONCoding.encoder().encode(state) + Data("\n".utf8)
    }

    /// JSON Lines for the entries in `new` that `old` does not have.
    static func historyLines(adding new: Library, to old: Library) throws -> Data {
        var known = Set<UUID>()
        for book in old.books {
            for reading in book.readings {
                for entry in reading.progress.entries { known.insert(entry.id) }
            }
        }
        let encoder = JSONCoding.encoder(pretty: false)
        var data = Data()
        for book in new.books {
            for reading in book.readings {
                for entry in reading.progress.entries where !known.contains(entry.id) {
                    data += try encoder.encode(HistoryRecord(book: book.id, reading: reading.id, entry: entry))
                    data += Data("\n".utf8)
                }
            }
        }
        return data
    }
}

// MARK: - File formats

private struct StateFile: Codable {
    var schemaVersion: Int
    var historyLength: Int
    var books: [StoredBook]
    /// Absent in version 1.
    var clubs: [Club]?
}

/// A book as the state file keeps it: each reading with its latest entry only.
private struct StoredBook: Codable {
    struct StoredReading: Codable {
        var id: UUID
        var started: Date?
        var ending: Ending?
        var latest: ReadingProgress.Entry?
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
    var added: Date
    var readings: [StoredReading]

    init(_ book: Book) {
        (id, title, author, pages, isbn, coverName, tags, added) =
            (book.id, book.title, book.author, book.pages, book.isbn, book.coverName, book.tags, book.added)
        (rating, review, privateNotes) = (book.rating, book.review, book.privateNotes)
        readings = book.readings.map {
            StoredReading(id: $0.id, started: $0.started, ending: $0.ending, latest: $0.progress.latest)
        }
    }

    var book: Book {
        Book(
            id: id, title: title, author: author, pages: pages, isbn: isbn, coverName: coverName, tags: tags,
            rating: rating, review: review, privateNotes: privateNotes, added: added,
            readings: readings.map {
                Reading(
                    id: $0.id, started: $0.started, progress: ReadingProgress(entries: $0.latest.map { [$0] } ?? []),
                    ending: $0.ending)
            })
    }
}

struct HistoryRecord: Codable {
    var book: Book.ID
    var reading: UUID
    var entry: ReadingProgress.Entry
}

extension Store where State == Library {
    /// Loads the full progress history of these books into the store (it holds only the latest entry
    /// of each reading until then). Not a change: nothing is saved because of it.
    public func loadHistory(of bookIDs: Set<Book.ID>, from storage: LibraryStorage) throws {
        // Every book's: read every line rather than look for each book's id in each.
        let all = state.books.allSatisfy { bookIDs.contains($0.id) }
        let history = try storage.history(of: all ? nil : bookIDs)
        merge { library in
            for index in library.books.indices where bookIDs.contains(library.books[index].id) {
                for r in library.books[index].readings.indices {
                    let reading = library.books[index].readings[r]
                    var entries = history[reading.id] ?? []
                    // Entries added in memory since the load are not in the committed history yet (the
                    // latest entry, which memory holds, is usually the history's last).
                    let added = reading.progress.entries.filter { entry in !entries.reversed().contains { $0.id == entry.id } }
                    entries += added
                    library.books[index].readings[r].progress = ReadingProgress(entries: entries)
                }
            }
        }
    }
}
