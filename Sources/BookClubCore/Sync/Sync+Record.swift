#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// This device's own log: the operations for a command's changes, appended after its save.
extension Sync {
    /// Operations for the change a command saved, to append to this device's log after its save.
    /// Returns the state to keep; throws when the log cannot be written.
    public static func record(_ diff: LibraryDiff, folder: SyncFolder, state: SyncState, now: Date) throws -> SyncState
    {
        var state = state
        let own = state.files[state.device + ".jsonl"] ?? SyncState.Mark(length: 0, operations: 0, lines: 0)
        var sequence = own.operations
        var seen: [String: Int] = [:]
        for (name, mark) in state.files where mark.operations > 0 {
            let device = String(name.prefix(32))
            seen[device] = max(seen[device] ?? 0, mark.operations)
        }
        var sent: [SyncOperation] = []
        for change in SyncOperation.Change.changes(diff, seen: seen) {
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
}
