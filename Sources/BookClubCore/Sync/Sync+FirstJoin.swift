#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Sync {
    /// The most a part of the log written at once holds, in bytes.
    static let logPart = 1 << 20

    /// What `sendWhole` did: the state to keep, the report, and the books and clubs the operations
    /// make where they are not the store's own (none, unless a value does not go through an operation
    /// as it is), for the store to take.
    struct FirstJoin {
        var state: SyncState
        var report: SyncReport
        var books: [Book] = []
        var clubs: [Club]?
    }

    /// The first join of a folder that holds no log (`sync init` of the first machine): the library
    /// sent as `reconcile` sends it, its books a few at a time (`HistoryWalk`), and the log written a
    /// part at a time, so that a million entries are never held. Every book's operations make the
    /// book by themselves, so each is folded alone; what the folds make is what `reconcile` makes.
    ///
    /// - Parameters:
    ///   - walk: the store's books, read under the store's lock.
    ///   - name: a name this device now goes by, written to its log first.
    static func sendWhole(
        _ walk: HistoryWalk, folder: SyncFolder, state: SyncState, now: Date, name: String?
    ) throws -> FirstJoin {
        var state = state
        var sequence = 0
        var length = 0
        var part = Data()
        var last: SyncOperation?
        var hidden = Set<String>()
        var join = FirstJoin(state: state, report: SyncReport())
        try folder.checkOwnLog(of: state.device)
        func send(_ changes: [SyncOperation.Change]) throws -> SyncFold {
            var fold = SyncFold()
            for change in changes {
                sequence += 1
                let operation = SyncOperation(
                    device: state.device, sequence: sequence, clock: state.clock.tick(now: now), change: change)
                part += SyncLine.encode(operation)
                fold.apply(operation)
                last = operation
            }
            if part.count >= logPart { try flush() }
            hidden.formUnion(fold.hidden)
            return fold
        }
        func flush() throws {
            try folder.append(encoded: part, device: state.device, at: length)
            length += part.count
            part = Data()
        }
        if let name { _ = try send([.nameDevice(name)]) }
        try walk.forEachBook { book in
            let library = Library(books: [book])
            let made = try send(SyncOperation.Change.changes(from: Library(), to: library, seen: [:])).library
                .withdrawingWhatIsGone(from: library)
            if made.books != [book] { join.books += made.books }
        }
        let clubs = Library(clubs: walk.library.clubs)
        let made = try send(SyncOperation.Change.changes(from: Library(), to: clubs, seen: [:])).library
        if made.clubs != clubs.clubs { join.clubs = made.clubs }
        if !part.isEmpty { try flush() }
        if sequence > 0 {
            state.files[state.device + ".jsonl"] = SyncState.Mark(
                length: length, operations: sequence, size: length, lines: sequence)
        }
        state.frontier = last.map(SyncState.Position.init)
        state.hidden = hidden
        state.names = name.map { [state.device: $0] } ?? [:]
        state.problems = [:]
        join.state = state
        join.report.sent = sequence
        return join
    }
}
