#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One line of a `log --stdin` batch: `{"book": "dune", "page": 120}` or `{"book": "dune", "percent": 45}`,
/// with an optional `note`, `time` (ISO 8601) and `action` (`finish` or `abandon`).
public struct ReadingEvent: Equatable, Sendable {
    public var book: String
    /// The page or percent reached; `nil` when the event only finishes or abandons.
    public var value: ProgressValue?
    public var note: String?
    /// When it happened; `nil` for now.
    public var time: Date?
    public var action: Ending.Outcome?

    /// Parses one line; throws `ReadingEvent.Problem` saying what is wrong with it.
    public init(line: String, now: Date, timeZone: Zone) throws(Problem) {
        // Lines as scripts write them are read by a small scanner; any other goes to Foundation's
        // decoder, which reads the same keys and says what is wrong.
        guard
            let fields = Fields(scanning: line)
                ?? (JSONCoding.isShallow(Data(utf8: line))
                    ? try? JSONDecoder().decode(Fields.self, from: Data(utf8: line)) : nil)
        else {
            throw Problem("expected a JSON object such as {\"book\": \"dune\", \"page\": 120}")
        }
        if let unknown = fields.unknownKeys.first {
            throw Problem("unknown key `\(unknown)`; expected book, page, percent, note, time or action")
        }
        guard let book = fields.book, !book.trimmed.isEmpty else {
            throw Problem("expected `book`: a title, words of it or an id")
        }
        self.book = book
        switch (fields.page, fields.percent) {
        case (let page?, nil):
            guard let page, page >= 0, page <= 1_000_000 else {
                throw Problem("`page` must be a whole number from 0 to 1000000")
            }
            value = .page(page)
        case (nil, let percent?):
            guard let percent, percent.isFinite, (0...100).contains(percent) else {
                throw Problem("`percent` must be a number from 0 to 100")
            }
            value = .percent(percent)
        case (nil, nil): value = nil
        case (_?, _?): throw Problem("give `page` or `percent`, not both")
        }
        switch fields.action {
        case nil: action = nil
        case "finish": action = .finished
        case "abandon": action = .abandoned
        case let other?: throw Problem("`action` must be \"finish\" or \"abandon\", not \"\(other)\"")
        }
        guard value != nil || action != nil else { throw Problem("expected `page`, `percent` or `action`") }
        note = fields.note.flatMap { $0.trimmed.isEmpty ? nil : $0.trimmed }
        if let text = fields.time {
            guard let date = When.parse(text, now: now, timeZone: timeZone) else {
                throw Problem("`time` must be a date such as 2026-11-20T19:00:00Z or \(When.forms)")
            }
            guard date <= now.addingTimeInterval(60) else { throw Problem("`time` \(text) is in the future") }
            time = date.wholeSeconds
        }
    }

    /// What is wrong with a line, for the message that names it.
    public struct Problem: Error, Equatable, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The keys of a line. A key of the wrong type fails the decode; so does a `null` book.
    struct Fields: Decodable, Equatable {
        var book: String?
        /// Doubly optional: absent (`nil`) or given but not a usable number (`.some(nil)`).
        var page: Int??
        var percent: Double??
        var note: String?
        var time: String?
        var action: String?
        var unknownKeys: [String]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// A flat object of the known keys, each once, with strings without escapes and whole pages;
        /// `nil` for anything else, which the decoder then reads.
        init?(scanning line: String) {
            var line = line
            let fields = line.withUTF8 { bytes -> Fields? in
                var scanner = JSONScanner(bytes: UnsafeRawBufferPointer(bytes))
                var fields = Fields(unknownKeys: [])
                let complete = scanner.object { key, scanner in
                    switch key {
                    case "book" where fields.book == nil:
                        fields.book = scanner.string()
                        return fields.book != nil
                    case "page" where fields.page == nil:
                        guard let page = scanner.number().flatMap({ Int($0) }) else { return false }
                        fields.page = .some(page)
                    case "percent" where fields.percent == nil:
                        guard let percent = scanner.number().flatMap({ Double($0) }) else { return false }
                        fields.percent = .some(percent)
                    case "note" where fields.note == nil:
                        fields.note = scanner.string()
                        return fields.note != nil
                    case "time" where fields.time == nil:
                        fields.time = scanner.string()
                        return fields.time != nil
                    case "action" where fields.action == nil:
                        fields.action = scanner.string()
                        return fields.action != nil
                    default: return false
                    }
                    return true
                }
                return complete && scanner.atEnd ? fields : nil
            }
            guard let fields else { return nil }
            self = fields
        }

        private init(unknownKeys: [String]) {
            self.unknownKeys = unknownKeys
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            func key(_ name: String) -> Key { Key(stringValue: name) }
            book = try container.decodeIfPresent(String.self, forKey: key("book"))
            page = container.contains(key("page")) ? .some(try? container.decode(Int.self, forKey: key("page"))) : nil
            percent =
                container.contains(key("percent"))
                ? .some(try? container.decode(Double.self, forKey: key("percent"))) : nil
            note = try container.decodeIfPresent(String.self, forKey: key("note"))
            time = try container.decodeIfPresent(String.self, forKey: key("time"))
            action = try container.decodeIfPresent(String.self, forKey: key("action"))
            let known: Set = ["book", "page", "percent", "note", "time", "action"]
            unknownKeys = container.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        }
    }
}

extension Library {
    /// What applying one event did.
    public struct EventOutcome: Equatable, Sendable {
        public var bookID: Book.ID
        /// The entry logged, if the value differed from the latest one or came with a note.
        public var entry: ReadingProgress.Entry?
        /// How the reading ended, if the event ended it (and it had not ended so already).
        public var ending: Ending.Outcome?
    }

