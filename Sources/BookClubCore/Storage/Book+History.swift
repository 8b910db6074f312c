#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A line of the history. `previous` is where the line before it of the same book begins, `-1` when
/// it is the book's first: a chain through the history that `show` follows back from the book's
/// `historyTail` rather than read every line. A book removed and back again (from another machine, or
/// imported again) starts a new chain: the lines before its new first line are no longer its history. `nil` in a line of an earlier bookclub, or one written
/// when the book's lines before it were not chained: the book's history is then read whole.
struct HistoryRecord: Codable {
    var book: Book.ID
    var reading: UUID
    var entry: ReadingProgress.Entry
    var previous: Int?
}

extension Book {
    /// Gives each reading every entry the history holds for it, taken out of `history`; the latest
    /// entry, which the snapshot holds, is kept should the history not have it.
    mutating func loadHistory(_ history: inout [UUID: [ReadingProgress.Entry]]) {
        // Taken out, so that the entries are not copied when added to.
        loadHistory { _, id in history.removeValue(forKey: id) ?? [] }
    }

    /// The same, `entries` giving the history's entries of the reading at an index, with an id.
    mutating func loadHistory(_ entries: (Int, UUID) -> [ReadingProgress.Entry]) {
        for index in readings.indices {
            var entries = entries(index, readings[index].id)
            let withdrawn = readings[index].progress.withdrawn
            if !withdrawn.isEmpty { entries.removeAll { withdrawn.contains($0.id) } }
            // The snapshot's one latest entry is the history's last, most likely: looked for from the end.
            let held = readings[index].progress.entries
            let loaded = held.count > 1 ? Set(entries.map(\.id)) : []
            entries += held.filter { entry in
                held.count > 1 ? !loaded.contains(entry.id) : !entries.reversed().contains { $0.id == entry.id }
            }
            readings[index].progress = ReadingProgress(entries: entries, withdrawn: withdrawn)
        }
        deriveFractions()
    }
}
