#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SyncOperation.Change {
    /// A change, as operations say it. An entry is compared only when both libraries hold it (a
    /// command's partial load may hold only the latest entry of a reading).
    ///
    /// - Parameter seen: what this device has applied of each device's operations, its own included;
    ///   a book's removal covers those.
    static func changes(_ diff: LibraryDiff, seen: [String: Int]) -> [Self] {
        var changes: [Self] = []
        for change in diff.books {
            switch (change.before, change.after) {
            case (nil, let book?): changes += added(book)
            case (let before?, let book?):
                changes += BookField.changes(from: before, to: book).map { .setField(book: book.id, $0) }
                changes += tags(from: before, to: book)
                changes += readings(from: before, to: book)
            default: changes.append(.removeBook(book: change.id, seen: seen))
            }
        }
        if let (old, new) = diff.clubs { changes += clubs(from: old, to: new) }
        return changes
    }

    /// The changes that turn `old` into `new`, as operations say them.
    static func changes(from old: Library, to new: Library, seen: [String: Int]) -> [Self] {
        changes(LibraryDiff(from: old, to: new), seen: seen)
    }

    /// A whole library as operations: what a device that joins a sync folder writes first.
    static func all(_ library: Library) -> [Self] {
        changes(from: Library(), to: library, seen: [:])
    }

    private static func added(_ book: Book) -> [Self] {
        var changes: [Self] = [.addBook(BookCore(book))]
        for reading in book.readings {
            changes.append(.putReading(book: book.id, ReadingCore(reading)))
            for entry in reading.progress.entries {
                changes.append(.putEntry(book: book.id, reading: reading.id, entry))
            }
            for highlight in reading.highlights ?? [] {
                changes.append(.putHighlight(book: book.id, reading: reading.id, highlight))
            }
        }
        return changes
    }

    /// Tags taken off and put on. Applied, they keep the tags that stay in their order and add the new
    /// ones after them; when `new` has its tags in another order (an `undo` puts a removed tag back in
    /// its place), the tags from the first out of place on are taken off and put on again, in order.
    private static func tags(from old: Book, to new: Book) -> [Self] {
        let before = Set(old.tags.map { $0.lowercased() })
        let after = Set(new.tags.map { $0.lowercased() })
        let removed = old.tags.filter { !after.contains($0.lowercased()) }.map {
            Self.tag(book: new.id, tag: $0, on: false)
        }
        let applied =
            old.tags.filter { after.contains($0.lowercased()) } + new.tags.filter { !before.contains($0.lowercased()) }
        let first =
            new.tags.indices.first { applied[$0].lowercased() != new.tags[$0].lowercased() } ?? new.tags.count
        let again = new.tags[first...].filter { before.contains($0.lowercased()) }
        return removed + again.map { .tag(book: new.id, tag: $0, on: false) }
            + new.tags.enumerated().compactMap { index, tag in
                index >= first || !before.contains(tag.lowercased()) ? .tag(book: new.id, tag: tag, on: true) : nil
            }
    }

    private static func readings(from old: Book, to new: Book) -> [Self] {
        var changes: [Self] = []
        let oldReadings = Dictionary(old.readings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.readings.map(\.id))
        for reading in new.readings {
            let before = oldReadings[reading.id]
            if before.map(ReadingCore.init) != ReadingCore(reading) {
                changes.append(.putReading(book: new.id, ReadingCore(reading)))
            }
            let oldEntries = Dictionary(
                (before?.progress.entries ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for entry in reading.progress.entries {
                if let was = oldEntries[entry.id], sameEntry(was, entry) { continue }
                changes.append(.putEntry(book: new.id, reading: reading.id, entry))
            }
            let newEntries = Set(reading.progress.entries.map(\.id))
            for entry in before?.progress.entries ?? [] where !newEntries.contains(entry.id) {
                changes.append(.removeEntry(book: new.id, reading: reading.id, entry: entry.id))
            }
            let oldHighlights = Dictionary(
                (before?.highlights ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for highlight in reading.highlights ?? [] where oldHighlights[highlight.id] != highlight {
                changes.append(.putHighlight(book: new.id, reading: reading.id, highlight))
            }
            let newHighlights = Set((reading.highlights ?? []).map(\.id))
            for highlight in before?.highlights ?? [] where !newHighlights.contains(highlight.id) {
                changes.append(.removeHighlight(book: new.id, reading: reading.id, highlight: highlight.id))
            }
        }
        for reading in old.readings where !newIDs.contains(reading.id) {
            changes.append(.removeReading(book: new.id, reading: reading.id))
        }
        return changes
    }

    /// Entries the same but for a fraction derived from the page or the time (which a new page count
    /// or length changes).
    private static func sameEntry(_ a: ReadingProgress.Entry, _ b: ReadingProgress.Entry) -> Bool {
        a.page != nil || a.listened != nil
            ? (a.page, a.listened, a.time, a.note, a.minutes) == (b.page, b.listened, b.time, b.note, b.minutes)
            : a == b
    }

    private static func clubs(from old: [Club], to new: [Club]) -> [Self] {
        var changes: [Self] = []
        let oldClubs = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(\.id))
        for club in new {
            let before = oldClubs[club.id]
            if before.map(ClubCore.init) != ClubCore(club) { changes.append(.putClub(ClubCore(club))) }
            let oldMeetings = Dictionary(
                (before?.meetings ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for meeting in club.meetings where oldMeetings[meeting.id] != meeting {
                changes.append(.putMeeting(club: club.id, meeting))
            }
            let newMeetings = Set(club.meetings.map(\.id))
            for meeting in before?.meetings ?? [] where !newMeetings.contains(meeting.id) {
                changes.append(.removeMeeting(club: club.id, meeting: meeting.id))
            }
        }
        for club in old where !newIDs.contains(club.id) { changes.append(.removeClub(club.id)) }
        return changes
    }
}
