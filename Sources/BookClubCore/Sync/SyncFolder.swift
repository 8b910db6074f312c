#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A folder that some other program copies between machines (a git work tree, Syncthing, Dropbox, a
/// network share), holding one log per device, `devices/<device>.jsonl`, which only that device writes:
/// so file-sync tools never make conflict copies of it and git merges never conflict. Copies that
/// appear anyway (a Syncthing `….sync-conflict-20261125-101010-ABCDEFG.jsonl`, a Dropbox
/// `… (Laptop's conflicted copy 2026-11-25).jsonl`) are read as more of their device's operations.
public struct SyncFolder {
    public let path: String
    let fileSystem: FileSystem

    public init(path: String, fileSystem: FileSystem) {
        self.path = path
        self.fileSystem = fileSystem
    }

    var devicesPath: String { path + "/devices" }

    public func logPath(of device: String) -> String { devicesPath + "/" + device + ".jsonl" }

    /// A log in the folder: its file's name, and the device whose operations it holds.
    public struct Log: Equatable, Sendable {
        public var name: String
        public var device: String
        /// A copy made by a file-sync tool, not the device's own file.
        public var isCopy: Bool
    }

    /// The logs in the folder (see `contents`).
    public func logs() -> [Log] { contents().logs }

    /// The logs in the folder, the device's own files before copies, by name; other files are not
    /// bookclub's (a sync tool's temporary file, a README) and are left alone. A log's name where
    /// something other than a plain file stands (a symbolic link, which may point at any file of the
    /// reader's; a named pipe, which would hang the reader; a folder) is not a log: it is left unopened
    /// and said in `unopened`, a problem of its file, at line 0.
    public func contents() -> (logs: [Log], unopened: [SyncReport.Problem]) {
        var logs: [Log] = []
        var unopened: [SyncReport.Problem] = []
        for name in fileSystem.list(devicesPath).sorted() {
            guard let log = Self.log(named: name) else { continue }
            let path = devicesPath + "/" + name
            if let other = fileSystem.kind(path) {
                unopened.append(.init(file: path, line: 0, detail: "\(other.rawValue), not a log: left unopened"))
            } else {
                logs.append(log)
            }
        }
        return (logs, unopened)
    }

    /// The log a file of this name would be, or `nil` when the name is not a log's.
    static func log(named name: String) -> Log? {
        guard name.hasSuffix(".jsonl"), !name.hasPrefix("."), name.utf8.count > 32 else { return nil }
        let device = String(name.prefix(32))
        guard SyncLine.isDeviceID(device) else { return nil }
        let rest = name.dropFirst(32)
        if rest == ".jsonl" { return Log(name: name, device: device, isCopy: false) }
        guard rest.contains(".sync-conflict-") || rest.contains("conflicted copy") else { return nil }
        return Log(name: name, device: device, isCopy: true)
    }

    /// Refuses to go on when something other than a plain file stands where this device's own log
    /// belongs: it is never read, nor written through a link.
    func checkOwnLog(of device: String) throws {
        let own = logPath(of: device)
        guard let other = fileSystem.kind(own) else { return }
        throw BookClubError.io(
            path: own,
            cause:
                "is \(other.rawValue) where this machine's log belongs: left unopened, nothing written through it; put the log itself in its place"
        )
    }

    /// What reading a log found.
    public struct Read: Sendable {
        var operations: [SyncOperation] = []
        /// The bytes read through the last complete line; a last line without its line break is
        /// left for when it is complete.
        public var length = 0
        /// The file's size when it was read.
        public var size = 0
        /// The lines read, through the last line that could be read.
        public var lines = 0
        /// Lines of a later version of bookclub, kept in the file and passed over.
        public var newer = 0
        /// The first line that could not be read: the operations after it wait until it is mended.
        public var problem: (line: Int, detail: String)?
    }

    /// How much of one machine's log is read: some 3,000,000 operations, ten times what a reader logs
    /// in a lifetime. A log that grows past it (a runaway or hostile writer) is reported at the line
    /// where it does, rather than held in memory whole.
    static let maximumLogSize = 1 << 30

