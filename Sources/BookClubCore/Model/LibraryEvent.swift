#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Something a change to the library did that a hook may want to hear of: a book added, progress
/// logged, a reading finished. Found by comparing the library before and after a change, as a
/// will-change observer of the store sees it.
public enum LibraryEvent: Equatable, Sendable {
    case added(Book.ID)
    case progress(Book.ID, ReadingProgress.Entry)
    case finished(Book.ID, Ending)

    /// The events of one change, in the order of the books and of their entries.
    public static func events(from old: Library, to new: Library) -> [LibraryEvent] {
        let before = Dictionary(old.books.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var events: [LibraryEvent] = []
        for book in new.books {
            guard let previous = before[book.id] else {
                events.append(.added(book.id))
                continue
            }
            guard previous != book else { continue }
            let earlier = Dictionary(previous.readings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for reading in book.readings {
                let known = Set(earlier[reading.id]?.progress.entries.map(\.id) ?? [])
                for entry in reading.progress.entries where !known.contains(entry.id) {
                    events.append(.progress(book.id, entry))
                }
                if let ending = reading.ending, ending.outcome == .finished,
                    earlier[reading.id]?.ending?.outcome != .finished
                {
                    events.append(.finished(book.id, ending))
                }
            }
        }
        return events
    }
}
