#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The library as the store has it, each reading with its latest entry, and a way through its books
/// with every entry, a few books at a time (`export` over a history of a million entries holds tens
/// of megabytes rather than the whole history), or through every entry in one read of the history
/// (`stats`, which keeps none: `forEachEntry`).
///
/// ```swift
/// let walk = try storage.historyWalk()
/// try walk.forEachBook { book in print(book.title, book.readings.map(\.progress.entries.count)) }
/// ```
public struct HistoryWalk {
    /// Every book, each reading with its latest entry only, and the clubs.
    public let library: Library
    let storage: LibraryStorage
    /// The committed length of the history, as the library was read.
    let length: Int

    /// Hands `body` each book of `library` with every entry the history holds for it, in the library's
    /// order. A history of up to 16 MiB (`readWholeUpTo`) is read in one go; a longer one is read once
    /// (in two halves at once) to count each book's lines, then for each run of books that holds at most
    /// `entriesAtOnce` entries (or one book that holds more), its blocks of `blockLines` lines (counted
    /// from the start of each half) that hold a line of the run, in two halves at once. `body` is called
    /// on this thread while the next run is read on others: two runs' entries are held at most.
    public func forEachBook(
        entriesAtOnce: Int = 75_000, readWholeUpTo: Int = 1 << 24, blockLines: Int = 4096,
        _ body: (Book) throws -> Void
    ) throws {
        guard length > readWholeUpTo else {
            var history = try storage.history(of: nil, length: length)
            for var book in library.books {
                book.loadHistory(&history)
                try body(book)
            }
            return
        }
        let books = library.books
        let keys = books.map(RunEntries.BookKey.init)
        let positions = BookPositions(books)
        try storage.checkHistory(committedLength: length)
        // The first pass, in two halves at once, split at a line's start.
        let split = try storage.lineStart(after: length / 2, before: length)
        var before: Result<LineBooks, any Error>?
        var after: Result<LineBooks, any Error>?
        inParallel(
            { before = Result { try LineBooks(0..<split, of: storage, positions, blockLines: blockLines) } },
            { after = Result { try LineBooks(split..<length, of: storage, positions, blockLines: blockLines) } })
        // Taken out of the results, so that each half's books are held once (4 MB at 1,000,000 lines).
        var lines = try before.take()!.get()
        lines.append(try after.take()!.get())
        let lineBooks = lines.books
        let counts = lines.counts(of: books.count)
        // Where each block of lines begins in the history, then its end, and the number of its first
        // line, then the number of lines: a run reads again only the blocks that hold a line of its books.
        let blockStarts = lines.blockStarts + [length]
        let firstLines = lines.firstLines + [lineBooks.count]
        func blockBooks(_ block: Int) -> ArraySlice<Int32> { lineBooks[firstLines[block]..<firstLines[block + 1]] }
        // Runs of books of at most `entriesAtOnce` entries (or one book that holds more).
        var runs: [Range<Int>] = []
        while (runs.last?.upperBound ?? 0) < books.count {
            let first = runs.last?.upperBound ?? 0
            var end = first + 1
            var entries = counts[first]
            while end < books.count, entries + counts[end] <= entriesAtOnce {
                entries += counts[end]
                end += 1
            }
            runs.append(first..<end)
        }
        // A run's blocks are read in two halves at once, on two threads: the second half's entries come
        // after the first's, unless the book started again in it.
        func read(_ run: Range<Int>) -> Result<[RunEntries], any Error> {
            let bounds = Int32(run.lowerBound)..<Int32(run.upperBound)
            let blocks = (0..<blockStarts.count - 1).filter { blockBooks($0).contains(where: bounds.contains) }
            func read(_ blocks: ArraySlice<Int>) -> Result<RunEntries, any Error> {
                Result {
                    var entries = RunEntries(keys[run])
                    // Room for each book's lines at once.
                    var room = Array(repeating: 0, count: run.count)
                    for block in blocks {
                        for book in blockBooks(block) where bounds ~= book { room[Int(book) - run.lowerBound] += 1 }
                    }
                    entries.reserve(room)
                    try forEachLine(of: blocks, starts: blockStarts, firstLines: firstLines) { number, line in
                        guard number < lineBooks.count, bounds ~= lineBooks[number] else { return }
                        try entries.add(line, of: Int(lineBooks[number]) - run.lowerBound, storage: storage)
                    }
                    return entries
                }
            }
            let middle = blocks.startIndex + blocks.count / 2
            var firstHalf: Result<RunEntries, any Error>?
            var secondHalf: Result<RunEntries, any Error>?
            inParallel({ firstHalf = read(blocks[..<middle]) }, { secondHalf = read(blocks[middle...]) })
            return Result { [try firstHalf!.get(), try secondHalf!.get()] }
        }
        // Each run's books are handed to `body` on this thread while the next run is read on others.
        guard !runs.isEmpty else { return }
        var next = read(runs[0])
        for index in runs.indices {
            var parts = try next.get()
            // Held here alone, so that each book's entries are let go as it is handed on.
            next = .success([])
            var handed: Result<Void, any Error> = .success(())
            inParallel(
                { if index + 1 < runs.count { next = read(runs[index + 1]) } },
                {
                    handed = Result {
                        for (offset, var book) in books[runs[index]].enumerated() {
                            book.loadHistory { reading, _ in RunEntries.take(offset, reading, from: &parts) }
                            try body(book)
                        }
                    }
                })
            try handed.get()
        }
    }

