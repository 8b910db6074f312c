import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Session {
    /// The library opened for `operation` (see `library(forWriting:scope:)`): the books it names, and
    /// the histories it asks for once resolved against them; and its plan, to apply.
    func library<Operation: LibraryOperation>(forWriting: Bool = false, for operation: Operation) throws -> (
        store: Store<Library>, plan: OperationPlan<Operation.Result>
    ) {
        var plan: OperationPlan<Operation.Result>?
        let store = try library(forWriting: forWriting, scope: LibraryScope(for: operation) { plan = $0 })
        // A library this command opened already is not read again: the operation is resolved against
        // it, and a rule that needs a history it lacks says so.
        return (store, try plan ?? operation.resolve(in: store.state))
    }

    /// Performs a change: the library opened for writing with what `operation` reads, and the
    /// operation applied as the command's one change.
    func perform<Operation: LibraryOperation>(_ operation: Operation) throws -> (
        store: Store<Library>, result: Operation.Result
    ) {
        let (store, plan) = try library(forWriting: true, for: operation)
        return (store, try store.update { try plan.apply(&$0) })
    }

    /// Computes a report, or a change on a copy (a dry run): the library opened with what `operation`
    /// reads, for writing when `forWriting`, and left as it is.
    func compute<Operation: LibraryOperation>(_ operation: Operation, forWriting: Bool = false) throws -> (
        library: Library, result: Operation.Result
    ) {
        let (store, plan) = try library(forWriting: forWriting, for: operation)
        return (store.state, try plan.result(in: store.state))
    }

    /// The book a command is about, in the library opened for it (reading only that book's line when
    /// named or selected), and how messages refer to it.
    func chooseBook(_ reference: String?, forWriting: Bool = false) throws -> (
        store: Store<Library>, book: Book, reference: String
    ) {
        let (store, plan) = try library(forWriting: forWriting, for: BookChoice(reference, in: self))
        let chosen = try plan.result(in: store.state)
        return (store, chosen.book, chosen.reference)
    }
}
