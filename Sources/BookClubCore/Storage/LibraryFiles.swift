#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A store's committed state as raw JSON, a slice a book: the snapshot `STORE` with the committed
/// transactions of the journal `STORE.journal` laid over it. A book's JSON is decoded only when the
/// book is asked for, so that a command about one book reads one book, however many the store holds.
///
/// The snapshot is the document JSONEncoder writes, pretty-printed with sorted keys, whose layout is
/// known: each book is the object between a line `    {` and a line `    }`, and its id is on a line
/// `      "id" : "…",` of its own, so a book is found by searching for its id.
///
/// The journal starts with `{"generation":"…"}`, the snapshot's, and holds transactions: lines
/// `{"book":{…}}`, `{"remove":"id"}` and `{"clubs":[…]}`, then the commit line
/// `{"commit":{"historyLength":…,"state":"…","undoLength":…},"length":…,"crc":"…"}`, which carries the
/// transaction's length in bytes and the CRC-32C of the transaction and of itself (`Seal`). A power
/// cut may keep any piece of an unsynced append and lose another, so a transaction is committed only
/// when its checksum holds: a last one that fails it never committed, and is passed over with whatever
/// follows the last whole commit (a writer stopped mid-save), and cut by the next writer.
struct LibraryFiles {
    /// What a commit line (or the snapshot's header) says.
    struct Commit: Codable, Equatable {
        /// The committed length of the history file.
        var historyLength: Int
        /// The id of the committed state: each change makes a new one; undo goes back to an earlier one.
        var state: String
        /// The length of the undo log once the change was recorded in it; `nil` when not known (a
        /// change that recorded none, a snapshot of an earlier bookclub). A log of another length was
        /// written since by a writer that never committed, which may not have made the log's name
        /// durable.
        var undoLength: Int?
    }

    /// A commit line, before its seal.
    struct CommitLine: Codable, Equatable {
        var commit: Commit
        /// The length of the transaction's lines before the commit line; absent before bookclub 0.4.
        var length: Int?

