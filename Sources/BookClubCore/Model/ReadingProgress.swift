#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The log of one reading, as in the talk: a list of entries, the latest of which is the progress.
public struct ReadingProgress: Codable, Equatable, Sendable {
    /// One logged update.
    public struct Entry: Identifiable, Codable, Equatable, Sendable {
        public let id: UUID
        /// The fraction read, 0...1.
        public var progress: Double
        /// The page, when the entry was logged as a page number.
        public var page: Int?
        public var time: Date
        public var note: String?
        /// The minutes read, when an e-reader's statistics say (a day of reading).
        public var minutes: Int?

        public init(id: UUID, progress: Double, page: Int? = nil, time: Date, note: String? = nil, minutes: Int? = nil)
        {
            self.id = id
            self.progress = min(max(progress.isFinite ? progress : 0, 0), 1)
            self.page = page
            self.time = time
            self.note = note
            self.minutes = minutes
        }
    }

    /// The entries in time order, oldest first.
    ///
    /// A store may hold only the latest entry of a reading in memory until its history is loaded;
    /// the latest entry is always present.
    public private(set) var entries: [Entry]
    /// Entries taken back on another machine (its `undo`, come through sync) that the store's history
    /// still holds, so that loading the history does not bring them back. Kept in the store only:
    /// never exported.
    public private(set) var withdrawn: Set<UUID> = []

    public init(entries: [Entry] = [], withdrawn: Set<UUID> = []) {
        // Most come in order already (the history is written in order): no copy for them.
        let isOrdered = zip(entries, entries.dropFirst()).allSatisfy { $0.time <= $1.time }
        self.entries = isOrdered ? entries : entries.sorted { $0.time < $1.time }
        self.withdrawn = withdrawn
    }

    enum CodingKeys: String, CodingKey {
        case entries
    }

    public var latest: Entry? { entries.last }

    /// The latest fraction read, 0 before any entry.
    public var progress: Double { latest?.progress ?? 0 }

    /// Sets each page entry's fraction to its page over `pages` (at most 1).
    mutating func deriveFractions(pages: Int) {
        for index in entries.indices {
            guard let page = entries[index].page else { continue }
            let fraction = min(max(Double(page) / Double(pages), 0), 1)
            if entries[index].progress != fraction { entries[index].progress = fraction }
        }
    }

    /// Adds an entry in time order (after any entry with the same time).
    public mutating func add(_ entry: Entry) {
        let index = entries.lastIndex { $0.time <= entry.time }.map { $0 + 1 } ?? 0
        entries.insert(entry, at: index)
    }
}

extension ReadingProgress {
    /// Adds an entry, or replaces the one with its id at the same time; `false` for one that moved in
    /// time (whose place among entries of the same time only the fold knows).
    mutating func put(_ entry: Entry) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == entry.id }) else {
            add(entry)
            return true
        }
        guard entries[index].time == entry.time else { return false }
        entries[index] = entry
        return true
    }

    /// Takes an entry out, and keeps its id so that the history does not bring it back.
    mutating func withdraw(_ id: UUID) {
        entries.removeAll { $0.id == id }
        withdrawn.insert(id)
    }
}
