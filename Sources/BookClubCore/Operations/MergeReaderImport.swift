#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `import kindle` and `import koreader`: an e-reader's file merged into every book. The books it
/// matches come with their history, so that no entry is added twice.
public struct MergeReaderImport: LibraryOperation {
    public var file: ReaderImport
    public var now: Date
    public var makeID: () -> Book.ID
    public var ids: IDSource

    public init(_ file: ReaderImport, now: Date, makeID: @escaping () -> Book.ID, ids: IDSource) {
        self.file = file
        self.now = now
        self.makeID = makeID
        self.ids = ids
    }

    public var books: LibraryScope.Books { .everything }

    public func resolve(in snapshot: Library) throws -> OperationPlan<ReaderImportResult> {
        OperationPlan(history: snapshot.matches(file)) { [file, now, makeID, ids] library in
            try library.merge(file, now: now, makeID: makeID, ids: ids)
        }
    }
}
