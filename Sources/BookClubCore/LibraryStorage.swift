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

    /// Every entry in the committed history of these books (of every book when `nil`), by reading id,
    /// in time order.
    public func history(of bookIDs: Set<Book.ID>?) throws -> [UUID: [ReadingProgress.Entry]] {
        let (_, length, _) = try loadState()
        // Before any line is read, so that a history cut short is reported as such, not as bad JSON.
        let size = try fileSystem.size(historyPath) ?? 0
        guard size >= length else { throw POSIXFile.tooShort(historyPath, size, length) }
        // A few books: only the lines holding their ids are read (a line that merely mentions one is
        // read, then passed over).
        let needles = bookIDs.flatMap { $0.count <= 16 ? $0.map { Array("\"\($0)\"".utf8) } : nil }
        var result: [UUID: [ReadingProgress.Entry]] = [:]
        var read = 0
        try fileSystem.readLines(historyPath, length) { chunk in
            read += chunk.count
            try chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                guard let base = bytes.baseAddress else { return }
                var start = 0
                while start < bytes.count {
                    let end = memchr(base + start, 0x0A, bytes.count - start).map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
                    defer { start = end + 1 }
                    let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                    guard !line.isEmpty, needles?.contains(where: { Self.contains(line, $0) }) ?? true else { continue }
                    // Lines as bookclub writes them are read directly; any other goes to the decoder.
                    let record = try HistoryLine.record(line)
                        ?? JSONCoding.decode(HistoryRecord.self, from: Data(line), path: historyPath)
                    if bookIDs?.contains(record.book) ?? true {
                        result[record.reading, default: []].append(record.entry)
                    }
                }
            }
        }
        guard read == length else { throw POSIXFile.tooShort(historyPath, read, length) }
        return result.mapValues { $0.sorted { $0.time < $1.time } }
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
        // One decode of the whole file; the header alone is read only to explain a failure, which a
        // newer schema may well cause.
        let state: StateFile
        do {
            state = try JSONCoding.decode(StateFile.self, from: data, path: path)
        } catch {
            let header = try JSONCoding.decode(SchemaHeader.self, from: data, path: path)
            if let version = header.schemaVersion { try Self.check(version, path: path) }
            throw error
        }
        let version = state.schemaVersion
        try Self.check(version, path: path)
        guard state.historyLength >= 0 else {
            throw BookClubError.corruptFile(path: path, detail: "at `historyLength`: expected a size of 0 or more")
        }
        let library = Library(books: state.books.map(\.book), clubs: state.clubs ?? [])
        if let problem = library.problem() { throw BookClubError.corruptFile(path: path, detail: problem) }
        return (library, state.historyLength, version)
    }

    private static func check(_ version: Int, path: String) throws {
        guard version >= 1 else {
            throw BookClubError.corruptFile(path: path, detail: "at `schemaVersion`: expected 1 or more")
        }
        guard version <= schemaVersion else {
            throw BookClubError.newerSchema(path: path, found: version, supported: schemaVersion)
        }
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
    ///
    /// - Parameter bookIDs: the books whose histories to load; `nil` for every book.
    public func loadHistory(of bookIDs: Set<Book.ID>?, from storage: LibraryStorage) throws {
        let history = try storage.history(of: bookIDs)
        merge { library in
            for index in library.books.indices where bookIDs?.contains(library.books[index].id) ?? true {
                for r in library.books[index].readings.indices {
                    let reading = library.books[index].readings[r]
                    var entries = history[reading.id] ?? []
                    // Entries added in memory since the load are not in the committed history yet.
                    let loaded = Set(entries.map(\.id))
                    entries += reading.progress.entries.filter { !loaded.contains($0.id) }
                    library.books[index].readings[r].progress = ReadingProgress(entries: entries)
                }
            }
        }
    }
}
