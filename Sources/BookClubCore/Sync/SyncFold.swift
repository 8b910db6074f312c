#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The library a set of operations makes: each applied in the one order every device shares
/// (`SyncOperation.precedes`), the later of two writes to the same thing winning. Things are listed in
/// the order they were first written, so two devices that hold the same operations hold the same
/// library, to the order of its books.
struct SyncFold {
    private struct BookState {
        var core: BookCore?
        var first: Int
        /// By lowercased tag: whether it is on, as written, and when it was put on.
        var tags: [String: (on: Bool, text: String, position: Int)] = [:]
        var readings: [UUID: ReadingState] = [:]
        /// Each device's last operation on the book, and what the removals covered.
        var touched: [String: Int] = [:]
        var removed: [String: Int] = [:]

        var isRemoved: Bool {
            !removed.isEmpty && !touched.contains { device, sequence in sequence > removed[device, default: 0] }
        }
    }

    private struct ReadingState {
        var core: ReadingCore?
        var first: Int
        var entries: [UUID: (entry: ReadingProgress.Entry?, first: Int)] = [:]
        var highlights: [Highlight.ID: (highlight: Highlight?, first: Int)] = [:]
    }

    private struct ClubState {
        var core: ClubCore?
        var first: Int
        var meetings: [Meeting.ID: (meeting: Meeting?, first: Int)] = [:]
    }

    private var books: [Book.ID: BookState] = [:]
    private var clubs: [Club.ID: ClubState] = [:]
    private var position = 0

    public init() {}

    /// The library of `operations`, in whatever order they are given.
    public static func library(of operations: [SyncOperation]) -> Library {
        var fold = SyncFold()
        for operation in operations.sorted(by: SyncOperation.precedes) { fold.apply(operation) }
        return fold.library
    }

    /// Applies one operation; call in `SyncOperation.precedes` order.
    public mutating func apply(_ operation: SyncOperation) {
        position += 1
        let position = position
        if let id = operation.change.book {
            // Taken out of the dictionary while it changes, so that its readings are not copied.
            var book = books.removeValue(forKey: id) ?? BookState(first: position)
            // A book added again once removed (an import of it) starts afresh, as it does on the device
            // that adds it; so does one whose earlier operations came without the one that added it.
            if case .addBook = operation.change, book.core == nil || book.isRemoved {
                book = BookState(first: position)
            }
            if case .removeBook(_, let seen) = operation.change {
                book.removed.merge(seen, uniquingKeysWith: max)
            } else {
                book.touched[operation.device] = max(book.touched[operation.device] ?? 0, operation.sequence)
                apply(operation.change, to: &book, at: position)
            }
            books[id] = book
            return
        }
        switch operation.change {
        case .putClub(let core):
            clubs[core.id, default: ClubState(first: position)].core = core
        case .removeClub(let id):
            clubs[id]?.core = nil
            clubs[id]?.meetings = [:]
        case .putMeeting(let club, let meeting):
            clubs[club, default: ClubState(first: position)].meetings[meeting.id, default: (nil, position)].meeting =
                meeting
        case .removeMeeting(let club, let meeting):
            clubs[club]?.meetings[meeting]?.meeting = nil
        default: break
        }
    }

    private func apply(_ change: SyncOperation.Change, to book: inout BookState, at position: Int) {
        switch change {
        case .addBook(let core):
            book.core = core
            book.tags = [:]
            for (index, tag) in core.tags.enumerated() {
                book.tags[tag.lowercased()] = (true, tag, position * 1_000 + index)
            }
        case .setField(_, let field):
            guard var core = book.core else { return }
            field.apply(to: &core)
            book.core = core
        case .tag(_, let tag, let on):
            let key = tag.lowercased()
            if on, book.tags[key]?.on != true {
                book.tags[key] = (true, tag, position * 1_000)
            } else if !on {
                book.tags[key]?.on = false
            }
        case .putReading(_, let core):
            book.readings[core.id, default: ReadingState(first: position)].core = core
        case .removeReading(_, let reading):
            book.readings[reading]?.core = nil
        case .putEntry(_, let reading, let entry):
            book.readings[reading, default: ReadingState(first: position)]
                .entries[entry.id, default: (nil, position)].entry = entry
        case .removeEntry(_, let reading, let entry):
            book.readings[reading]?.entries[entry]?.entry = nil
        case .putHighlight(_, let reading, let highlight):
            book.readings[reading, default: ReadingState(first: position)]
                .highlights[highlight.id, default: (nil, position)].highlight = highlight
        case .removeHighlight(_, let reading, let highlight):
            book.readings[reading]?.highlights[highlight]?.highlight = nil
        case .removeBook, .putClub, .removeClub, .putMeeting, .removeMeeting, .nameDevice: break
        }
    }

