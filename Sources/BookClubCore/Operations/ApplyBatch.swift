#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `log --stdin`: a batch of events applied as one change (see `Library.apply(_:now:timeZone:skipInvalid:ids:)`).
/// It reads every book's line, and the histories of the books a line is backdated on.
public struct ApplyBatch: LibraryOperation {
    public var lines: [NumberedEvent]
    public var now: Date
    public var timeZone: Zone
    public var skipInvalid: Bool
    public var ids: IDSource

    public init(lines: [NumberedEvent], now: Date, timeZone: Zone, skipInvalid: Bool, ids: IDSource) {
        self.lines = lines
        self.now = now
        self.timeZone = timeZone
        self.skipInvalid = skipInvalid
        self.ids = ids
    }

    public var books: LibraryScope.Books { .everything }

    public func resolve(in snapshot: Library) throws -> OperationPlan<BatchOutcome> {
        OperationPlan(history: snapshot.booksBackdated(in: lines)) { library in
            try library.apply(lines, now: now, timeZone: timeZone, skipInvalid: skipInvalid, ids: ids)
        }
    }
}
