import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One command's session: the services it was handed, the paths and options of its command line,
/// and what it opens, once and lazily: the stores and their lock, the output held until the save,
/// the hooks. A command reads the services through it (`session.now()`, `session.fileSystem`).
@dynamicMemberLookup
final class Session {
    let services: Services
    let paths: Paths
    /// The command as typed after `bookclub`, for the undo log.
    let commandLine: String
    let timeZone: Zone
    let globals: GlobalOptions
    /// Data and messages waiting for the command's save.
    private var pending: [(text: String, toStandardOutput: Bool)] = []

    init(services: Services, globals: GlobalOptions, arguments: [String], timeZone: Zone) {
        self.services = services
        self.globals = globals
        self.timeZone = timeZone
        paths = Paths(
            environment: services.variables, store: globals.store, settings: globals.settings,
            workingDirectory: services.workingDirectory, userHome: services.userHome)
        commandLine = arguments.map(\.shellWord).joined(separator: " ")
    }

    subscript<Value>(dynamicMember keyPath: KeyPath<Services, Value>) -> Value {
        services[keyPath: keyPath]
    }

    /// False with `--no-hooks` or `BOOKCLUB_NO_HOOKS` (set for the hooks themselves).
    var hooksEnabled: Bool { globals.hooksEnabled && (services.variables["BOOKCLUB_NO_HOOKS"] ?? "").isEmpty }

    // MARK: Output

    /// Decided once, on first use. The `color` setting is read only if no flag or variable decides;
    /// a settings file that cannot be read counts as `auto` here (the commands that need the settings
    /// report it).
    private(set) lazy var output: Output = {
        func wants(_ isTerminal: Bool) -> Bool {
            Terminal.wantsColor(
                flag: globals.color, setting: { [unowned self] in (try? settings().state.color) ?? .auto },
                environment: services.variables, isTerminal: isTerminal)
        }
        return Output(
            sink: { [unowned self] in pending.append(($0, $1)) },
            immediate: { [write = services.write] in write($0, false) },
            isQuiet: globals.quiet, dataStyle: Style(isEnabled: wants(services.terminal.standardOutputIsTerminal)),
            messageStyle: Style(isEnabled: wants(services.terminal.standardErrorIsTerminal)))
    }()

    var style: Style { output.dataStyle }

    // MARK: Stores, each opened at most once

    private var settingsStore: Store<Settings>?
    private var sceneStore: Store<SceneState>?
    private(set) var libraryStore: Store<Library>?
    private var libraryIsLocked = false
    private var libraryLeavesDetails = false
    /// Whether a missing store has been said, or is not to be (a completion's listing prints nothing else).
    var missingStoreNoted = false
    /// Whether the command printed JSON, which is never paged.
    var printedJSON = false
    /// The store's fingerprint when the library was opened for writing (see `syncAfterCommand`).
    private(set) var libraryFingerprint: String?
    /// The store's fingerprint once `syncBeforeCommand` is done, when this command syncs; `nil` when
    /// it does not.
    var syncedFingerprint: String?

    var storage: LibraryStorage {
        LibraryStorage(path: paths.store, fileSystem: services.fileSystem, ids: services.ids)
    }

    func settings() throws -> Store<Settings> {
        if let settingsStore { return settingsStore }
        let store = try Store(persistence: Settings.persistence(path: paths.settings, fileSystem: services.fileSystem))
        settingsStore = store
        return store
    }

    func scene() throws -> Store<SceneState> {
        if let sceneStore { return sceneStore }
        let store = try Store(persistence: SceneState.persistence(path: paths.scene, fileSystem: services.fileSystem))
        sceneStore = store
        return store
    }

    /// The library, opened once by a command. `forWriting` takes the store lock first (waiting up to
    /// the `lockTimeout` setting) and keeps it until the environment is closed; a command that only
    /// reads does not lock. A library first opened for reading (as `progress --edit` does before the
    /// editor opens) is read again under the lock when it is opened for writing.
    ///
    /// - Parameters:
    ///   - scope: the books to load, and which of them with their full history. A command about one
    ///     book loads only it (`library(forWriting:for:)` with its operation), so that it costs the
    ///     same however many books the store holds.
    ///   - staged: the history lines the command wrote before its save (`StagedHistory`); only for
    ///     the library's first opening.
    func library(
        forWriting: Bool = false, scope: LibraryScope = .everything, staged: @escaping () -> StagedHistory? = { nil }
    ) throws -> Store<Library> {
        precondition(!(forWriting && scope.leavesDetails), "a library without its books' details is never written")
        // A library read without the books' details serves only a read that asks for no more.
        if let libraryStore, libraryIsLocked || !forWriting, scope.leavesDetails || !libraryLeavesDetails {
            precondition(staged() == nil, "staged history lines for a library opened already")
            return libraryStore
        }
        if !forWriting { noteMissingStore() }
        let timeout = forWriting ? try settings().state.lockTimeout : nil
        let store = try Store(
            persistence: storage.persistence(
                lockTimeout: timeout, recording: forWriting ? (commandLine, services.now().wholeSeconds) : nil,
                scope: scope, didSave: { [unowned self] in savedChange = $0 }, staged: staged))
        libraryStore = store
        libraryIsLocked = forWriting
        libraryLeavesDetails = scope.leavesDetails
        if forWriting { libraryFingerprint = try? storage.fingerprint() }
        return store
    }

