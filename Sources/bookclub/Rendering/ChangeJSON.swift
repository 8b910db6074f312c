import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A change as `history --json` and `undo --json` print it.
struct ChangeJSON: Encodable {
    var time: Date
    var command: String
    var summary: String

    init(_ change: UndoRecord) {
        (time, command, summary) = (change.time, change.command, change.summary)
    }
}
