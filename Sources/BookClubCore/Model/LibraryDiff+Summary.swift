#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LibraryDiff {
    /// The most parts a summary lists before it counts the rest.
    static let listed = 5

    /// The change in a line, as `history` lists it: `added 'Dune'; 'Kindred': p. 120`. A short line
    /// however large the change: a batch of 100,000 entries over 300 books is told by its first books
    /// and a count, not entry by entry (the undo log keeps each summary, and each save reads the log).
    public var summary: String {
        var parts: [String] = []
        // An import adds many books at once: they are counted rather than listed.
        let added = books.filter { $0.before == nil }
        if added.count > 3 { parts.append("added \(added.count) books") }
        for change in books {
            guard let book = change.after else { continue }
            guard let before = change.before else {
                if added.count <= 3 { parts.append("added '\(book.title)'") }
                continue
            }
            let title = "'\(book.title)'"
            if book.readings.count > before.readings.count, before.status != .unstarted {
                parts.append("\(title): started reading \(book.readings.count)")
            } else if book.status != before.status, book.status == .finished || book.status == .abandoned {
                parts.append("\(title): \(book.status.rawValue)")
            } else if before.status == .finished || before.status == .abandoned, book.status == .reading {
                parts.append("\(title): resumed")
            } else if let logged = Self.logged(before: before, after: book) {
                parts.append("\(title): \(logged)")
            } else if case let count = Self.highlights(book) - Self.highlights(before), count > 0 {
                parts.append("\(title): \(count == 1 ? "a highlight" : "\(count) highlights")")
            } else {
                parts.append("\(title): edited")
            }
        }
        for change in books where change.after == nil {
            if let book = change.before { parts.append("removed '\(book.title)'") }
        }
        if let (old, new) = clubs {
            let oldClubs = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let newClubIDs = Set(new.map(\.id))
            for club in new where oldClubs[club.id] != club {
                parts.append(
                    oldClubs[club.id] == nil ? "added the club '\(club.name)'" : "club '\(club.name)': changed")
            }
            for club in old where !newClubIDs.contains(club.id) { parts.append("removed the club '\(club.name)'") }
        }
        if parts.isEmpty { return "no change" }
        if parts.count > Self.listed + 1 {
            parts = parts.prefix(Self.listed) + ["\(parts.count - Self.listed) more changes"]
        }
        return parts.joined(separator: "; ")
    }

    private static func highlights(_ book: Book) -> Int {
        book.readings.reduce(0) { $0 + ($1.highlights?.count ?? 0) }
    }

    /// The entries a change added to the current reading, as they were logged (`p. 120`; `p. 80,
    /// backdated` for one that went before the latest), or the latest entry when one was replaced.
    private static func logged(before: Book, after: Book) -> String? {
        guard let reading = after.currentReading, let latest = reading.progress.latest else { return nil }
        let earlier = Set(before.currentReading?.progress.entries.map(\.id) ?? [])
        let added = reading.progress.entries.filter { !earlier.contains($0.id) }
        if added.isEmpty {
            return latest != before.currentReading?.progress.latest ? ProgressText.place(latest) : nil
        }
        if added.count > 3 { return "\(added.count) entries, to \(ProgressText.place(latest))" }
        return added.map { ProgressText.place($0) + ($0.id != latest.id && $0.time < latest.time ? ", backdated" : "") }
            .joined(separator: ", ")
    }
}