    /// The ids of what the operations hold and the library does not show, within the books and clubs
    /// it shows (see `SyncState.hidden`).
    var hidden: Set<String> {
        var hidden = Set<String>()
        for book in books.values where book.core != nil && !book.isRemoved {
            for (id, reading) in book.readings {
                if reading.core == nil { hidden.insert(id.uuidString) }
                for (entry, state) in reading.entries where state.entry == nil || reading.core == nil {
                    hidden.insert(entry.uuidString)
                }
                for (highlight, state) in reading.highlights where state.highlight == nil || reading.core == nil {
                    hidden.insert(highlight)
                }
            }
        }
        for (id, club) in clubs {
            if club.core == nil { hidden.insert(id) }
            for (meeting, state) in club.meetings where state.meeting == nil || club.core == nil {
                hidden.insert(meeting)
            }
        }
        return hidden
    }

    /// The library the operations applied so far make.
    public var library: Library {
        var library = Library()
        for (_, state) in books.sorted(by: { $0.value.first < $1.value.first }) {
            guard let core = state.core, !state.isRemoved else { continue }
            let tags = state.tags.values.filter(\.on).sorted { $0.position < $1.position }.map(\.text)
            let readings = state.readings.values.sorted { $0.first < $1.first }.compactMap { reading -> Reading? in
                guard let core = reading.core else { return nil }
                let entries = reading.entries.values.sorted { $0.first < $1.first }.compactMap(\.entry)
                let withdrawn = Set(reading.entries.filter { $0.value.entry == nil }.keys)
                let highlights = reading.highlights.values.sorted { $0.first < $1.first }.compactMap(\.highlight)
                return Reading(
                    id: core.id, started: core.started,
                    progress: ReadingProgress(entries: entries, withdrawn: withdrawn),
                    ending: core.ending,
                    resumed: core.resumed, highlights: highlights.isEmpty ? nil : highlights, format: core.format)
            }
            library.books.append(core.book(readings: readings, tags: tags))
        }
        for (_, state) in clubs.sorted(by: { $0.value.first < $1.value.first }) {
            guard let core = state.core else { continue }
            // A meeting about a book removed on a device that did not know of the meeting keeps the
            // book's id, as the device that scheduled it has it: if the book comes back, so does the
            // meeting's book. (The device that removes a book takes it off the meetings it knows.)
            let meetings = state.meetings.values.sorted { $0.first < $1.first }.compactMap(\.meeting)
            library.clubs.append(Club(id: core.id, name: core.name, description: core.description, meetings: meetings))
        }
        return library
    }
}

extension Library {
    /// This library, the one the operations make, as a store that holds `local` (every entry loaded)
    /// saves it: an entry that a reading of `local` shows or has withdrawn, and the same reading here
    /// lacks, is withdrawn. The store's history still holds the entry's line and would bring it back:
    /// a book removed and back again starts over in the operations, not in the history.
    func withdrawingWhatIsGone(from local: Library) -> Library {
        var library = self
        let localBooks = Dictionary(local.books.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for b in library.books.indices {
            guard let old = localBooks[library.books[b].id] else { continue }
            for r in library.books[b].readings.indices {
                let id = library.books[b].readings[r].id
                guard let oldReading = old.readings.first(where: { $0.id == id }) else { continue }
                let progress = library.books[b].readings[r].progress
                let gone = oldReading.progress.withdrawn.union(oldReading.progress.entries.map(\.id))
                    .subtracting(progress.withdrawn).subtracting(progress.entries.map(\.id))
                for entry in gone {
                    library.books[b].readings[r].progress.withdraw(entry)
                }
            }
        }
        return library
    }
}