    /// The rows of the books of these statuses as `list` shows them, in the store's order, and how
    /// many books the store holds; read without a lock.
    func bookRows(of statuses: Set<Book.Status>) throws -> (rows: [BookRow], books: Int) {
        noteMissingStore()
        return try storage.rows(of: statuses)
    }

    /// Says once, for a command that reads, that there is no store at its path yet: a mistyped
    /// `--store` shows an empty library, and should not do so in silence.
    func noteMissingStore() {
        guard !missingStoreNoted, (try? services.fileSystem.size(storage.path) == nil) == true else { return }
        missingStoreNoted = true
        output.write(
            "There is no store at \(storage.path) yet; the first command that changes something makes it.",
            as: .message)
    }

    /// Releases the library and its lock before the command ends (to sync after `undo`).
    func releaseLibrary() {
        libraryStore = nil
        (libraryIsLocked, libraryLeavesDetails) = (false, false)
    }

    /// Open Library, through the cache (see `OpenLibraryService`).
    var openLibrary: OpenLibraryService {
        let cache = OpenLibraryCache(folder: paths.cache, fileSystem: services.fileSystem)
        return OpenLibraryService(
            cache: cache, now: services.now,
            client: { [unowned self] in
                try OpenLibraryClient(settings: settings().state, services: services, cache: cache)
            })
    }

    // MARK: Hooks

    private var hooks: Hooks { Hooks(folder: paths.hooks, runner: services.runner) }
    /// What the command's save changed, for the hooks and the sync log.
    private(set) var savedChange: LibraryDiff?

    /// The hook runs the saved change calls for, ready to run once the store is released; call
    /// after `saveChanges()`. Running them returns the warnings to print.
    func pendingHooks() -> () -> [String] {
        guard hooksEnabled, let change = savedChange, !change.isEmpty else { return { [] } }
        let hooks = hooks
        let jobs = hooks.jobs(for: change, command: commandLine)
        guard !jobs.isEmpty else { return { [] } }
        let timeout = (try? settings().state.hookTimeout) ?? Settings().hookTimeout
        let (variables, paths) = (services.variables, paths)
        return { hooks.run(jobs, variables: variables, paths: paths, timeout: timeout) }
    }

    /// Saves every store that changed: the one save of a command.
    func saveChanges() throws {
        try libraryStore?.save()
        // The library is the command's commit: its selection and settings follow even if a signal came.
        services.didCommit()
        try settingsStore?.save()
        try sceneStore?.save()
    }

    /// Writes what the command printed, once its changes are saved. Data taller than the terminal
    /// goes through the pager, unless it is JSON or `--no-pager` was given.
    func flushOutput() {
        defer { pending = [] }
        // The output is joined only for a terminal, where it may be paged.
        if globals.pagerEnabled, !printedJSON, services.terminal.standardOutputIsTerminal,
            services.paged(pending.filter(\.1).map(\.0).joined())
        {
            for (text, toStandardOutput) in pending where !toStandardOutput { services.write(text, false) }
            return
        }
        for (text, toStandardOutput) in Self.writes(of: pending) { services.write(text, toStandardOutput) }
    }

    /// The writes that send `pending` in its order: what goes to one stream in a row, joined (a
    /// write a line made a `list` of 3,000 books 3,000 system calls).
    static func writes(of pending: [(text: String, toStandardOutput: Bool)]) -> [(
        text: String, toStandardOutput: Bool
    )] {
        var writes: [(text: String, toStandardOutput: Bool)] = []
        for item in pending {
            if writes.last?.toStandardOutput == item.toStandardOutput {
                writes[writes.count - 1].text += item.text
            } else {
                writes.append(item)
            }
        }
        return writes
    }

    /// Releases the stores and with them the store lock; output not flushed by then is dropped.
    func close() {
        pending = []
        releaseLibrary()
        settingsStore = nil
        sceneStore = nil
    }
}