    /// Hands `body` each line, with its number, of `blocks` (in order), reading each stretch of
    /// consecutive blocks in one go.
    private func forEachLine(
        of blocks: ArraySlice<Int>, starts: [Int], firstLines: [Int],
        _ body: (Int, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var index = blocks.startIndex
        while index < blocks.endIndex {
            var last = index + 1
            while last < blocks.endIndex, blocks[last] == blocks[last - 1] + 1 { last += 1 }
            var number = firstLines[blocks[index]]
            try storage.forEachHistoryLine(in: starts[blocks[index]]..<starts[blocks[last - 1] + 1]) { line, _ in
                defer { number += 1 }
                try body(number, line)
            }
            index = last
        }
    }
}

/// The book of each line of a part of the history, by its position in the library (-1: a book no
/// longer there), and where each block of `blockLines` lines begins.
private struct LineBooks {
    private(set) var books: [Int32] = []
    /// The offset in the history of each block's first line, and its number.
    private(set) var blockStarts: [Int] = []
    private(set) var firstLines: [Int] = []

    init(
        _ range: Range<Int>, of storage: LibraryStorage, _ positions: BookPositions, blockLines: Int
    ) throws {
        try storage.forEachHistoryLine(in: range) { line, offset in
            if books.count % blockLines == 0 {
                blockStarts.append(offset)
                firstLines.append(books.count)
            }
            // A line in another form, or of a book no longer there, is read whole.
            let position =
                try HistoryLine.bookID(line).flatMap(positions.position) ?? positions.position(
                    of: storage.record(line).book) ?? -1
            books.append(Int32(position))
        }
    }

    /// Adds the lines that follow these.
    mutating func append(_ later: LineBooks) {
        blockStarts += later.blockStarts
        firstLines += later.firstLines.map { $0 + books.count }
        books.reserveCapacity(books.count + later.books.count)
        books += later.books
    }

    /// The number of lines of each of `count` books.
    func counts(of count: Int) -> [Int] {
        var counts = Array(repeating: 0, count: count)
        for position in books where position >= 0 { counts[Int(position)] += 1 }
        return counts
    }
}

/// The entries found for a run of books, book by book and reading by reading (no hashing of ids).
struct RunEntries {
    /// A book of the run, as each of its lines is compared with it.
    struct BookKey {
        let id: Book.ID
        /// Whether JSON writes the id as it is (`JSONScanner.take(string:isPlain:)`).
        let isPlain: Bool
        let readingIDs: [UUID]
        /// The same ids as JSON writes them, which a line's is compared with.
        let writtenReadingIDs: [[UInt8]]

