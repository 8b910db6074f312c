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
    public var problems: [String: SyncReport.Problem] = [:]

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
        let state = try scan(data) ?? JSONCoding.decode(SyncState.self, from: data, path: path)
        guard SyncLine.isDeviceID(state.device) else {
            throw BookClubError.corruptFile(path: path, detail: "at `device`: expected 32 hexadecimal digits")
        }
        return state
    }

    /// Writes the state whole. Unless `durably`, its folder is not synced: after a power cut it is as it
    /// was or as written, and one as it was only makes the next command read the logs again. A new
    /// state (`sync init`) is written durably.
    public func save(path: String, fileSystem: FileSystem, durably: Bool = false) throws {
        var writer = JSONWriter(compact: true)
        writer.syncState(self)
        let data = writer.take()
        try durably ? fileSystem.writeAtomically(path, data) : fileSystem.replace(path, data)
    }
}

/// What a sync brought and sent.
public struct SyncReport: Equatable, Sendable {
    /// Per device that sent anything, what came in, by kind (`entries`, `books`…), in name order.
    public var received: [Received] = []
    /// This device's operations written to its log.
    public var sent = 0
    /// Lines that could not be read: their device's later operations wait until they are mended.
    public var problems: [Problem] = []
    /// Lines of a later version of bookclub, kept and passed over.
    public var newer = 0
    /// This device's id was found in use elsewhere, or its log cut short: the id it had, and the one it
    /// goes on with.
    public var clone: Clone?

    public struct Clone: Equatable, Sendable {
        public var old: String
        public var new: String
        /// Whether it was this device's log found shorter than it wrote, rather than another machine
        /// writing to it.
        public var logCut = false
    }

    public struct Received: Equatable, Sendable {
        public var device: String
        public var name: String?
        public var counts: [Kind: Int]
    }

    public enum Kind: String, CaseIterable, Sendable {
        case books, entries, highlights, readings, edits, removals, clubs, meetings
    }

    public struct Problem: Codable, Equatable, Sendable {
        public var file: String
        public var line: Int
        public var detail: String
    }
}

/// Syncing a library through a `SyncFolder`: reading every device's log, writing this one's.
public enum Sync {
    /// Whether the folder holds anything this device has not read: a log whose size is not the size last
    /// read. Costs a listing of the folder and a `stat` a log.
    public static func hasNews(_ folder: SyncFolder, state: SyncState) -> Bool {
        folder.logs().contains { log in
            let size = try? folder.fileSystem.size(folder.devicesPath + "/" + log.name)
            let mark = state.files[log.name]
            return size != mark?.size ?? mark?.length
        }
    }

