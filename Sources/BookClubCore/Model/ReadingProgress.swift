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
        public var time: Date
        public var note: String?
        /// The page, minutes and place below, each held in 32 bits (`Int32.min` for none): an entry
        /// takes 64 bytes rather than 96, and a batch of 100,000 lines 3.2 MB less. A value beyond 32
        /// bits is held as the nearest that fits, which every check refuses as it would the value.
        private var heldPage: Int32
        private var heldMinutes: Int32
        private var heldListened: Int32

        /// The page, when the entry was logged as a page number.
        public var page: Int? {
            get { Self.value(heldPage) }
            set { heldPage = Self.held(newValue) }
        }
        /// The minutes read, when an e-reader's statistics say (a day of reading).
        public var minutes: Int? {
            get { Self.value(heldMinutes) }
            set { heldMinutes = Self.held(newValue) }
        }
        /// The place in an audiobook, in minutes from its start, when the entry was logged as a time.
        public var listened: Int? {
            get { Self.value(heldListened) }
            set { heldListened = Self.held(newValue) }
        }

        public init(
            id: UUID, progress: Double, page: Int? = nil, time: Date, note: String? = nil, minutes: Int? = nil,
            listened: Int? = nil
        ) {
            self.id = id
            self.progress = min(max(progress.isFinite ? progress : 0, 0), 1)
            self.time = time
            self.note = note
            heldPage = Self.held(page)
            heldMinutes = Self.held(minutes)
            heldListened = Self.held(listened)
        }

        private static func held(_ value: Int?) -> Int32 {
            value.map { Int32(clamping: max($0, Int(Int32.min) + 1)) } ?? .min
        }

        private static func value(_ held: Int32) -> Int? { held == .min ? nil : Int(held) }

        enum CodingKeys: String, CodingKey {
            case id, progress, page, time, note, minutes, listened
        }

        /// As the compiler would decode the entry, in the same order: the fraction as it is, for the
        /// checks to judge.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(UUID.self, forKey: .id)
            progress = try container.decode(Double.self, forKey: .progress)
            heldPage = Self.held(try container.decodeIfPresent(Int.self, forKey: .page))
            time = try container.decode(Date.self, forKey: .time)
            note = try container.decodeIfPresent(String.self, forKey: .note)
            heldMinutes = Self.held(try container.decodeIfPresent(Int.self, forKey: .minutes))
            heldListened = Self.held(try container.decodeIfPresent(Int.self, forKey: .listened))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(progress, forKey: .progress)
            try container.encodeIfPresent(page, forKey: .page)
            try container.encode(time, forKey: .time)
            try container.encodeIfPresent(note, forKey: .note)
            try container.encodeIfPresent(minutes, forKey: .minutes)
            try container.encodeIfPresent(listened, forKey: .listened)
        }
    }

    /// The entries in time order, oldest first.
    ///
    /// A store may hold only the latest entry of a reading in memory until its history is loaded
    /// (`isWhole` is then false); the latest entry is always present. A rule that reads more than the
    /// latest entry asks for them with `wholeEntries(of:)`, which fails on a partial log.
    public private(set) var entries: [Entry]
    /// Whether `entries` is every entry of the reading: false for a reading loaded from the store's
    /// snapshot without its history, true once the history is loaded and for a log made new, decoded
    /// from an export or built in a test. Not part of the value's equality, nor encoded.
    public private(set) var isWhole = true
    /// In a log loaded without its history, the time of the one entry it was loaded with (the
    /// latest). Every entry that follows that one is held: it, and those added since. So the entry
    /// before a time not earlier than this one is among `entries`, and a batch whose lines are late
    /// among themselves, but not before the stored latest, needs no history. `nil` once an entry is
    /// taken out or moved, which may leave the held ones short of that.
    private var heldSince: Date?
    /// Entries taken back on another machine (its `undo`, come through sync) that the store's history
    /// still holds, so that loading the history does not bring them back. Kept in the store only:
    /// never exported.
    public private(set) var withdrawn: Set<UUID> = []

    public init(entries: [Entry] = [], withdrawn: Set<UUID> = []) {
        // Most come in order already (the history is written in order): no copy for them.
        let isOrdered = entries.indices.dropFirst().allSatisfy { !Entry.precedes(entries[$0], entries[$0 - 1]) }
        self.entries = isOrdered ? entries : entries.sorted(by: Entry.precedes)
        self.withdrawn = withdrawn
    }

    enum CodingKeys: String, CodingKey {
        case entries
    }

    /// A log that holds only the entries the snapshot keeps (the latest), until its history is loaded.
    /// A reading with no entry has none in its history either: its log is whole.
    static func partial(entries: [Entry], withdrawn: Set<UUID>) -> ReadingProgress {
        var progress = ReadingProgress(entries: entries, withdrawn: withdrawn)
        progress.isWhole = entries.isEmpty
        progress.heldSince = entries.count == 1 ? entries[0].time : nil
        return progress
    }

    /// Every entry, for a rule that reads more than the latest one.
    ///
    /// - Parameter title: the book's, for the error.
    /// - Throws: `BookClubError.historyNotLoaded` when only the latest entry was loaded: the rule would
    ///   otherwise compute quietly from it.
    public func wholeEntries(of title: String) throws(BookClubError) -> [Entry] {
        guard isWhole else { throw BookClubError.historyNotLoaded(title: title) }
        return entries
    }

    /// The entry at or before `time` that an entry made at `time` follows: the latest entry when
    /// `time` is not before it, or one of those a partial log holds when `time` is not before the
    /// one it was loaded with (`heldSince`); else one from the whole log.
    public func entry(before time: Date, of title: String) throws(BookClubError) -> Entry? {
        guard let latest else { return nil }
        if latest.time <= time { return latest }
        if !isWhole, let heldSince, heldSince <= time { return entries.last { $0.time <= time } }
        return try wholeEntries(of: title).last { $0.time <= time }
    }

    public var latest: Entry? { entries.last }

    /// The latest fraction read, 0 before any entry.
    public var progress: Double { latest?.progress ?? 0 }

    /// Sets each page entry's fraction to its page over `pages` (at most 1).
    mutating func deriveFractions(pages: Int) {
        for index in entries.indices {
            guard let page = entries[index].page else { continue }
            let fraction = Self.fraction(page, of: pages)
            if entries[index].progress != fraction { entries[index].progress = fraction }
        }
    }

    /// A page over the page count, or a place over the length, as a fraction read: at most 1.
    static func fraction(_ part: Int, of whole: Int) -> Double { min(max(Double(part) / Double(whole), 0), 1) }

    mutating func deriveFractions(length: Int) {
        for index in entries.indices {
            guard let listened = entries[index].listened else { continue }
            let fraction = Self.fraction(listened, of: length)
            if entries[index].progress != fraction { entries[index].progress = fraction }
        }
    }

    /// Makes room for `count` more entries at once, for a batch that adds them one by one: the
    /// entries grow by exactly as much, where adding one at a time doubles their room each time.
    mutating func reserve(_ count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// Adds an entry in its place (`Entry.precedes`).
    public mutating func add(_ entry: Entry) {
        // Looked for from the end, where a new entry most often goes.
        var index = entries.count
        while index > 0, Entry.precedes(entry, entries[index - 1]) { index -= 1 }
        entries.insert(entry, at: index)
    }
}