        init(_ book: Book) {
            var id = book.id
            self.id = id
            isPlain = id.withUTF8 { JSONText.needsNoEscape(UnsafeRawBufferPointer($0)) }
            readingIDs = book.readings.map(\.id)
            writtenReadingIDs = readingIDs.map { id in
                var writer = JSONWriter(compact: true)
                writer.uuid(id)
                return writer.bytes
            }
        }
    }

    private let books: ArraySlice<BookKey>
    private var entries: [[[HeldEntry]]]
    /// The notes of the entries, which name them by their index here.
    private var notes: [String] = []
    /// The books that started again (see `HistoryRecord.previous`): the lines before are not their
    /// history.
    private var restarted: [Bool]

    init(_ books: ArraySlice<BookKey>) {
        self.books = books
        entries = books.map { book in book.readingIDs.map { _ in [] } }
        restarted = Array(repeating: false, count: books.count)
    }

    /// Makes room for each book's number of lines at once, when it has one reading.
    mutating func reserve(_ counts: [Int]) {
        for (offset, count) in counts.enumerated() where entries[offset].count == 1 {
            entries[offset][0].reserveCapacity(count)
        }
    }

    /// Adds the entry of `line`, which should be of the book at `offset`.
    mutating func add(_ line: UnsafeRawBufferPointer, of offset: Int, storage: LibraryStorage) throws {
        let book = books[books.startIndex + offset]
        // A line as bookclub writes it, its fields kept as they are read; any other, read whole.
        var fields = HistoryLine.Fields()
        if !HistoryLine.read(
            line, ofBook: book.id, isPlain: book.isPlain, readings: book.writtenReadingIDs, into: &fields)
        {
            guard let record = try storage.record(line, ofBook: book.id, isPlain: book.isPlain) else {
                throw Self.changed(storage)
            }
            fields = HistoryLine.Fields(record)
        }
        // An undo and a write since the first pass may have put other lines in the place of
        // uncommitted ones. (An id that needs an escape is read, not found in place.)
        guard fields.book == nil || fields.book == book.id else { throw Self.changed(storage) }
        let entry = fields.entry
        try storage.checkEntry(
            of: book.id, progress: entry.progress!, page: entry.page, minutes: entry.minutes, listened: entry.listened)
        let held = HeldEntry(
            id: entry.id!, progress: entry.progress!, time: entry.time!, page: entry.page, minutes: entry.minutes,
            listened: entry.listened)
        let reading = fields.knownReading ?? book.readingIDs.firstIndex(of: fields.reading!)
        add(held, note: entry.note, reading: reading, previous: fields.previous, of: offset)
    }

    /// What a line of another book, where the first pass found this one's, says.
    private static func changed(_ storage: LibraryStorage) -> BookClubError {
        BookClubError.corruptFile(path: storage.historyPath, detail: "changed while it was read; run the command again")
    }

    /// Keeps `entry` for the reading at `reading`, if the book still has it; a line that starts the book
    /// again lets go of those kept before it.
    private mutating func add(_ entry: HeldEntry, note: String?, reading: Int?, previous: Int?, of offset: Int) {
        if previous == -1 {
            restarted[offset] = true
            for index in entries[offset].indices { entries[offset][index] = [] }
        }
        guard let reading else { return }
        var entry = entry
        if let note {
            entry.note = Int32(clamping: notes.count)
            notes.append(note)
        }
        entries[offset][reading].append(entry)
    }

    /// The entries of a book's reading that `parts` (a run's, in the history's order) found, from the
    /// last part where the book started again; let go of in every part.
    static func take(_ offset: Int, _ reading: Int, from parts: inout [RunEntries]) -> [ReadingProgress.Entry] {
        let first = parts.lastIndex { $0.restarted[offset] } ?? 0
        var taken: [ReadingProgress.Entry] = []
        taken.reserveCapacity(parts[first...].reduce(0) { $0 + $1.entries[offset][reading].count })
        for index in parts.indices {
            if index >= first {
                let notes = parts[index].notes
                taken += parts[index].entries[offset][reading].lazy.map { $0.entry(notes: notes) }
            }
            parts[index].entries[offset][reading] = []
        }
        return taken
    }
}

/// An entry as a run holds it until its book is handed on, in half the memory of a
/// `ReadingProgress.Entry`: the run handed on and the next one, read meanwhile, are held in about the
/// memory one run took.
private struct HeldEntry {
    let id: UUID
    let progress: Double
    let time: Date
    /// The page, minutes and place listened, -1 for none: an entry checked (`Library.problem`) holds
    /// none below 0 or above 100,000.
    let page: Int32
    let minutes: Int32
    let listened: Int32
    /// Where its note is among those of its run; -1 for none.
    var note: Int32 = -1