    /// Brings `library` and the folder together: records the changes of `library` the log does not hold
    /// (when `capture`), applies every device's operations, and returns the library they make with the
    /// state to keep. The log is written before this returns; save the library, then the state with
    /// `captured` set to the store's new state.
    ///
    /// A device id in use in two places (a restored backup, a cloned disk) is found when this device's
    /// log holds operations it did not write while it has nothing unrecorded; this device then goes on
    /// as `newDevice` (the core makes no ids), and its old log is read as the other's. So it does when
    /// its log is shorter than it wrote, and writes again what the lost lines held: a number other
    /// devices may have read is never used twice.
    ///
    /// - Parameters:
    ///   - name: a name this device now goes by, written to its log.
    ///   - newDevice: the id to take should this device's id be found in use elsewhere.
    ///   - lastContents: the books of these ids as this device last had them before it removed them
    ///     (`LibraryStorage.lastContents`): what it logged of a book after its last sync is sent before
    ///     the removal.
    public static func reconcile(
        _ library: Library, folder: SyncFolder, state: SyncState, capture: Bool, now: Date, name: String? = nil,
        newDevice: String? = nil, lastContents: (Set<Book.ID>) throws -> [Book] = { _ in [] }
    ) throws -> (library: Library, state: SyncState, report: SyncReport) {
        var state = state
        var report = SyncReport()
        let logs = folder.logs().sorted { !$0.isCopy && $1.isCopy }
        var reads: [(log: SyncFolder.Log, read: SyncFolder.Read)] = []
        for log in logs { reads.append((log, try folder.read(log))) }
        var own = reads.first { $0.log.device == state.device && !$0.log.isCopy }?.read ?? SyncFolder.Read()
        if let problem = own.problem {
            throw BookClubError.corruptFile(
                path: folder.logPath(of: state.device), detail: "line \(problem.line): \(problem.detail)")
        }
        let ownName = state.device + ".jsonl"
        var capture = capture
        if let mark = state.files[ownName], let newDevice, SyncLine.isDeviceID(newDevice) {
            // Operations it did not write: what this device wrote is known; what follows is the other's.
            let copied = !capture && own.operations.count > mark.operations
            // Less than it wrote (a file-sync tool put back an older copy, a hand edit): the next
            // operation must not take the number of one that other devices may have read, and what the
            // lost lines held is sent again.
            let cut = own.length < mark.length
            if copied || cut {
                state.files[ownName] = SyncState.Mark(length: mark.length, operations: mark.operations)
                report.clone = SyncReport.Clone(old: state.device, new: newDevice, logCut: cut)
                state.device = newDevice
                own = SyncFolder.Read()
                capture = capture || cut
            }
        }

        // What the library holds already (this device's log, and what was read of the others before),
        // and everything.
        var known: [SyncOperation] = []
        var everything: [SyncOperation] = []
        var keys = Set<OperationKey>()
        var knownKeys = Set<OperationKey>()
        for (log, read) in reads {
            let held =
                log.device == state.device && !log.isCopy
                ? read.operations.count : state.files[log.name]?.operations ?? 0
            for (index, operation) in read.operations.enumerated() {
                let key = OperationKey(operation)
                if index < held, knownKeys.insert(key).inserted { known.append(operation) }
                if keys.insert(key).inserted { everything.append(operation) }
            }
            report.newer += read.newer
            if let problem = read.problem {
                report.problems.append(
                    .init(file: folder.devicesPath + "/" + log.name, line: problem.line, detail: problem.detail))
            }
            state.files[log.name] = SyncState.Mark(
                length: read.length, operations: read.operations.count, size: read.size, lines: read.lines)
        }
        state.files = state.files.filter { name, _ in logs.contains { $0.name == name } }

        // This device's changes the log does not hold yet.
        if let latest = everything.map(\.clock).max() { state.clock.witness(latest) }
        var sequence = own.operations.last?.sequence ?? 0
        var sent: [SyncOperation] = []
        // A device that took a new id keeps its name.
        var changes: [SyncOperation.Change] =
            (name ?? report.clone.flatMap { state.names[$0.old] }).map { [.nameDevice($0)] } ?? []
        if capture {
            let base = SyncFold.library(of: known)
            // A book removed since the last sync is sent first as it was when removed.
            var removed = base
            let gone = Set(base.books.map(\.id)).subtracting(library.books.map(\.id))
            for book in try lastContents(gone) {
                if let index = removed.index(of: book.id) { removed.books[index] = book }
            }
            var own =
                SyncOperation.Change.changes(from: base, to: removed, seen: seen(known))
                + SyncOperation.Change.changes(from: removed, to: library, seen: seen(known))
            if everything.count > known.count, !own.isEmpty {
                // The library may hold operations its state does not count as held (a stop between a
                // sync's save and its state's write): a value one of them wrote is another device's,
                // not a change of this one's to send again under a newer clock.
                var others: [String: [SyncOperation.Change]] = [:]
                for operation in everything where !knownKeys.contains(OperationKey(operation)) {
                    others[operation.change.subject, default: []].append(operation.change.withoutSeen)
                }
                own = own.filter { !(others[$0.subject]?.contains($0.withoutSeen) ?? false) }
            }
            changes += own
        }
        for change in changes {
            sequence += 1
            sent.append(
                SyncOperation(
                    device: state.device, sequence: sequence, clock: state.clock.tick(now: now), change: change))
        }
        try folder.append(sent, device: state.device, at: own.length)
        if !sent.isEmpty {
            let length = own.length + sent.reduce(0) { $0 + SyncLine.encode($1).count }
            state.files[state.device + ".jsonl"] = SyncState.Mark(
                length: length, operations: own.operations.count + sent.count, size: length,
                lines: own.lines + sent.count)
        }
        report.sent = sent.count
        report.received = received(
            everything.filter { !knownKeys.contains(OperationKey($0)) && $0.device != state.device },
            names: names(everything))
        var fold = SyncFold()
        let all = (everything + sent).sorted(by: SyncOperation.precedes)
        for operation in all { fold.apply(operation) }
        state.frontier = all.last.map(SyncState.Position.init)
        state.hidden = fold.hidden
        state.names = names(all)
        state.problems = Dictionary(report.problems.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        return (fold.library, state, report)
    }

    /// Operations for the changes a command made, to append to this device's log after its save.
    /// Returns the state to keep; throws when the log cannot be written.
    public static func record(
        from old: Library, to new: Library, folder: SyncFolder, state: SyncState, now: Date
    ) throws -> SyncState {
        var state = state
        let own = state.files[state.device + ".jsonl"] ?? SyncState.Mark(length: 0, operations: 0, lines: 0)
        var sequence = own.operations
        var seen: [String: Int] = [:]
        for (name, mark) in state.files where mark.operations > 0 {
            let device = String(name.prefix(32))
            seen[device] = max(seen[device] ?? 0, mark.operations)
        }
        var sent: [SyncOperation] = []
        for change in SyncOperation.Change.changes(from: old, to: new, seen: seen) {
            sequence += 1
            sent.append(
                SyncOperation(
                    device: state.device, sequence: sequence, clock: state.clock.tick(now: now), change: change))
        }
        try folder.append(sent, device: state.device, at: own.length)
        let length = own.length + sent.reduce(0) { $0 + SyncLine.encode($1).count }
        state.files[state.device + ".jsonl"] = SyncState.Mark(
            length: length, operations: sequence, size: length, lines: own.lines.map { $0 + sent.count })
        if let last = sent.last { state.frontier = SyncState.Position(last) }
        for operation in sent { state.hidden.formUnion(operation.change.hides) }
        return state
    }

    /// A device as `sync status` shows it.
    public struct Device: Equatable, Sendable {
        public var id: String
        public var name: String?
        public var operations: Int
        /// When its latest operation was made, by its own clock.
        public var latest: Date?
    }

    /// The devices whose logs are in the folder, by name, and the lines that could not be read.
    public static func devices(in folder: SyncFolder) throws -> (devices: [Device], problems: [SyncReport.Problem]) {
        var devices: [String: Device] = [:]
        var problems: [SyncReport.Problem] = []
        var everything: [SyncOperation] = []
        for log in folder.logs() {
            let read = try folder.read(log)
            everything += read.operations
            if let problem = read.problem {
                problems.append(
                    .init(file: folder.devicesPath + "/" + log.name, line: problem.line, detail: problem.detail))
            }
            var device = devices[log.device] ?? Device(id: log.device, operations: 0)
            device.operations = max(device.operations, read.operations.last?.sequence ?? 0)
            if let clock = read.operations.last?.clock {
                let date = Date(timeIntervalSince1970: Double(clock.milliseconds) / 1000)
                device.latest = max(device.latest ?? date, date)
            }
            devices[log.device] = device
        }
        let names = names(everything)
        return (
            devices.values.map {
                var device = $0
                device.name = names[$0.id]
                return device
            }
            .sorted { ($0.name ?? $0.id, $0.id) < ($1.name ?? $1.id, $1.id) },
            problems
        )
    }

    /// Each device's last operation among `operations`.
    static func seen(_ operations: [SyncOperation]) -> [String: Int] {
        var seen: [String: Int] = [:]
        for operation in operations { seen[operation.device] = max(seen[operation.device] ?? 0, operation.sequence) }
        return seen
    }

    /// Each device's latest name among `operations`.
    static func names(_ operations: [SyncOperation]) -> [String: String] {
        var names: [String: (HybridClock, String)] = [:]
        for operation in operations {
            if case .nameDevice(let name) = operation.change,
                names[operation.device].map({ $0.0 < operation.clock }) ?? true
            {
                names[operation.device] = (operation.clock, name)
            }
        }
        return names.mapValues(\.1)
    }

    static func received(_ operations: [SyncOperation], names: [String: String]) -> [SyncReport.Received] {
        var counts: [String: [SyncReport.Kind: Int]] = [:]
        for operation in operations {
            let kind: SyncReport.Kind? =
                switch operation.change {
                case .addBook: .books
                case .putEntry: .entries
                case .putHighlight: .highlights
                case .putReading: .readings
                case .setField, .tag: .edits
                case .removeBook, .removeReading, .removeEntry, .removeHighlight, .removeClub, .removeMeeting: .removals
                case .putClub: .clubs
                case .putMeeting: .meetings
                case .nameDevice: nil
                }
            if let kind { counts[operation.device, default: [:]][kind, default: 0] += 1 }
        }
        return counts.map { SyncReport.Received(device: $0.key, name: names[$0.key], counts: $0.value) }
            .sorted { ($0.name ?? $0.device, $0.device) < ($1.name ?? $1.device, $1.device) }
    }

    private struct OperationKey: Hashable {
        var device: String
        var sequence: Int
        init(_ operation: SyncOperation) { (device, sequence) = (operation.device, operation.sequence) }
    }
}

extension JSONWriter {
    /// The sync state as its `Codable` keys have it, written by hand: a command that syncs writes it
    /// after every change, and JSONEncoder's first use in a process costs more than the rest of it.
    mutating func syncState(_ state: SyncState) {
        func clock(_ writer: inout JSONWriter, _ clock: HybridClock) {
            writer.object { w in
                w.field("counter", clock.counter)
                w.field("milliseconds", Int(clock.milliseconds))
            }
        }
        func strings(_ writer: inout JSONWriter, _ values: [String: String]) {
            writer.object { w in
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    w.escapedField(key)
                    w.string(value)
                }
            }
        }
        object { w in
            w.field("captured", state.captured)
            w.field("clock")
            clock(&w, state.clock)
            w.field("device", state.device)
            w.field("files")
            w.object { w in
                for (name, mark) in state.files.sorted(by: { $0.key < $1.key }) {
                    w.escapedField(name)
                    w.object { w in
                        w.field("length", mark.length)
                        w.field("lines", mark.lines)
                        w.field("operations", mark.operations)
                        w.field("size", mark.size)
                    }
                }
            }
            w.field("folder", state.folder)
            if let frontier = state.frontier {
                w.field("frontier")
                w.object { w in
                    w.field("clock")
                    clock(&w, frontier.clock)
                    w.field("device", frontier.device)
                    w.field("sequence", frontier.sequence)
                }
            }
            w.field("hidden")
            w.array(state.hidden.sorted()) { w, id in w.string(id) }
            w.field("names")
            strings(&w, state.names)
            w.field("problems")
            w.object { w in
                for (file, problem) in state.problems.sorted(by: { $0.key < $1.key }) {
                    w.escapedField(file)
                    w.object { w in
                        w.field("detail", problem.detail)
                        w.field("file", problem.file)
                        w.field("line", problem.line)
                    }
                }
            }
        }
    }
}

