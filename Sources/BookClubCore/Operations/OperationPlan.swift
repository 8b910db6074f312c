#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An operation resolved against a snapshot: the books it reads with their whole history, and its
/// step, which carries what resolving found.
public struct OperationPlan<Result> {
    /// The books `apply` reads with every entry; the storage loads their histories.
    public var history: Set<Book.ID>
    /// Applies the operation: a change mutates the library, a report only reads it.
    public var apply: (inout Library) throws -> Result

    public init(history: Set<Book.ID> = [], apply: @escaping (inout Library) throws -> Result) {
        self.history = history
        self.apply = apply
    }

    /// The result of a report, or of a change made to a copy (a dry run): `library` is left as it is.
    public func result(in library: Library) throws -> Result {
        var copy = library
        return try apply(&copy)
    }
}