    /// Applies one event as `progress` and then `finish` or `abandon` would: the note goes with the
    /// progress entry, or with the ending when the event logs no progress.
    /// An event without a time is dated `now`, but never before the book's latest entry.
    ///
    /// An event that fails changes nothing: its book is put back as it was.
    public mutating func apply(_ event: ReadingEvent, now: Date, ids: IDSource) throws -> EventOutcome {
        try apply(event, to: index(of: resolve(event.book).id)!, now: now, ids: ids)
    }

    /// The same, to the book at `index` in `books`. `logProgress` and `end` each change nothing when
    /// they fail: only an event that does both keeps its book to put back (a copy held while an entry
    /// is added would copy the book's whole history).
    private mutating func apply(_ event: ReadingEvent, to index: Int, now: Date, ids: IDSource) throws -> EventOutcome {
        guard event.value != nil, event.action != nil else {
            return try applyOnce(event, to: index, now: now, ids: ids)
        }
        let book = books[index]
        do {
            return try applyOnce(event, to: index, now: now, ids: ids)
        } catch {
            books[index] = book
            throw error
        }
    }

    private mutating func applyOnce(_ event: ReadingEvent, to index: Int, now: Date, ids: IDSource) throws
        -> EventOutcome
    {
        let time = event.time ?? max(now, books[index].currentReading?.progress.latest?.time ?? .distantPast)
        var outcome = EventOutcome(bookID: books[index].id)
        if let value = event.value,
            case .logged(let entry) = try logProgress(
                value, note: event.note, at: time, bookAt: index, reference: event.book, ids: ids)
        {
            outcome.entry = entry
        }
        if let action = event.action,
            try end(
                action, date: time, note: event.value == nil ? event.note : nil, bookAt: index, reference: event.book,
                ids: ids)
        {
            outcome.ending = action
        }
        return outcome
    }

    /// The books a batch has a line for dated before their latest entry, as the library has them
    /// without their histories: such a line falls among earlier entries, so these books come with
    /// their histories, as `progress --date` loads a book's for a date before its latest entry. A line
    /// late only among the batch's own (a job that sends a line late) falls among entries the batch
    /// adds, which are held (`ReadingProgress.entry(before:of:)`). A line without a time is taken as
    /// later than any. A reference that names no book, or several, adds none (its line fails when
    /// applied).
    public func booksBackdated(in lines: [NumberedEvent]) -> Set<Book.ID> {
        var finder = BookFinder(self)
        var backdated = Set<Book.ID>()
        for line in lines {
            guard case .success(let event) = line.event, let time = event.time,
                let index = try? finder.index(of: event.book, in: self),
                let latest = books[index].currentReading?.progress.latest?.time, time < latest
            else { continue }
            backdated.insert(books[index].id)
        }
        return backdated
    }
}

/// One line of a batch as read: its number in the input, and the event or what is wrong with it.
public typealias NumberedEvent = (number: Int, event: Result<ReadingEvent, ReadingEvent.Problem>)

/// What applying a batch did.
public struct BatchOutcome: Equatable, Sendable {
    /// A line left out, and why.
    public struct Skipped: Equatable, Sendable {
        public var line: Int
        public var reason: String
    }

    /// How many entries were logged, and how many values were already the latest.
    public var logged = 0
    public var unchanged = 0
    /// The books the batch touched, in the order of their first line.
    public var touched: [Book.ID] = []
    public var finished: [Book.ID] = []
    public var abandoned: [Book.ID] = []
    public var skipped: [Skipped] = []

    public init() {}
}

extension Library {
    /// Applies the lines of a batch in order, each on a copy, so that a line that fails leaves
    /// nothing behind. A line that fails is skipped when `skipInvalid`; otherwise it rejects the whole
    /// batch with `BookClubError.invalidBatch`, and the library is left as it was.
    public mutating func apply(
        _ lines: [NumberedEvent], now: Date, timeZone: Zone, skipInvalid: Bool, ids: IDSource
    ) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let before = self
        // A batch adds and renames no book: each reference is resolved once.
        var finder = BookFinder(self)
        var touched = Set<Book.ID>()
        // Room for each book's lines made at once: a batch of 100,000 lines adds as many entries.
        var counts: [Int: Int] = [:]
        for (_, parsed) in lines {
            guard case .success(let event) = parsed, let index = try? finder.index(of: event.book, in: self) else {
                continue
            }
            counts[index, default: 0] += 1
        }
        for (index, count) in counts where count > 1 {
            guard let reading = books[index].readings.indices.last else { continue }
            books[index].readings[reading].progress.reserve(count)
        }
        for (number, parsed) in lines {
            let reason: String
            do {
                let event = try parsed.get()
                let index = try finder.index(of: event.book, in: self)
                let applied = try apply(event, to: index, now: now, ids: ids)
                if touched.insert(applied.bookID).inserted { outcome.touched.append(applied.bookID) }
                if applied.entry != nil {
                    outcome.logged += 1
                } else if event.value != nil {
                    outcome.unchanged += 1
                }
                switch applied.ending {
                case .finished: outcome.finished.append(applied.bookID)
                case .abandoned: outcome.abandoned.append(applied.bookID)
                case nil: break
                }
                continue
            } catch let problem as ReadingEvent.Problem {
                reason = problem.reason
            } catch let error as BookClubError {
                reason = error.message(in: timeZone)
            }
            guard skipInvalid else {
                self = before
                throw BookClubError.invalidBatch(line: number, reason: reason)
            }
            outcome.skipped.append(BatchOutcome.Skipped(line: number, reason: reason))
        }
        return outcome
    }
}
