#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A store syncing through the folder it joined: the protocol around a command, which the CLI only
/// calls. Every change is made under the store lock, and in one order: the store's save, then the
/// sync state (`STORE.sync`), whose `captured` fingerprint says which store it counts. A stop between
/// the two leaves a state behind its store, which the next command sees by the fingerprint and
/// mends by capturing the store's changes again (`Sync.reconcile`, which leaves out what the state's
/// operations wrote).
public struct StoreSync {
    public let storage: LibraryStorage
    public let folder: SyncFolder
    /// The sync state as read when this value was made.
    public let state: SyncState
    /// How long a command waits for the store lock, in seconds (the `lockTimeout` setting).
    let lockTimeout: Double

    /// The sync of `storage`, when `folderPath` (the `syncFolder` setting) names the folder it joined;
    /// `nil` when it syncs with no folder, or has left this one.
    public init?(storage: LibraryStorage, folderPath: String, lockTimeout: Double) throws {
        guard !folderPath.isEmpty,
            let state = try SyncState.load(path: storage.syncStatePath, fileSystem: storage.fileSystem),
            state.folder == folderPath
        else { return nil }
        self.init(
            storage: storage, folder: SyncFolder(path: folderPath, fileSystem: storage.fileSystem), state: state,
            lockTimeout: lockTimeout)
    }

    private init(storage: LibraryStorage, folder: SyncFolder, state: SyncState, lockTimeout: Double) {
        (self.storage, self.folder, self.state, self.lockTimeout) = (storage, folder, state, lockTimeout)
    }

    /// Whether a store has ever joined a folder: one `stat`, the only cost to a store that never did.
    public static func hasJoined(_ storage: LibraryStorage) -> Bool {
        (try? storage.fileSystem.size(storage.syncStatePath)) != nil
    }

    /// Joins the folder at `folderPath` (an absolute path), creating it and its `devices` folder when
    /// missing. A store that joined another folder keeps its id and its clock: back in a folder it wrote
    /// to before, it goes on with its log there rather than leave it behind as another machine's.
    /// Then `reconcile` with `capture` and the machine's `name` makes the join whole.
    ///
    /// - Parameter newDevice: the id of this device, when the store has none yet.
    public static func join(
        _ storage: LibraryStorage, folderPath: String, newDevice: () -> String, lockTimeout: Double
    ) throws -> StoreSync {
        let fileSystem = storage.fileSystem
        if fileSystem.kind(folderPath) == nil, try fileSystem.size(folderPath) != nil {
            throw BookClubError.io(path: folderPath, cause: "a file, not a folder: give the folder to sync through")
        }
        let folder = SyncFolder(path: folderPath, fileSystem: fileSystem)
        try fileSystem.makeFolder(folder.devicesPath)
        let existing = try SyncState.load(path: storage.syncStatePath, fileSystem: fileSystem)
        let state =
            existing.map {
                $0.folder == folderPath ? $0 : SyncState(device: $0.device, folder: folderPath, clock: $0.clock)
            }
            ?? SyncState(device: newDevice(), folder: folderPath)
        try state.save(path: storage.syncStatePath, fileSystem: fileSystem, durably: true)
        return StoreSync(storage: storage, folder: folder, state: state, lockTimeout: lockTimeout)
    }

    /// What `catchUp` did.
    public struct CatchUp: Sendable {
        /// What was applied or sent, or the lines still not read when nothing was new.
        public var report: SyncReport
        /// The store's fingerprint once caught up, for `afterCommand`.
        public var fingerprint: String
    }

    /// Before a command: applies the other devices' new operations, and records any change of the store
    /// its log does not hold (a command stopped before it wrote there). Costs a few `stat`s when
    /// nothing is new; then the report holds the log lines still not read, said again by every command
    /// until they are mended.
    ///
    /// - Parameters:
    ///   - now: the time of the operations this device writes.
    ///   - newDevice: makes the device's new id, should its own id be found in use by another store.
    public func catchUp(now: Date, newDevice: () -> String) throws -> CatchUp {
        let fingerprint = try storage.fingerprint()
        let capture = fingerprint != state.captured
        guard capture || Sync.hasNews(folder, state: state) else {
            var report = SyncReport()
            report.problems = state.problems.values.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
            return CatchUp(report: report, fingerprint: fingerprint)
        }
        let report = try reconcile(capture: capture, now: now, newDevice: newDevice)
        return try CatchUp(report: report, fingerprint: storage.fingerprint())
    }