        /// Reads a commit line as Foundation's decoder would, its seal passed over; `nil` leaves it to
        /// the decoder.
        static func scan(_ line: Data) -> CommitLine? {
            line.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes: bytes)
                var commit: Commit?
                var length: Int?
                var seen = JSONScanner.SeenKeys()
                let complete = scanner.object { key, scanner in
                    switch key {
                    case "commit" where seen.first(0):
                        var (history, undo): (Int?, Int?)
                        var state: String?
                        var inner = JSONScanner.SeenKeys()
                        guard
                            scanner.object({ key, scanner in
                                switch key {
                                case "historyLength" where inner.first(0): return scanner.read(&history)
                                case "state" where inner.first(1): return scanner.read(&state)
                                case "undoLength" where inner.first(2): return scanner.read(&undo)
                                case "historyLength", "state", "undoLength": return false
                                default: return scanner.skipValue()
                                }
                            }), let history, let state
                        else { return false }
                        commit = Commit(historyLength: history, state: state, undoLength: undo)
                        return true
                    case "length" where seen.first(1): return scanner.read(&length)
                    case "commit", "length": return false
                    default: return scanner.skipValue()
                    }
                }
                guard complete, scanner.atEnd, let commit else { return nil }
                return CommitLine(commit: commit, length: length)
            }
        }

        static func read(_ line: Data) -> CommitLine? {
            scan(line) ?? JSONCoding.decodeLine(CommitLine.self, from: line)
        }
    }

    /// What one change writes.
    struct Transaction {
        var books: [(id: Book.ID, line: Data)] = []
        var removed: [Book.ID] = []
        var clubs: Data?
        var commit: Commit
        /// What the change appends to the history and the undo log, written to them unsynced and
        /// carried by its commit too; `nil` for a change that syncs both first (see `Carried`).
        var carried: Carried?
    }

    /// What an appended transaction carries of the history and the undo log, so that one `fsync`, the
    /// journal's, commits all three: `{"entry":…}` lines (the history's new lines, each wrapped as it
    /// is), then `{"at":N,"undo":…}` (the undo record appended to the log at byte N) or
    /// `{"at":0,"newUndo":…}` (the record that begins a new log, the old one set aside). The files
    /// get the same bytes unsynced; a reader checks them against the journal and puts back what a
    /// power cut took (`LibraryStorage.readFiles(locked:)`). A commit that carries nothing (a new
    /// snapshot, an `undo`) syncs both files first, and the carried bytes before it are then passed over.
    struct Carried {
        /// The history's new lines, each ending in a line break.
        var history = Data()
        /// The undo record.
        var undo: CarriedUndo?

        var isEmpty: Bool { history.isEmpty && undo == nil }
    }

    /// What the journal's transactions since the last commit that carried nothing say the history and
    /// the undo log hold: the history's bytes up to the committed length, and the undo records, each
    /// at its offset (`Carried`).
    struct CarriedBytes {
        var history = Data()
        var undo: [CarriedUndo] = []
        /// Whether the records are in the log set aside (`STORE.undo.1`), not the current one: a save
        /// that set the log aside was stopped before its commit, which would have carried only the
        /// record that begins the new log.
        var undoIsSetAside = false
    }

    /// An undo record a transaction carries: its line (sealed), appended to the log at `offset` after
    /// a line break, or, when it begins a new log (`rotates`), at 0 with none; a line break after it.
    struct CarriedUndo {
        var line: Data
        var offset: Int
        var rotates: Bool

        /// What it appends to the log.
        var bytes: Data { LibraryStorage.Record.bytes(of: line, rotates: rotates) }
        /// Where what it appends ends in the log.
        var end: Int { offset + line.count + (rotates ? 1 : 2) }

        /// Whether `log`, the log's bytes from `offset` to `end`, holds what it appends: the line break
        /// before the line (unless it begins a log), the line, and the line break after it.
        func isIn(_ log: UnsafeRawPointer) -> Bool {
            let lead = rotates ? 0 : 1
            guard rotates || log.load(as: UInt8.self) == 0x0A,
                log.load(fromByteOffset: lead + line.count, as: UInt8.self) == 0x0A
            else { return false }
            return line.withUnsafeBytes { $0.isEmpty || sameBytes(log + lead, $0.baseAddress!, count: $0.count) }
        }
    }

    /// What the snapshot says besides its books.
    struct Header: Decodable, Equatable {
        var schemaVersion: Int
        var historyLength: Int
        var generation: String?
        var previousGeneration: String?
        var state: String?
        var undoLength: Int?

        /// Reads the header as Foundation's decoder would, other members passed over; `nil` leaves
        /// it to the decoder (a `null`, a key given twice, a number of another form).
        static func scan(_ data: Data) -> Header? {
            data.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes: bytes)
                var (version, length): (Int?, Int?)
                var (generation, previous, state): (String?, String?, String?)
                var undo: Int?
                var seen = JSONScanner.SeenKeys()
                let complete = scanner.object { key, scanner in
                    switch key {
                    case "schemaVersion" where seen.first(0): return scanner.read(&version)
                    case "historyLength" where seen.first(1): return scanner.read(&length)
                    case "generation" where seen.first(2): return scanner.read(&generation)
                    case "previousGeneration" where seen.first(3): return scanner.read(&previous)
                    case "state" where seen.first(4): return scanner.read(&state)
                    case "undoLength" where seen.first(5): return scanner.read(&undo)
                    case "schemaVersion", "historyLength", "generation", "previousGeneration", "state", "undoLength":
                        return false
                    default: return scanner.skipValue()
                    }
                }
                guard complete, scanner.atEnd, let version, let length else { return nil }
                return Header(
                    schemaVersion: version, historyLength: length, generation: generation,
                    previousGeneration: previous, state: state, undoLength: undo)
            }
        }
    }

    /// The whole snapshot: as written, and as read when it is not laid out as written (a store of
    /// schema 1, or one edited by hand).
    struct Document: Codable {
        var books: [StoredBook]
        /// Absent in version 1.
        var clubs: [Club]?
        var generation: String?
        /// The generation of the journal this snapshot replaced, "" when it replaced none; absent in a
        /// snapshot of bookclub before 0.4, whose journal is not checked.
        var previousGeneration: String?
        var historyLength: Int
        var schemaVersion: Int
        var state: String?
        /// The undo log's length when the snapshot was written (`Commit.undoLength`), which its fold
        /// made durable, name and all; absent in a snapshot of an earlier bookclub.
        var undoLength: Int?
    }

    var storage: LibraryStorage
    /// The schema version of the snapshot.
    var version = LibraryStorage.schemaVersion
    var commit = Commit(historyLength: 0, state: "")
    var generation: String?
    var previousGeneration: String?
    var clubs = Data(utf8: "[]")
    /// The snapshot's books, each as its JSON, when the snapshot was read as one document (it is not
    /// laid out as bookclub writes it); see `snapshotLines()`.
    var snapshotBooks: [Data] = []
    /// The snapshot's books as one run of bytes, from the line break before the first `    {` to the
    /// last `    }`, to search for an id in; `nil` when the snapshot is not laid out as bookclub writes it.
    /// Split into books only when every book is asked for, so that a command about one book reads
    /// the snapshot's head, its tail and that book.
    var snapshotRun: Data?
    /// The snapshot's books as split from `snapshotRun`, once split (to check its layout when no
    /// index of names vouches for it); `nil` before.
    var splitBooks: [Data]?
    /// The snapshot's bytes (mapped).
    var snapshotBytes = Data()
    var snapshotSize: Int { snapshotBytes.count }
    /// The journal's committed book lines by id (`nil` once removed), and the ids in the order they came.
    var journalBooks: [Book.ID: Data?] = [:]
    var journalOrder: [Book.ID] = []
    /// The committed size of a journal of the snapshot's generation; `nil` when there is none.
    var journalLength: Int?
    /// Whether the snapshot alone holds the library: no change waits in the journal, and the snapshot
    /// is of this schema and laid out as bookclub writes it.
    var isFolded: Bool {
        !journalHasChanges && journalLength != nil && snapshotRun != nil && version == LibraryStorage.schemaVersion
    }
    var journalHasChanges = false
    /// Whether a book was looked up by name and `STORE.names` was missing, out of date or damaged.
    var nameIndexIsUnusable = false
    /// `STORE.names`, when it is the index of this snapshot and whole, as read with the snapshot;
    /// `nil` when there is none that is, or the snapshot cannot have one.
    var nameIndex: NameIndex?
    /// What the journal carries of the history and the undo log.
    var carried = CarriedBytes()

    var path: String { storage.path }
    var fileSystem: FileSystem { storage.fileSystem }
}
