#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What one store knows of its sync folder, kept beside it (`STORE.sync`) and never synced: this
/// device's id and clock, and how much of each log in the folder its library holds.
public struct SyncState: Codable, Equatable, Sendable {
    public var device: String
    public var folder: String
    public var clock = HybridClock()
    /// The store's state (see `LibraryStorage`) when every change in it was last in the log; another
    /// state means a change the log may not have (a command stopped before it wrote there, `undo`).
    public var captured: String?
    /// Each log read, by file name: its length and operations when last read.
    public var files: [String: Mark] = [:]

    public struct Mark: Codable, Equatable, Sendable {
        /// The bytes read, through the last line that could be read.
        public var length: Int
        public var operations: Int
        /// The file's size when it was read: more than `length` while a last line is being written, or
        /// when a line could not be read. A log of another size has news.
        public var size: Int? = nil
        /// The lines read, for the line numbers of what is read next.
        public var lines: Int? = nil
    }

    /// The last operation applied, in the order of `SyncOperation.precedes`: operations that come after
    /// it can be applied to the library as it is; one that comes before it means reading the logs again.
    public var frontier: Position?
    /// The ids of things the operations hold but the library does not show (a removed reading, entry,
    /// highlight, club or meeting; a reading whose own operation has not come): an operation about one
    /// of them means reading the logs again.
    public var hidden: Set<String> = []
    /// The names the devices go by, by id, as last read.
    public var names: [String: String] = [:]
    /// The lines that could not be read, by file, as last read: said again until they are mended.
    /// A file that is not a plain file is one of them, at line 0.
    public var problems: [String: SyncReport.Problem] = [:]

    /// The files of `problems` that are not plain files, left unopened.
    var unopenedFiles: Set<String> { Set(problems.values.filter { $0.line == 0 }.map(\.file)) }

    enum CodingKeys: String, CodingKey {
        case device, folder, clock, captured, files, frontier, hidden, names, problems
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(String.self, forKey: .device)
        folder = try container.decode(String.self, forKey: .folder)
        clock = try container.decodeIfPresent(HybridClock.self, forKey: .clock) ?? HybridClock()
        captured = try container.decodeIfPresent(String.self, forKey: .captured)
        files = try container.decodeIfPresent([String: Mark].self, forKey: .files) ?? [:]
        frontier = try container.decodeIfPresent(Position.self, forKey: .frontier)
        hidden = try container.decodeIfPresent(Set<String>.self, forKey: .hidden) ?? []
        names = try container.decodeIfPresent([String: String].self, forKey: .names) ?? [:]
        problems = try container.decodeIfPresent([String: SyncReport.Problem].self, forKey: .problems) ?? [:]
    }

    public struct Position: Codable, Equatable, Sendable {
        public var clock: HybridClock
        public var device: String
        public var sequence: Int

        init(_ operation: SyncOperation) {
            self.init(clock: operation.clock, device: operation.device, sequence: operation.sequence)
        }

        init(clock: HybridClock, device: String, sequence: Int) {
            (self.clock, self.device, self.sequence) = (clock, device, sequence)
        }

        /// Whether `operation` comes after this position.
        func precedes(_ operation: SyncOperation) -> Bool {
            SyncOperation.precedes(
                SyncOperation(device: device, sequence: sequence, clock: clock, change: .nameDevice("")), operation)
        }
    }

    public init(device: String, folder: String, clock: HybridClock = HybridClock()) {
        (self.device, self.folder, self.clock) = (device, folder, clock)
    }

    /// Reads the state at `path`; `nil` when there is none.
    public static func load(path: String, fileSystem: FileSystem) throws -> SyncState? {
        guard let data = try fileSystem.read(path) else { return nil }
        let record = record(in: data)
        let state = try scan(record) ?? JSONCoding.decode(SyncState.self, from: record, path: path)
        guard SyncLine.isDeviceID(state.device) else {
            throw BookClubError.corruptFile(path: path, detail: "at `device`: expected 32 hexadecimal digits")
        }
        return state
    }

    /// The state a file holds: the object of its last line whose seal holds, the seal taken off; else
    /// the whole file (a state an earlier bookclub wrote, or one written by hand).
    static func record(in data: Data) -> Data {
        var end = data.endIndex
        while end > data.startIndex {
            let start = data[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
            let line = data[start..<end]
            if Seal.check(line) == true { return Data(line.dropLast(Seal.sealLength)) + Data(utf8: "}") }
            end = max(data.startIndex, start - 1)
        }
        return data
    }

    /// Writes the state whole, as one sealed line. Unless `durably`, its folder is not synced: after a
    /// power cut it is as it was or as written, and one as it was only makes the next command read the
    /// logs again. A new state (`sync init`) is written durably.
    public func save(path: String, fileSystem: FileSystem, durably: Bool = false) throws {
        let line = self.line
        try durably ? fileSystem.writeAtomically(path, line) : fileSystem.replace(path, line)
    }

    /// Adds the state after the others, as one sealed line, unsynced: a command that syncs writes it
    /// after every change, and a file made and synced each time cost more than the rest of the sync.
    /// After a power cut it is as written, or an earlier state of the file: the state of a command's
    /// change, which the store holds, so the next command, finding a store the state does not count,
    /// reads the logs again. The file is written whole (`save`) when it has grown past a bound, or
    /// does not end in a whole line (an earlier bookclub's, or one a power cut cut).
    func append(path: String, fileSystem: FileSystem) throws {
        let line = self.line
        if let size = try fileSystem.size(path), size + line.count <= max(Self.appendedBytes, 4 * line.count),
            size > Seal.sealLength,
            let tail = try fileSystem.readRange(path, size - Seal.sealLength - 1, Seal.sealLength + 1),
            tail.starts(with: Seal.key), tail.suffix(3).elementsEqual(Data(utf8: "\"}\n"))
        {
            try fileSystem.write(path, line, size)
        } else {
            try save(path: path, fileSystem: fileSystem)
        }
    }

    /// The bytes of states the file may hold before it is written whole again.
    static let appendedBytes = 64 * 1024

    /// The state as one sealed line of its file.
    var line: Data {
        var writer = JSONWriter(compact: true)
        writer.syncState(self)
        return Seal.seal(writer.take()) + Data(utf8: "\n")
    }
}
