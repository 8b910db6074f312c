#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LibraryScope {
    /// What `operation` reads: its books, and the histories its plan asks for, the plan made once from
    /// the books as the snapshot holds them and handed to `resolved` for the command to apply.
    public init<Operation: LibraryOperation>(
        for operation: Operation, resolved: @escaping (OperationPlan<Operation.Result>) -> Void
    ) {
        self.init(
            books: operation.books,
            history: { snapshot in
                let plan = try operation.resolve(in: snapshot)
                resolved(plan)
                return plan.history
            })
    }
}