    /// Reads a log a chunk at a time, holding no line over `SyncLine.maximumLength` and nothing past
    /// `limit`: whole, or from where `mark` says it was last read to.
    func read(_ log: Log, from mark: SyncState.Mark? = nil, limit: Int = maximumLogSize) throws -> Read {
        var read = Read()
        read.length = mark?.length ?? 0
        read.lines = mark?.lines ?? 0
        var buffer = Data()
        var line = read.lines
        var lastClock: (HybridClock, Int)?
        let path = devicesPath + "/" + log.name
        guard let size = try fileSystem.plainSize(path) else { return read }
        read.size = size
        // Thrown to stop reading at the first problem.
        struct Stop: Error {}
        do {
            var offset = read.length
            while offset < size, let chunk = try fileSystem.readPlainRange(path, offset, min(1 << 20, size - offset)),
                !chunk.isEmpty
            {
                offset += chunk.count
                buffer += chunk
                // Where the next line starts; what is before it is dropped once per chunk.
                var start = buffer.startIndex
                defer { buffer.removeSubrange(buffer.startIndex..<start) }
                while let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    guard read.length < limit else {
                        read.problem = (line + 1, "past the log's first \(limit >> 20) MiB, more than bookclub reads")
                        throw Stop()
                    }
                    line += 1
                    let text = buffer[start..<end]
                    let consumed = end - start + 1
                    defer { start = end + 1 }
                    if text.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
                        read.length += consumed
                        read.lines = line
                        continue
                    }
                    do {
                        switch try SyncLine.decode(Data(text)) {
                        case .newer:
                            read.newer += 1
                        case .operation(let operation):
                            guard operation.device == log.device else {
                                throw SyncLine.Problem("an operation of device \(operation.device), not of this file's")
                            }
                            // A device's clock and sequence only grow: a line out of order was not
                            // written by bookclub there.
                            if let (clock, sequence) = lastClock,
                                operation.clock <= clock || operation.sequence <= sequence
                            {
                                throw SyncLine.Problem(
                                    "out of order (its clock or number is not after the line before)")
                            }
                            lastClock = (operation.clock, operation.sequence)
                            read.operations.append(operation)
                        }
                    } catch let problem as SyncLine.Problem {
                        read.problem = (line, problem.detail)
                        throw Stop()
                    }
                    read.length += consumed
                    read.lines = line
                }
                if buffer.count - (start - buffer.startIndex) > SyncLine.maximumLength {
                    read.problem = (line + 1, "longer than 1 MiB")
                    throw Stop()
                }
            }
        } catch is Stop {}
        return read
    }

    /// Whether what follows `length` in this device's log is an append a power cut tore: less than
    /// `tornTailBound` bytes in which no whole line is an operation (nor a line of a later bookclub).
    /// Other machines read no line past one they cannot read, and none of these can be read: cut, no
    /// operation anyone can have applied is lost.
    func isTornTail(of device: String, after length: Int) throws -> Bool {
        let path = logPath(of: device)
        guard let size = try fileSystem.plainSize(path), size > length, size - length <= Self.tornTailBound,
            let tail = try fileSystem.readPlainRange(path, length, size - length)
        else { return false }
        var start = tail.startIndex
        while let end = tail[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if (try? SyncLine.decode(Data(tail[start..<end]))) != nil { return false }
            start = end + 1
        }
        return true
    }

    /// The most bytes of a torn append that are cut: more is not taken for one.
    static let tornTailBound = 64 << 20

    /// Appends operations to this device's log, synced before it returns. The log and its folder are
    /// created when missing, readable by their owner only (they hold the reader's notes). Anything but
    /// a plain file where the log belongs is refused, never written through.
    func append(_ operations: [SyncOperation], device: String, at length: Int) throws {
        guard !operations.isEmpty else { return }
        var data = Data()
        for operation in operations { data += SyncLine.encode(operation) }
        try append(encoded: data, device: device, at: length)
    }

    /// The same, the operations' lines given.
    func append(encoded data: Data, device: String, at length: Int) throws {
        try fileSystem.appendPlain(logPath(of: device), data, length)
        if length == 0 { try fileSystem.syncFolder(logPath(of: device)) }
    }
}