extension ReadingProgress {
    /// Two logs are equal when their entries and withdrawn ids are: a log loaded without its history
    /// is the same value to a save as the one it was loaded as.
    public static func == (a: Self, b: Self) -> Bool {
        a.entries == b.entries && a.withdrawn == b.withdrawn
    }
}

extension ReadingProgress.Entry {
    /// The one order of entries, which every machine computes alike from the entries alone: by time,
    /// then, for entries of the same second (a script, a cron job, an import, two machines), by id.
    /// bookclub makes ids in the order it makes entries (`IDSource`), so of two entries of one second
    /// logged on one machine, the later is the later.
    public static func precedes(_ a: Self, _ b: Self) -> Bool {
        guard a.time == b.time else { return a.time < b.time }
        return withUnsafeBytes(of: a.id.uuid) { a in
            withUnsafeBytes(of: b.id.uuid) { b in a.lexicographicallyPrecedes(b) }
        }
    }
}

extension ReadingProgress {
    /// Adds an entry, or replaces the one with its id (in its new place, if it moved in time).
    mutating func put(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.id == entry.id }) {
            guard entries[index].time != entry.time else {
                entries[index] = entry
                return
            }
            entries.remove(at: index)
            heldSince = nil
        }
        add(entry)
    }

    /// Takes an entry out, and keeps its id so that the history does not bring it back.
    mutating func withdraw(_ id: UUID) {
        entries.removeAll { $0.id == id }
        withdrawn.insert(id)
        heldSince = nil
    }
}