extension SyncState {
    /// The state as `JSONWriter.syncState` writes it, read in place (every command that syncs reads it,
    /// and Foundation's decoder costs more than the rest); `nil` for any other form, which the decoder
    /// then reads.
    static func scan(_ data: Data) -> SyncState? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> SyncState? in
            var scanner = JSONScanner(bytes: bytes)
            var (device, folder, captured): (String?, String?, String?)
            var clock: HybridClock?
            var frontier: Position?
            var files: [String: Mark] = [:]
            var hidden: Set<String> = []
            var names: [String: String] = [:]
            var problems: [String: SyncReport.Problem] = [:]
            var seen = JSONScanner.SeenKeys()
            func readClock(_ scanner: inout JSONScanner) -> HybridClock? {
                var (counter, milliseconds): (Int?, Int?)
                guard
                    scanner.object(
                        keys: ["counter", "milliseconds"],
                        { key, scanner in
                            key == 0 ? scanner.read(&counter) : key == 1 ? scanner.read(&milliseconds) : false
                        }), let counter, let milliseconds
                else { return nil }
                return HybridClock(milliseconds: Int64(milliseconds), counter: counter)
            }
            let complete = scanner.object(
                keys: ["captured", "clock", "device", "files", "folder", "frontier", "hidden", "names", "problems"]
            ) { key, scanner in
                guard key >= 0, seen.first(key) else { return false }
                switch key {
                case 0: return scanner.read(&captured)
                case 1:
                    clock = readClock(&scanner)
                    return clock != nil
                case 2: return scanner.read(&device)
                case 3:
                    return scanner.object { name, scanner in
                        var (length, lines, operations, size): (Int?, Int?, Int?, Int?)
                        guard
                            scanner.object(
                                keys: ["length", "lines", "operations", "size"],
                                { key, scanner in
                                    switch key {
                                    case 0: scanner.read(&length)
                                    case 1: scanner.read(&lines)
                                    case 2: scanner.read(&operations)
                                    case 3: scanner.read(&size)
                                    default: false
                                    }
                                }), let length, let operations
                        else { return false }
                        files[name] = Mark(length: length, operations: operations, size: size, lines: lines)
                        return true
                    }
                case 4: return scanner.read(&folder)
                case 5:
                    var (clock, device, sequence): (HybridClock?, String?, Int?)
                    guard
                        scanner.object(
                            keys: ["clock", "device", "sequence"],
                            { key, scanner in
                                switch key {
                                case 0:
                                    clock = readClock(&scanner)
                                    return clock != nil
                                case 1: return scanner.read(&device)
                                case 2: return scanner.read(&sequence)
                                default: return false
                                }
                            }), let clock, let device, let sequence
                    else { return false }
                    frontier = Position(clock: clock, device: device, sequence: sequence)
                    return true
                case 6:
                    return scanner.array { scanner in
                        guard let id = scanner.string() else { return false }
                        hidden.insert(id)
                        return true
                    }
                case 7:
                    return scanner.object { device, scanner in
                        guard let name = scanner.string() else { return false }
                        names[device] = name
                        return true
                    }
                default:
                    return scanner.object { file, scanner in
                        var (detail, path, line): (String?, String?, Int?)
                        guard
                            scanner.object(
                                keys: ["detail", "file", "line"],
                                { key, scanner in
                                    switch key {
                                    case 0: scanner.read(&detail)
                                    case 1: scanner.read(&path)
                                    case 2: scanner.read(&line)
                                    default: false
                                    }
                                }), let detail, let path, let line
                        else { return false }
                        problems[file] = SyncReport.Problem(file: path, line: line, detail: detail)
                        return true
                    }
                }
            }
            guard complete, scanner.atEnd, let device, let folder else { return nil }
            var state = SyncState(device: device, folder: folder, clock: clock ?? HybridClock())
            (state.captured, state.files, state.frontier, state.hidden, state.names, state.problems) = (
                captured, files, frontier, hidden, names, problems
            )
            return state
        }
    }
}
