import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Syncing around a command: with a sync folder and `syncProgress` on, every command first applies
/// what the other devices wrote (only when their logs grew) and records its own changes after its save.
extension Session {
    /// The folder and this store's state in it, when the `syncFolder` setting names the folder this
    /// store joined; `nil` when it does not sync.
    func syncing() throws -> (folder: SyncFolder, state: SyncState)? {
        let folder = try settings().state.syncFolder
        guard !folder.isEmpty,
            let state = try SyncState.load(path: storage.syncStatePath, fileSystem: services.fileSystem),
            state.folder == folder
        else { return nil }
        return (SyncFolder(path: folder, fileSystem: services.fileSystem), state)
    }

    /// Before a command: applies the other devices' new operations, and records any change of this store
    /// its log does not hold (a command stopped before it wrote there). Costs a few `stat`s when nothing
    /// is new. Problems are warnings here: the command goes on with what could be read.
    func syncBeforeCommand() {
        // A store that never joined a folder has no sync state: one `stat`, and nothing more.
        guard (try? services.fileSystem.size(storage.syncStatePath)) != nil,
            let settings = try? settings().state, settings.syncProgress, !settings.syncFolder.isEmpty
        else { return }
        do {
            guard let (folder, state) = try syncing() else { return }
            let fingerprint = try storage.fingerprint()
            syncedFingerprint = fingerprint
            guard fingerprint != state.captured || Sync.hasNews(folder, state: state) else {
                // Said again by every command until the line is mended.
                warn(state.problems.values.sorted { ($0.file, $0.line) < ($1.file, $1.line) })
                return
            }
            warn(try reconcile(folder, state, capture: fingerprint != state.captured))
            syncedFingerprint = try storage.fingerprint()
        } catch {
            output.write("could not sync: \(describe(error))", as: .warning)
        }
    }

    /// After a command's save: appends the operations of its change to this device's log, or, when the
    /// store changed in a way the command did not observe (`undo`), syncs. A failure is a warning: the
    /// change stands here, and the next command records it.
    func syncAfterCommand() {
        // Nothing was committed since the command began: nothing to record.
        guard let before = syncedFingerprint, let now = try? storage.fingerprint(), now != before else { return }
        do {
            guard let (folder, state) = try syncing(), now != state.captured else { return }
            if let store = libraryStore, let base = changeBase, store.state != base,
                libraryFingerprint == state.captured
            {
                var state = try Sync.record(
                    from: base, to: store.state, folder: folder, state: state, now: services.now())
                state.captured = now
                try state.save(path: storage.syncStatePath, fileSystem: services.fileSystem)
            } else {
                releaseLibrary()
                warn(try reconcile(folder, state, capture: true))
            }
        } catch {
            output.write(
                "the change is saved here, but not yet in the sync folder (the next command tries again): \(describe(error))",
                as: .warning)
        }
    }

    /// Brings the store and the folder together under the store lock: applies what the other devices'
    /// logs grew by when that is all there is to do, else records this store's changes the log does not
    /// hold (when `capture`) and applies every device's operations again.
    func reconcile(_ folder: SyncFolder, _ state: SyncState, capture: Bool, name: String? = nil) throws -> SyncReport {
        let unlock = try services.fileSystem.lock(storage.lockPath, try settings().state.lockTimeout)
        defer { unlock() }
        // Read again under the lock: another bookclub may have synced since.
        let state = try SyncState.load(path: storage.syncStatePath, fileSystem: services.fileSystem) ?? state
        let capture = try capture || storage.fingerprint() != state.captured
        func store(_ scope: LibraryScope) throws -> Store<Library> {
            try Store(
                persistence: storage.persistence(
                    lockTimeout: nil, recording: (Change.syncCommand, services.now().wholeSeconds), scope: scope))
        }
        func keep(_ state: SyncState) throws {
            var state = state
            state.captured = try storage.fingerprint()
            try state.save(path: storage.syncStatePath, fileSystem: services.fileSystem)
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
        let store = try store(.everything.withHistory)
        let result = try Sync.reconcile(
            store.state, folder: folder, state: state, capture: capture, now: services.now(), name: name,
            newDevice: services.makeID(), lastContents: storage.lastContents(of:))
        store.update { $0 = result.library }
        try store.save()
        try keep(result.state)
        return result.report
    }

    /// An error as one line, for a warning.
    private func describe(_ error: any Error) -> TerminalText {
        switch ErrorReport(error, path: [], timeZone: timeZone).message {
        case .error(let text): text
        case .usage(let text): TerminalText(text)
        case .none: TerminalText(String(describing: error))
        }
    }

    /// Says each log line that could not be read, and a device id found in use elsewhere, as warnings.
    private func warn(_ report: SyncReport) {
        if let clone = report.clone { output.write(SyncText.clone(clone), as: .warning) }
        warn(report.problems)
    }

    private func warn(_ problems: [SyncReport.Problem]) {
        for problem in problems { output.write(SyncText.problem(problem), as: .warning) }
    }
}
