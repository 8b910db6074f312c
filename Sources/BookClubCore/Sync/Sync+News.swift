#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The common case, cheaply: the other devices' logs grew by operations that all come after the last
/// one applied, about things the library shows. Only the bytes the logs grew by are read, and the
/// operations are applied to the library as it is (its books they are about, with their history).
/// Anything else (a log cut short, an operation from a device that was offline, a removed book) is
/// left to `reconcile`, which reads every log and applies every operation again.
extension Sync {
    /// What the logs grew by.
    public struct News: Sendable {
        var operations: [SyncOperation]
        /// The books the operations are about: load these, with their history, to apply them.
        public var books: Set<Book.ID>
        var state: SyncState
        var report: SyncReport
    }

    /// The operations the logs grew by, when they can be applied without reading the logs whole;
    /// `nil` when they cannot (then `reconcile`).
    static func news(_ folder: SyncFolder, state: SyncState) throws -> News? {
        var state = state
        var report = SyncReport()
        var operations: [SyncOperation] = []
        var seen: [String: Int] = [:]
        for (name, mark) in state.files {
            seen[String(name.prefix(32))] = max(seen[String(name.prefix(32))] ?? 0, mark.operations)
        }
        try folder.checkOwnLog(of: state.device)
        let (logs, unopened) = folder.contents()
        // What is not a log is said again as it is now: a link put in place, or taken away.
        state.problems = state.problems.filter { $0.value.line != 0 }
        for problem in unopened { state.problems[problem.file] = problem }
        for log in logs {
            let mark = state.files[log.name]
            guard let size = try folder.fileSystem.plainSize(folder.devicesPath + "/" + log.name),
                size != mark?.size ?? mark?.length
            else { continue }
            // This device's own log changed under it, or a log was cut or replaced.
            if log.device == state.device && !log.isCopy { return nil }
            if let mark, size < mark.length || mark.lines == nil { return nil }
            let read = try folder.read(log, from: mark)
            for operation in read.operations where operation.sequence > seen[operation.device] ?? 0 {
                operations.append(operation)
            }
            report.newer += read.newer
            let file = folder.devicesPath + "/" + log.name
            state.problems[file] = read.problem.map { .init(file: file, line: $0.line, detail: $0.detail) }
            state.files[log.name] = SyncState.Mark(
                length: read.length, operations: (mark?.operations ?? 0) + read.operations.count, size: read.size,
                lines: read.lines)
        }
        operations.sort(by: SyncOperation.precedes)
        // Copies of a log hold the same operations twice.
        var keys = Set<String>()
        operations = operations.filter { keys.insert("\($0.device) \($0.sequence)").inserted }
        if let frontier = state.frontier, let first = operations.first, !frontier.precedes(first) { return nil }
        if let latest = operations.last {
            state.frontier = SyncState.Position(latest)
            state.clock.witness(latest.clock)
        }
        let books = Set(operations.compactMap(\.change.book))
        report.received = received(operations, names: [:])
        report.problems = state.problems.values.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        return News(operations: operations, books: books, state: state, report: report)
    }

    /// Applies news to `library`, which holds the news' books (those in the store) with their history,
    /// and every club. Returns the state to keep and what came in; `nil`, with `library` as it was, when
    /// an operation is about something the library does not show (then `reconcile`).
    public static func apply(_ news: News, to library: inout Library) -> (state: SyncState, report: SyncReport)? {
        var draft = library
        var state = news.state
        for operation in news.operations {
            guard draft.apply(operation.change, hidden: state.hidden) else { return nil }
            state.hidden.formUnion(operation.change.hides)
        }
        var report = news.report
        state.names.merge(Sync.names(news.operations)) { $1 }
        for index in report.received.indices {
            report.received[index].name = state.names[report.received[index].device]
        }
        library = draft
        return (state, report)
    }
}

