#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LibraryStorage {
    /// Opens the library for `operation`: reads the books it names, resolves it against them, and
    /// loads the histories its plan asks for (a store locked first with `lockTimeout`).
    ///
    /// ```swift
    /// let (store, plan) = try storage.open(for: ShowBook(book: choice), lockTimeout: nil)
    /// let book = try plan.result(in: store.state)
    /// ```
    public func open<Operation: LibraryOperation>(
        for operation: Operation, lockTimeout: Double?, recording: (command: String, time: Date)? = nil
    ) throws -> (store: Store<Library>, plan: OperationPlan<Operation.Result>) {
        var plan: OperationPlan<Operation.Result>?
        let scope = LibraryScope(for: operation) { plan = $0 }
        let store = try Store(persistence: persistence(lockTimeout: lockTimeout, recording: recording, scope: scope))
        return (store, try plan ?? operation.resolve(in: store.state))
    }
}
