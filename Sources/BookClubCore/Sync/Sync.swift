#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
/// Syncing a library through a `SyncFolder`: reading every device's log, writing this one's.
public enum Sync {
    /// Whether the folder holds anything this device has not read: a log whose size is not the size last
    /// read, or a log's name where something other than a plain file stands that was not reported (or
    /// no longer does). Costs a listing of the folder and two `lstat`s a log.
    static func hasNews(_ folder: SyncFolder, state: SyncState) -> Bool {
        let (logs, unopened) = folder.contents()
        guard Set(unopened.map(\.file)) == state.unopenedFiles else { return true }
        return logs.contains { log in
            let size = try? folder.fileSystem.plainSize(folder.devicesPath + "/" + log.name)
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
    /// devices may have read is never used twice. What follows the log's last readable line is cut
    /// only when it is a torn append (`SyncFolder.isTornTail`) past what the state counts: no line
    /// of it is one another device can have read.
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
        try folder.checkOwnLog(of: state.device)
        let (found, unopened) = folder.contents()
        let logs = found.sorted { !$0.isCopy && $1.isCopy }
        report.problems = unopened
        var reads: [(log: SyncFolder.Log, read: SyncFolder.Read)] = []
        for log in logs { reads.append((log, try folder.read(log))) }
        let ownName = state.device + ".jsonl"
        let ownIndex = reads.firstIndex { $0.log.device == state.device && !$0.log.isCopy }
        // A line that cannot be read past what the state counts, in what an append of this machine
        // that a power cut tore before its sync left: cut, as the next append would cut it. Anything
        // else is refused, for a hand to mend.
        var cutTear = false
        if let ownIndex, let problem = reads[ownIndex].read.problem {
            let length = reads[ownIndex].read.length
            guard let mark = state.files[ownName], length >= mark.length,
                try folder.isTornTail(of: state.device, after: length)
            else {
                throw BookClubError.corruptFile(
                    path: folder.logPath(of: state.device), detail: "line \(problem.line): \(problem.detail)")
            }
            try folder.append(encoded: Data(), device: state.device, at: length)
            (reads[ownIndex].read.problem, reads[ownIndex].read.size) = (nil, length)
            cutTear = true
        }
        var own = ownIndex.map { reads[$0].read } ?? SyncFolder.Read()
        var capture = capture
        if let mark = state.files[ownName], let newDevice, SyncLine.isDeviceID(newDevice) {
            // Operations it did not write: what this device wrote is known; what follows is the other's.
            // (Lines before a torn append are this machine's, whose state the power cut took.)
            let copied = !capture && !cutTear && own.operations.count > mark.operations
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