    init(id: UUID, progress: Double, time: Date, page: Int?, minutes: Int?, listened: Int?) {
        self.id = id
        self.progress = progress
        self.time = time
        self.page = Int32(clamping: page ?? -1)
        self.minutes = Int32(clamping: minutes ?? -1)
        self.listened = Int32(clamping: listened ?? -1)
    }

    func entry(notes: [String]) -> ReadingProgress.Entry {
        func value(_ held: Int32) -> Int? { held < 0 ? nil : Int(held) }
        return ReadingProgress.Entry(
            id: id, progress: progress, page: value(page), time: time, note: note < 0 ? nil : notes[Int(note)],
            minutes: value(minutes), listened: value(listened))
    }
}

/// Each book's position in the library, looked up by the bytes of its id: the first pass over a
/// history finds the books of a million lines without making a string of each id.
struct BookPositions {
    private let ids: [[UInt8]]
    /// Open addressing: a position plus one in the slot its id's hash leads to, or the next free one.
    private var slots: [Int32]

    init(_ books: [Book]) {
        ids = books.map { Array($0.id.utf8) }
        var size = 16
        while size < books.count * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        for position in ids.indices {
            let id = ids[position]
            var slot = id.withUnsafeBytes(Self.hash) & (size - 1)
            while slots[slot] != 0 {
                // A second book of the same id: the first is the one found, as the store finds it.
                if ids[Int(slots[slot]) - 1] == id { break }
                slot = (slot + 1) & (size - 1)
            }
            if slots[slot] == 0 { slots[slot] = Int32(position + 1) }
        }
    }

    func position(of id: UnsafeRawBufferPointer) -> Int? {
        var slot = Self.hash(id) & (slots.count - 1)
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            let found = ids[position].withUnsafeBytes { known in
                known.count == id.count
                    && (id.isEmpty || sameBytes(known.baseAddress!, id.baseAddress!, count: id.count))
            }
            if found { return position }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    func position(of id: Book.ID) -> Int? {
        var id = id
        return id.withUTF8 { position(of: UnsafeRawBufferPointer($0)) }
    }

    /// FNV-1a over words of eight bytes (the last one short), then mixed as MurmurHash3 ends (the
    /// multiplications carry a word's high bytes only upwards, and a slot is the hash's low bits).
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var at = 0
        while at + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) &* 0x100_0000_01b3
            at += 8
        }
        for byte in bytes[at...] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = (hash ^ hash >> 33) &* 0xff51_afd7_ed55_8ccd
        hash = (hash ^ hash >> 33) &* 0xc4ce_b9fe_1a85_ec53
        return Int(truncatingIfNeeded: hash ^ hash >> 33)
    }
}

extension LibraryStorage {
    /// Reads the library, each reading with its latest entry, to go through its books with every entry.
    ///
    /// - Parameters:
    ///   - leavingDetails: the books come without their `details` (as `LibraryScope.listing` has them).
    ///   - arranging: puts the books (each with its latest entries) in the order to go through them,
    ///     rather than the store's: `Library.inExportOrder`, say.
    ///   - locked: the caller holds the store's lock (the files may be mended as a writer mends them).
    public func historyWalk(
        leavingDetails: Bool = false, arranging: (([Book]) -> [Book])? = nil, locked: Bool = false
    ) throws -> HistoryWalk {
        var files = try readFiles(locked: locked)
        var library = try files.library(in: leavingDetails ? .listing : .everything)
        if let arranging { library.books = arranging(library.books) }
        return HistoryWalk(library: library, storage: self, length: files.commit.historyLength)
    }
}
