#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A fast reader for the history lines bookclub itself writes: a JSON object whose dates are
/// `YYYY-MM-DDTHH:MM:SSZ`, read front to back when it is laid out as `JSONWriter.historyLine` writes
/// it, else key by key. Foundation's decoder spends about 10 µs a line on them, which `export` and
/// `stats` pay once per entry; this reads one in a fraction of a microsecond. Any line it is not sure
/// of (a hand-edited file, a number or date of another form) is left to the decoder: `nil` means "not
/// sure", never "invalid".
enum HistoryLine {
    // In the order `JSONWriter.historyLine` writes them.
    private static let recordKeys: [StaticString] = ["book", "entry", "previous", "reading"]
    private static let entryKeys = JSONWriter.entryFields

    /// - Parameters:
    ///   - expected: the book the line should be of: when it is, its id is compared in place rather
    ///     than read into a string.
    ///   - expectedIsPlain: the caller has found that JSON writes `expected` as it is (no quote,
    ///     backslash or control character in it), which is then not checked again for each line.
    static func record(
        _ line: UnsafeRawBufferPointer, ofBook expected: Book.ID? = nil, expectedIsPlain: Bool = false
    ) -> HistoryRecord? {
        written(line, ofBook: expected, isPlain: expectedIsPlain) ?? anyOrder(line, ofBook: expected)
    }

    /// A line exactly as `JSONWriter.historyLine` writes it, its keys in that order and nothing between
    /// its tokens, read front to back: each key, with the comma and colon around it, compared in one go
    /// (a fifth of the time of finding each key among those of the object).
    static func written(_ line: UnsafeRawBufferPointer, ofBook expected: Book.ID?, isPlain: Bool = false)
        -> HistoryRecord?
    {
        var fields = Fields()
        guard read(line, ofBook: expected, isPlain: isPlain, into: &fields) else { return nil }
        return record(
            book: fields.book ?? expected, reading: fields.reading, entry: fields.entry, previous: fields.previous)
    }

    /// A line's fields, as `read(_:ofBook:isPlain:readings:into:)` finds them.
    struct Fields {
        /// The line's book, when it is not found in place as the one expected: another book, or the
        /// same written with an escape.
        var book: String?
        /// The line's reading: its place among those expected, or else its id.
        var knownReading: Int?
        var reading: UUID?
        var previous: Int?
        var entry = EntryFields()

        init() {}

        /// The fields of a line read whole.
        init(_ record: HistoryRecord) {
            book = record.book
            reading = record.reading
            previous = record.previous
            entry = EntryFields(
                id: record.entry.id, progress: record.entry.progress, page: record.entry.page,
                time: record.entry.time, note: record.entry.note, minutes: record.entry.minutes,
                listened: record.entry.listened)
        }
    }

