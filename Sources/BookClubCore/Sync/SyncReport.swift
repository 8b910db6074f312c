#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a sync brought and sent.
public struct SyncReport: Equatable, Sendable {
    /// Per device that sent anything, what came in, by kind (`entries`, `books`…), in name order.
    public var received: [Received] = []
    /// This device's operations written to its log.
    public var sent = 0
    /// Lines that could not be read: their device's later operations wait until they are mended.
    public var problems: [Problem] = []
    /// Lines of a later version of bookclub, kept and passed over.
    public var newer = 0
    /// This device's id was found in use elsewhere, or its log cut short: the id it had, and the one it
    /// goes on with.
    public var clone: Clone?

    public struct Clone: Equatable, Sendable {
        public var old: String
        public var new: String
        /// Whether it was this device's log found shorter than it wrote, rather than another machine
        /// writing to it.
        public var logCut = false
    }

    public struct Received: Equatable, Sendable {
        public var device: String
        public var name: String?
        public var counts: [Kind: Int]
    }

    public enum Kind: String, CaseIterable, Sendable {
        case books, entries, highlights, readings, edits, removals, clubs, meetings
    }

    public struct Problem: Codable, Equatable, Sendable {
        public var file: String
        /// The line that could not be read; 0 for the file as a whole (one that is not a plain file,
        /// left unopened).
        public var line: Int
        public var detail: String
    }
}
