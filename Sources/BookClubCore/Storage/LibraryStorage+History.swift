#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LibraryStorage {
    /// Every entry in the committed history of these books (of every book when `nil`), by reading id,
    /// in time order.
    public func history(of bookIDs: Set<Book.ID>?) throws -> [UUID: [ReadingProgress.Entry]] {
        try history(of: bookIDs, length: readFiles(locked: false).commit.historyLength)
    }

    /// Every entry in the first `length` bytes of the history.
    func history(of bookIDs: Set<Book.ID>?, length: Int) throws -> [UUID: [ReadingProgress.Entry]] {
        // Before any line is read, so that a history cut short is reported as such, not as bad JSON.
        try checkHistory(committedLength: length)
        // A few books: only the lines holding their ids, as JSON writes them, are read (a line that
        // merely mentions one is read, then passed over).
        let needles = bookIDs.flatMap { ids in
            ids.count <= 16
                ? ids.map { id in
                    var writer = JSONWriter(compact: true)
                    writer.string(id)
                    return writer.bytes
                } : nil
        }
        var result: [UUID: [ReadingProgress.Entry]] = [:]
        // The readings of each book, noted at each one's first line: a book's new start drops them.
        var readings: [Book.ID: [UUID]] = [:]
        try forEachHistoryLine(length: length) { line in
            guard needles?.contains(where: { JSONLine.find($0, in: line) != nil }) ?? true else {
                // A line zeroed in part (as a power cut or a failing disk leaves one) may have been one of
                // these books': it is refused, not passed over as another book's.
                if firstByte(0, at: line.baseAddress!, count: line.count) != nil { _ = try self.record(line) }
                return
            }
            let record = try self.record(line)
            guard bookIDs?.contains(record.book) ?? true else { return }
            if record.previous == -1, let earlier = readings.removeValue(forKey: record.book) {
                for reading in earlier { result[reading] = nil }
            }
            let entry = try checked(record)
            if result[record.reading]?.append(entry) == nil {
                result[record.reading] = [entry]
                readings[record.book, default: []].append(record.reading)
            }
        }
        return result.mapValues { ReadingProgress(entries: $0).entries }
    }

    /// Hands `body` each non-empty line of the first `length` bytes of the history, found with `memchr`.
    func forEachHistoryLine(length: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try forEachHistoryLine(in: 0..<length) { line, _ in try body(line) }
    }

    /// Where the first line that begins after `offset` begins, looked for in the next 64 KiB; `end`
    /// when none does before it.
    func lineStart(after offset: Int, before end: Int) throws -> Int {
        guard offset < end, let bytes = try fileSystem.readRange(historyPath, offset, min(1 << 16, end - offset)),
            let lineBreak = bytes.firstIndex(of: 0x0A)
        else { return end }
        return offset + (lineBreak - bytes.startIndex) + 1
    }

    /// The same for the bytes of `range` (which begins at a line's start), each line with its offset.
    func forEachHistoryLine(in range: Range<Int>, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        var read = 0
        try fileSystem.readLines(historyPath, range) { chunk in
            let chunkOffset = range.lowerBound + read
            read += chunk.count
            try chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                guard let base = bytes.baseAddress else { return }
                var start = 0
                while start < bytes.count {
                    let end =
                        firstByte(0x0A, at: base + start, count: bytes.count - start).map {
                            base.distance(to: UnsafeRawPointer($0))
                        }
                        ?? bytes.count
                    defer { start = end + 1 }
                    if end > start {
                        try body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), chunkOffset + start)
                    }
                }
            }
        }
        guard read == range.count else {
            throw POSIXFile.tooShort(historyPath, range.lowerBound + read, range.upperBound)
        }
    }

    /// A line of the history, read directly when bookclub wrote it, else by the decoder.
    func record(_ line: UnsafeRawBufferPointer) throws -> HistoryRecord {
        try HistoryLine.record(line) ?? JSONCoding.decode(HistoryRecord.self, from: Data(line), path: historyPath)
    }

    /// The same, for a line that should be of `book`; `nil` when it is of another.
    func record(_ line: UnsafeRawBufferPointer, ofBook book: Book.ID, isPlain: Bool = false) throws -> HistoryRecord? {
        let record = try HistoryLine.record(line, ofBook: book, expectedIsPlain: isPlain) ?? self.record(line)
        return record.book == book ? record : nil
    }

    /// The record's entry; one out of bounds is refused.
    func checked(_ record: HistoryRecord) throws -> ReadingProgress.Entry {
        try check(record)
        return record.entry
    }

    /// Refuses a record whose entry is out of bounds.
    func check(_ record: HistoryRecord) throws {
        let entry = record.entry
        try checkEntry(
            of: record.book, progress: entry.progress, page: entry.page, minutes: entry.minutes,
            listened: entry.listened)
    }

    /// The same, for an entry's fields.
    func checkEntry(of book: Book.ID, progress: Double, page: Int?, minutes: Int?, listened: Int?) throws {
        if let problem = Library.problem(progress: progress, page: page, minutes: minutes, listened: listened) {
            throw BookClubError.corruptFile(path: historyPath, detail: "book \(book): \(problem)")
        }
    }

    /// The entries of these books, found by following each one's chain back from its last line, so
    /// that a book's history costs its own lines however long the whole history is; `nil` when a chain
    /// does not hold (a line not of its book or not at a line's start, a link out of order, a line not
    /// chained), and the history must be read whole.
    func history(following chains: [(book: Book.ID, tail: Int)], length: Int) throws -> [UUID: [ReadingProgress.Entry]]?
    {
        try checkHistory(committedLength: length)
        var result: [UUID: [ReadingProgress.Entry]] = [:]
        for (book, tail) in chains {
            var offset = tail
            var end = length
            // Last line first: put back in the history's order, which breaks ties of time.
            var records: [HistoryRecord] = []
            // Lines of a book close together (a batch, an evening's reading) are read 64 KiB at a time.
            var window = (start: 0, bytes: Data())
            var isNear = false
            while offset != -1 {
                guard offset >= 0, offset < end else { return nil }
                let line =
                    try isNear
                    ? historyLine(at: offset, within: length, window: &window) : historyLine(at: offset, within: length)
                guard let line,
                    let record = line.withUnsafeBytes({ HistoryLine.record($0) })
                        ?? JSONCoding.decodeLine(HistoryRecord.self, from: line),
                    record.book == book, let previous = record.previous
                else { return nil }
                _ = try checked(record)
                records.append(record)
                (end, offset) = (offset, previous)
                isNear = end - offset <= 1024
            }
            for record in records.reversed() { result[record.reading, default: []].append(record.entry) }
        }
        return result.mapValues { ReadingProgress(entries: $0).entries }
    }

    /// The line of the history that begins at `offset` (the byte before it a line break), within the
    /// first `length` bytes; `nil` when there is no such line, or none shorter than 64 KiB. One
    /// `pread` for a line of bookclub's, the byte before it included.
    private func historyLine(at offset: Int, within length: Int) throws -> Data? {
        let start = max(offset - 1, 0)
        var text = Data()
        while start + text.count < length, text.count < 1 << 16 {
            let count = min(1024, length - start - text.count)
            guard let chunk = try fileSystem.readRange(historyPath, start + text.count, count), !chunk.isEmpty else {
                return nil
            }
            let searched = text.count
            text += chunk
            if offset > 0 && text.first != 0x0A { return nil }
            let from = text.startIndex + max(searched, offset > 0 ? 1 : 0)
            if let end = text[from...].firstIndex(of: 0x0A) {
                return Data(text[(text.startIndex + (offset > 0 ? 1 : 0))..<end])
            }
        }
        return nil
    }

    /// The same, from `window` (some 64 KiB of the history before the line), read anew when it does
    /// not hold the line.
    private func historyLine(at offset: Int, within length: Int, window: inout (start: Int, bytes: Data)) throws
        -> Data?
    {
        func inWindow() -> Data? {
            let (start, bytes) = window
            guard offset - 1 >= start || (offset == 0 && start == 0), offset < start + bytes.count else { return nil }
            let from = bytes.startIndex + offset - start
            guard let end = bytes[from...].firstIndex(of: 0x0A) else { return nil }
            // Not at a line's start: a line no chain leads to.
            guard offset == 0 || bytes[from - 1] == 0x0A else { return Data() }
            return Data(bytes[from..<end])
        }
        if let line = inWindow() { return line }
        let start = max(0, offset - (60 << 10))
        window = (start, try fileSystem.readRange(historyPath, start, min(64 << 10, length - start)) ?? Data())
        return try inWindow() ?? historyLine(at: offset, within: length)
    }

    /// JSON Lines for the entries a change added, to be appended at `base`, each chained to its book's
    /// line before it; and where each book's last line now begins. Once a part's worth of lines
    /// (`StagedHistory.part`) is made, it is handed to `write` with its offset, and not held: a batch
    /// of 100,000 lines is never held whole. What was not handed on is returned.
    ///
    /// - Parameter tail: where a book's last line began before (`nil`: unknown, or no line).
    static func historyLines(
        _ diff: LibraryDiff, at base: Int, tail: (Book.ID) -> Int?, write: (Data, Int) throws -> Void
    ) throws -> (lines: Data, written: Int, tails: [Book.ID: Int]) {
        var writer = JSONWriter(compact: true)
        var written = 0
        var tails: [Book.ID: Int] = [:]
        for change in diff.books {
            let hadEntries = change.before?.readings.contains { $0.progress.latest != nil } ?? false
            for (reading, entry) in change.addedEntries {
                // Looked up only for a book with a new line (a search of the store's files). Its first
                // line starts its chain (-1); after lines not chained, the chain is unknown (`nil`).
                let previous = tails[change.id] ?? tail(change.id) ?? (hadEntries ? nil : -1)
                let offset = base + written + writer.bytes.count
                writer.historyLine(book: change.id, reading: reading, entry: entry, previous: previous)
                tails[change.id] = offset
                try writer.handOver(atLeast: StagedHistory.part) { part in
                    try write(Data(part), base + written)
                    written += part.count
                }
            }
        }
        return (writer.take(), written, tails)
    }
}

/// History lines a command wrote past the store's committed length before its save, a few books at a
/// time rather than held in memory (the entries of an export put back into an empty store): the save
/// writes its own lines after them, chains each book's first to its last staged line, syncs them and
/// commits them with its change. Until then they are bytes no commit counts, as a stopped save leaves.
public struct StagedHistory: Sendable {
    /// How much of the history is written at once: staged lines are written in parts of about this.
    static let part = 1 << 20

    /// The committed length of the history they were written from.
    public var base: Int
    /// How many bytes were written from `base`.
    public var length = 0
    /// Where each book's last staged line begins.
    public var tails: [Book.ID: Int] = [:]

    public init(base: Int) {
        self.base = base
    }
}

extension LibraryStorage {
    /// How much of the history the store's commit counts, where a command stages lines
    /// (`StagedHistory`); read by the holder of the store's lock, once the store's files are checked as
    /// a save checks them, so that nothing is staged into a file the save would refuse.
    public func committedHistoryLength() throws -> Int {
        let commit = try readFiles(locked: true).commit
        try checkFiles(committed: commit)
        return commit.historyLength
    }
}