extension Library {
    /// Applies one operation as `SyncFold` would, given that it comes after every operation the library
    /// was made of; `false` when it is about something the library does not show.
    mutating func apply(_ change: SyncOperation.Change, hidden: Set<String>) -> Bool {
        func book(_ id: Book.ID, _ body: (inout Book) -> Bool) -> Bool {
            guard let index = index(of: id) else { return false }
            return body(&books[index])
        }
        func reading(_ id: Book.ID, _ reading: UUID, _ body: (inout Reading) -> Bool) -> Bool {
            book(id) { book in
                guard let index = book.readings.firstIndex(where: { $0.id == reading }) else { return false }
                return body(&book.readings[index])
            }
        }
        switch change {
        case .addBook(let core):
            let readings = self[id: core.id]?.readings ?? []
            let book = core.book(readings: readings)
            if let index = index(of: core.id) { books[index] = book } else { books.append(book) }
            return true
        case .setField(let id, let field):
            return book(id) { book in
                var core = BookCore(book)
                field.apply(to: &core)
                (book.title, book.author, book.pages, book.isbn, book.coverName) =
                    (core.title, core.author, core.pages, core.isbn, core.coverName)
                (book.rating, book.review, book.privateNotes, book.contributors, book.details) =
                    (core.rating, core.review, core.privateNotes, core.contributors, core.details)
                (book.format, book.length) = (core.format, core.length)
                return true
            }
        case .tag(let id, let tag, let on):
            return book(id) { book in
                let held = book.tags.contains { $0.lowercased() == tag.lowercased() }
                if on, !held { book.tags.append(tag) }
                if !on { book.tags.removeAll { $0.lowercased() == tag.lowercased() } }
                return true
            }
        case .removeBook:
            return false
        case .putReading(let id, let core):
            guard !hidden.contains(core.id.uuidString) else { return false }
            return book(id) { book in
                if let index = book.readings.firstIndex(where: { $0.id == core.id }) {
                    (book.readings[index].started, book.readings[index].ending, book.readings[index].resumed) =
                        (core.started, core.ending, core.resumed)
                    book.readings[index].format = core.format
                } else {
                    book.readings.append(
                        Reading(
                            id: core.id, started: core.started, ending: core.ending, resumed: core.resumed,
                            format: core.format))
                }
                return true
            }
        case .removeReading(let id, let reading):
            return book(id) { book in
                book.readings.removeAll { $0.id == reading }
                return true
            }
        case .putEntry(let id, let readingID, let entry):
            guard !hidden.contains(entry.id.uuidString) else { return false }
            return book(id) { book in
                guard let index = book.readings.firstIndex(where: { $0.id == readingID }) else { return false }
                book.readings[index].progress.put(entry)
                // An entry logged as a page counts from this book's page count, as the fold's does.
                book.deriveFractions()
                return true
            }
        case .removeEntry(let id, let readingID, let entry):
            return reading(id, readingID) { reading in
                reading.progress.withdraw(entry)
                return true
            }
        case .putHighlight(let id, let readingID, let highlight):
            guard !hidden.contains(highlight.id) else { return false }
            return reading(id, readingID) { reading in
                var highlights = reading.highlights ?? []
                if let index = highlights.firstIndex(where: { $0.id == highlight.id }) {
                    highlights[index] = highlight
                } else {
                    highlights.append(highlight)
                }
                reading.highlights = highlights
                return true
            }
        case .removeHighlight(let id, let readingID, let highlight):
            return reading(id, readingID) { reading in
                reading.highlights?.removeAll { $0.id == highlight }
                if reading.highlights?.isEmpty == true { reading.highlights = nil }
                return true
            }
        case .putClub(let core):
            if let index = clubIndex(of: core.id) {
                (clubs[index].name, clubs[index].description) = (core.name, core.description)
                return true
            }
            guard !hidden.contains(core.id) else { return false }
            clubs.append(Club(id: core.id, name: core.name, description: core.description))
            return true
        case .removeClub(let id):
            clubs.removeAll { $0.id == id }
            return true
        case .putMeeting(let clubID, let meeting):
            guard !hidden.contains(meeting.id), let club = clubIndex(of: clubID) else { return false }
            if let held = clubs[club].meetings.first(where: { $0.id == meeting.id }) {
                // A meeting moved to another day takes its place among that day's as the fold gives it.
                guard held.date == meeting.date else { return false }
                clubs[club].replace(meeting)
            } else {
                clubs[club].schedule(meeting)
            }
            return true
        case .removeMeeting(let clubID, let meeting):
            if let club = clubIndex(of: clubID) { clubs[club].cancel(meetingID: meeting) }
            return true
        case .nameDevice:
            return true
        }
    }
}