    /// After a command's save, given the fingerprint `catchUp` returned, on a value made after the
    /// command (its state as the command left it): appends the operations of the command's change to
    /// this device's log when the store holds just that change over what the state counts; else (the
    /// store changed in a way the command did not observe, as `undo` does) reconciles, after `release`
    /// has let go of the command's hold on the store. `nil` when nothing was committed since
    /// `catchUp`, or only the log was written.
    ///
    /// - Parameter change: what the command's save changed, and the store's fingerprint when the
    ///   command opened it; `nil` when the command saved no change.
    public func afterCommand(
        caughtUp fingerprint: String, change: (diff: LibraryDiff, opened: String?)?,
        release: () -> Void, now: Date, newDevice: () -> String
    ) throws -> SyncReport? {
        let current = try storage.fingerprint()
        guard current != fingerprint, current != state.captured else { return nil }
        if let change, !change.diff.isEmpty, change.opened == state.captured {
            var state = try Sync.record(change.diff, folder: folder, state: state, now: now)
            state.captured = current
            // Unsynced: a state lost to a power cut counts a store other than this one, which the next
            // command mends by reading the logs again.
            try state.append(path: storage.syncStatePath, fileSystem: storage.fileSystem)
            return nil
        }
        release()
        return try reconcile(capture: true, now: now, newDevice: newDevice)
    }

    /// Brings the store and the folder together under the store lock: applies what the other devices'
    /// logs grew by when that is all there is to do, else records this store's changes the log does not
    /// hold (when `capture`, or when the store is not the one the state counts) and applies every
    /// device's operations again. The store is saved first, then the state.
    ///
    /// - Parameter name: this machine's name for the other devices (`sync init --name`).
    public func reconcile(capture: Bool, name: String? = nil, now: Date, newDevice: () -> String) throws -> SyncReport {
        let unlock = try storage.fileSystem.lock(storage.lockPath, lockTimeout)
        defer { unlock() }
        // Read again under the lock: another bookclub may have synced since.
        let state = try SyncState.load(path: storage.syncStatePath, fileSystem: storage.fileSystem) ?? state
        let capture = try capture || storage.fingerprint() != state.captured
        func store(_ scope: LibraryScope) throws -> Store<Library> {
            // The lock is held here: the store is read as by a writer, which may mend it under the lock.
            try Store(
                persistence: storage.persistence(
                    lockTimeout: nil, recording: (UndoRecord.syncCommand, now.wholeSeconds), scope: scope
                ) { try storage.readFiles(locked: true) })
        }
        func keep(_ state: SyncState) throws {
            var state = state
            state.captured = try storage.fingerprint()
            try state.save(path: storage.syncStatePath, fileSystem: storage.fileSystem)
        }
        if !capture, name == nil, let news = try Sync.news(folder, state: state) {
            let store = try store(LibraryScope.books(news.books).withHistory)
            var library = store.state
            if let (state, report) = Sync.apply(news, to: &library) {
                store.update { $0 = library }
                try store.save()
                try keep(state)
                return report
            }
        }
        // The first machine in a new folder sends the library a few books at a time.
        let (logs, unopened) = folder.contents()
        if capture, logs.isEmpty, unopened.isEmpty, state.files.isEmpty {
            let join = try Sync.sendWhole(
                storage.historyWalk(locked: true), folder: folder, state: state, now: now, name: name)
            if !join.books.isEmpty || join.clubs != nil {
                let store = try store(LibraryScope.books(Set(join.books.map(\.id))).withHistory)
                store.update { library in
                    for book in join.books { if let index = library.index(of: book.id) { library.books[index] = book } }
                    if let clubs = join.clubs { library.clubs = clubs }
                }
                try store.save()
            }
            try keep(join.state)
            return join.report
        }
        let store = try store(.everything.withHistory)
        let result = try Sync.reconcile(
            store.state, folder: folder, state: state, capture: capture, now: now, name: name,
            newDevice: newDevice(), lastContents: storage.lastContents(of:))
        store.update { $0 = result.library.withdrawingWhatIsGone(from: $0) }
        try store.save()
        try keep(result.state)
        return result.report
    }
}