    /// Reads a line laid out as `JSONWriter.historyLine` writes it into a new `fields`, for a caller
    /// that keeps its fields its own way (a walk of a million lines makes no record of each); `false`
    /// when it is laid out otherwise, or lacks a reading or time, or its progress is not a fraction.
    ///
    /// - Parameter readings: the readings the line is most likely of, each id as JSON writes it (quoted,
    ///   as `uuidString` spells it): one of them is found by its place, with no `UUID` made of it.
    /// - Parameter leavingNote: the note is checked, not read.
    static func read(
        _ line: UnsafeRawBufferPointer, ofBook expected: Book.ID?, isPlain: Bool, readings: [[UInt8]] = [],
        leavingNote: Bool = false, into fields: inout Fields
    ) -> Bool {
        var scanner = JSONScanner(bytes: line)
        guard scanner.take(literal: #"{"book":"#) else { return false }
        if expected == nil || !scanner.take(string: expected!, isPlain: isPlain) {
            fields.book = scanner.string()
            guard fields.book != nil else { return false }
        }
        guard scanner.take(literal: #","entry":{"id":"#) else { return false }
        fields.entry.id = scanner.uuid()
        guard fields.entry.id != nil else { return false }
        if scanner.take(literal: #","listened":"#), !scanner.read(&fields.entry.listened) { return false }
        if scanner.take(literal: #","minutes":"#), !scanner.read(&fields.entry.minutes) { return false }
        if scanner.take(literal: #","note":"#) {
            if leavingNote {
                guard scanner.skipString() else { return false }
            } else {
                fields.entry.note = scanner.string()
                guard fields.entry.note != nil else { return false }
            }
        }
        if scanner.take(literal: #","page":"#), !scanner.read(&fields.entry.page) { return false }
        guard scanner.take(literal: #","progress":"#), scanner.read(&fields.entry.progress),
            scanner.take(literal: #","time":"#), scanner.read(&fields.entry.time), scanner.take(literal: "},")
        else { return false }
        if scanner.take(literal: #""previous":"#) {
            guard scanner.read(&fields.previous), scanner.take(literal: ",") else { return false }
        }
        guard scanner.take(literal: #""reading":"#) else { return false }
        fields.knownReading = readings.firstIndex { scanner.take(bytes: $0) }
        if fields.knownReading == nil { fields.reading = scanner.uuid() }
        guard scanner.take(literal: "}"), scanner.atEnd, fields.knownReading != nil || fields.reading != nil,
            let progress = fields.entry.progress, EntryFields.isInBounds(progress), fields.entry.time != nil
        else { return false }
        return true
    }

    /// A line whose keys come in any order, with blanks between its tokens.
    private static func anyOrder(_ line: UnsafeRawBufferPointer, ofBook expected: Book.ID?) -> HistoryRecord? {
        var scanner = JSONScanner(bytes: line)
        var book: String?
        var reading: UUID?
        // The entry's fields rather than an optional entry, which Swift copies and destroys through the
        // runtime (a fifth of a line's reading).
        var entry = EntryFields()
        var hasEntry = false
        var previous: Int?
        let complete = scanner.object(keys: recordKeys) { key, scanner in
            // A key that comes twice gives up (Foundation's decoder would take the last).
            switch key {
            case 2 where previous == nil: return scanner.read(&previous)
            case 0 where book == nil:
                if let expected, scanner.take(string: expected) {
                    book = expected
                } else {
                    book = scanner.string()
                }
                return book != nil
            case 3 where reading == nil:
                reading = scanner.uuid()
                return reading != nil
            case 1 where !hasEntry:
                hasEntry = true
                return scanner.object(keys: entryKeys) { entry.read($0, &$1) }
            default: return false
            }
        }
        guard complete, scanner.atEnd, hasEntry else { return nil }
        return record(book: book, reading: reading, entry: entry, previous: previous)
    }

    /// The record of a line read whole; `nil` when a field is missing, or its entry out of bounds.
    private static func record(book: String?, reading: UUID?, entry: EntryFields, previous: Int?) -> HistoryRecord? {
        guard let book, let reading, let id = entry.id, let progress = entry.progress,
            EntryFields.isInBounds(progress), let time = entry.time
        else { return nil }
        return HistoryRecord(
            book: book, reading: reading,
            entry: ReadingProgress.Entry(
                id: id, progress: progress, page: entry.page, time: time, note: entry.note, minutes: entry.minutes,
                listened: entry.listened),
            previous: previous)
    }

    /// The bytes of the book id of a line as bookclub writes one, `{"book":"ID",…`, read from its first
    /// bytes alone; `nil` for a line of any other form.
    static func bookID(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let prefix: StaticString = #"{"book":""#
        let count = prefix.utf8CodeUnitCount
        guard line.count > count + 1, let base = line.baseAddress, sameBytes(base, prefix.utf8Start, count: count),
            let quote = firstByte(UInt8(ascii: "\""), at: base + count, count: line.count - count)
        else { return nil }
        let id = UnsafeRawBufferPointer(rebasing: line[count..<base.distance(to: UnsafeRawPointer(quote))])
        return id.isEmpty || firstByte(UInt8(ascii: "\\"), at: id.baseAddress!, count: id.count) == nil ? id : nil
    }

    static func entry(_ scanner: inout JSONScanner) -> ReadingProgress.Entry? {
        var entry = EntryFields()
        guard scanner.object(keys: entryKeys, { entry.read($0, &$1) }), let id = entry.id,
            let progress = entry.progress, EntryFields.isInBounds(progress), let time = entry.time
        else { return nil }
        return ReadingProgress.Entry(
            id: id, progress: progress, page: entry.page, time: time, note: entry.note, minutes: entry.minutes,
            listened: entry.listened)
    }

    /// An entry's fields as read so far.
    struct EntryFields {
        var id: UUID?
        var progress: Double?
        var page: Int?
        var time: Date?
        var note: String?
        var minutes: Int?
        var listened: Int?

        /// Reads the value of the key at `key` in `entryKeys`; `false` to give up.
        mutating func read(_ key: Int, _ scanner: inout JSONScanner) -> Bool {
            switch key {
            case 0 where id == nil:
                id = scanner.uuid()
                return id != nil
            case 1 where listened == nil: return scanner.read(&listened)
            case 2 where minutes == nil: return scanner.read(&minutes)
            case 3 where note == nil:
                note = scanner.string()
                return note != nil
            case 4 where page == nil: return scanner.read(&page)
            case 5 where progress == nil: return scanner.read(&progress)
            case 6 where time == nil: return scanner.read(&time)
            default: return false
            }
        }

        static func isInBounds(_ progress: Double) -> Bool { progress.isFinite && (0...1).contains(progress) }
    }
}
