/// The single source of truth for one kind of state (the library, the settings, a scene), with one door
/// for mutation and will-change observation, like the talk's `ObservableObject`.
///
/// ```swift
/// let token = store.observe(\.books.count) { old, new in print("\(old) -> \(new)") }
/// try store.update { $0.addBook(book) }   // the observer runs first, while `store.state` is still old
/// try store.save()                        // one write, however many updates came before
/// ```
///
/// `update` applies its closure to a copy; when the copy differs, every observer whose scope changed is
/// called *before* the new value is installed, so it still reads the old one. If the closure throws,
/// nothing changes and nobody is told. Observations are persistent: they fire for every change until
/// their token is cancelled or released. A nested `update` (from inside an update or an observer) is a
/// programming error and traps.
///
/// The class asks nothing of `State`; its initializer asks that it be `Equatable` and keeps `==`. A
/// constraint on the class would have the runtime look the conformance up, through every record of
/// the binary, the first time each kind of store is made: 60 µs a store, three stores a command.
public final class Store<State> {
    public private(set) var state: State
    /// What was last loaded or saved; `save()` writes only when `state` differs from it.
    private var saved: State
    private let persistence: Persistence<State>
    private let same: (State, State) -> Bool
    private var observers: [(id: Int, willChange: (State, State) -> Void)] = []
    private var nextObserverID = 0
    private var isUpdating = false
    /// How many times the state was written; each command should cause at most one.
    public private(set) var saveCount = 0

    /// Loads the state through `persistence`.
    public init(persistence: Persistence<State>) throws where State: Equatable {
        self.persistence = persistence
        same = (==)
        state = try persistence.load()
        saved = state
    }

    deinit {
        persistence.close()
    }

    /// Whether there are changes that `save()` would write.
    public var hasUnsavedChanges: Bool { !same(state, saved) }

    /// Mutates the state through a copy, telling the observers before the change is installed.
    @discardableResult
    public func update<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        precondition(!isUpdating, "Store.update was called while an update was in progress")
        isUpdating = true
        defer { isUpdating = false }
        var draft = state
        let result = try body(&draft)
        if !same(draft, state) {
            for observer in observers {
                observer.willChange(state, draft)
            }
            state = draft
        }
        return result
    }

    /// Calls `willChange(old, new)` before every change of the value at `keyPath`; other changes are not heard.
    public func observe<Value: Equatable>(
        _ keyPath: KeyPath<State, Value>, willChange: @escaping (_ old: Value, _ new: Value) -> Void
    ) -> ObservationToken {
        addObserver { old, new in
            let (before, after) = (old[keyPath: keyPath], new[keyPath: keyPath])
            if before != after { willChange(before, after) }
        }
    }

    /// Calls `willChange` before every change of the state.
    public func observe(willChange: @escaping () -> Void) -> ObservationToken {
        addObserver { _, _ in willChange() }
    }

    private func addObserver(_ willChange: @escaping (State, State) -> Void) -> ObservationToken {
        let id = nextObserverID
        nextObserverID += 1
        observers.append((id, willChange))
        return ObservationToken { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    /// Writes the state if it changed since it was loaded or last saved.
    public func save() throws {
        guard hasUnsavedChanges else { return }
        try persistence.save(saved, state)
        saved = state
        saveCount += 1
    }
}

/// Cancels an observation when `cancel()` is called or when it is released.
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    deinit {
        cancel()
    }
}

/// How a store's state is read and written: a value of closures, so that tests can swap the file system.
public struct Persistence<State> {
    public var load: () throws -> State
    /// Writes `new`; `old` is what was last loaded or saved, for storages that append only what changed.
    public var save: (_ old: State, _ new: State) throws -> Void
    /// Releases what the persistence holds (a lock); called when the store goes away.
    public var close: () -> Void

    public init(
        load: @escaping () throws -> State, save: @escaping (State, State) throws -> Void,
        close: @escaping () -> Void = {}
    ) {
        self.load = load
        self.save = save
        self.close = close
    }
}

extension Persistence {
    /// Keeps the state in memory only, starting from `initial`.
    public static func inMemory(_ initial: State) -> Persistence {
        Persistence(load: { initial }, save: { _, _ in })
    }
}
