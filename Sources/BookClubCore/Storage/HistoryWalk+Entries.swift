#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HistoryWalk {
    /// Hands `body` every entry of the library's readings, each reading's in the order
    /// `forEachBook` gives them (with their fractions derived as a book derives them, and without their
    /// notes), reading the history once: a reader that keeps no entry (`stats`) goes through a history
    /// of a million entries without counting each book's lines first, holding only each reading's
    /// latest few.
    ///
    /// The history is read on two threads at once, each handing on the entries of the books at even or
    /// odd places in the library to `body` with a copy of `part` of its own (a value: the two threads
    /// share nothing else); both copies are returned.
    /// A reading is named by its place among all the library's readings, book by book
    /// (`readingPlaces`).
    ///
    /// Each reading's latest `reorderRoom` entries are held back, so that one logged backdated among
    /// them is handed on in its place. A book whose lines are further out of its entries' order (one
    /// logged backdated before those, or the book removed and back again, the lines before no longer
    /// its history) is handed on as far as they are in order. Once the history is read, `takingBack`
    /// is handed, reading by reading, the entries of the book that were handed on (to the same part),
    /// and the book's entries are handed on again, whole and in order: both found by following its
    /// chain. `nil` when more than `mostTakenBack` books are taken back, or a chain does not hold or
    /// leads through fewer lines than the book has: `forEachBook` then goes through them all.
    public func forEachEntry<Part>(
        _ part: Part, reorderRoom: Int = 4, mostTakenBack: Int = 16,
        _ body: (inout Part, _ reading: Int, ReadingProgress.Entry) throws -> Void,
        takingBack: (inout Part, _ reading: Int, [ReadingProgress.Entry]) -> Void
    ) throws -> [Part]? {
        let books = library.books
        let keys = books.map(RunEntries.BookKey.init)
        let positions = BookPositions(books)
        let firstPlaces = readingPlaces
        // What a line's entry takes of its book and reading, looked up without copying either.
        let bounds = books.map { (pages: $0.pages, length: $0.length) }
        let readings = books.flatMap(\.readings)
        let withdrawn = readings.map { $0.progress.withdrawn.isEmpty ? nil : $0.progress.withdrawn }
        // The snapshot's latest entries of each reading, handed on after the history's unless it holds them.
        let held = readings.flatMap(\.progress.entries)
        var heldPlaces: [Range<Int>] = []
        for reading in readings {
            let first = heldPlaces.last?.upperBound ?? 0
            heldPlaces.append(first..<first + reading.progress.entries.count)
        }
        func handed(_ entry: ReadingProgress.Entry, of position: Int) -> ReadingProgress.Entry {
            var entry = Book.withDerivedFraction(entry, pages: bounds[position].pages, length: bounds[position].length)
            entry.note = nil
            return entry
        }
        try storage.checkHistory(committedLength: length)
        /// A part, the books it takes back, where the last line of each of its books begins and the last
        /// one of what was handed on (-1: none), how many lines lead to each, and how many entries of each
        /// reading were handed on.
        typealias Read = (
            part: Part, takenBack: [Int], tails: [Int], handedTails: [Int], lines: [Int], handedLines: [Int],
            handedCounts: [Int]
        )
        func read(parity: Int) -> Result<Read, any Error> {
            Result {
                var part = part
                var takenBack = Array(repeating: false, count: books.count)
                var tails = Array(repeating: -1, count: books.count)
                var handedTails = tails
                var found = Array(repeating: false, count: held.count)
                var latest = LatestEntries(readings: readings.count, room: reorderRoom)
                // The lines of each book since its latest start, and of what was handed on of a book taken
                // back: its chains must lead through as many.
                var lines = Array(repeating: 0, count: books.count)
                var handedLines = lines
                /// Takes back a book: what was handed on of it lies in its lines up to `tail`.
                func takeBack(_ position: Int, handedUpTo tail: Int) {
                    takenBack[position] = true
                    handedTails[position] = tail
                    handedLines[position] = lines[position]
                }
                try storage.forEachHistoryLine(in: 0..<length) { line, offset in
                    // A line in another form, or of a book no longer there, is read whole (and checked, as
                    // every line is).
                    var position = HistoryLine.bookID(line).flatMap(positions.position)
                    if position == nil {
                        let record = try storage.record(line)
                        position = positions.position(of: record.book)
                        if position == nil { return try storage.check(record) }
                    }
                    guard let position, position % 2 == parity else { return }
                    var fields = HistoryLine.Fields()
                    let isRead = HistoryLine.read(
                        line, ofBook: keys[position].id, isPlain: keys[position].isPlain,
                        readings: keys[position].writtenReadingIDs, leavingNote: true, into: &fields)
                    if !isRead { fields = HistoryLine.Fields(try storage.record(line)) }
                    let read = fields.entry
                    try storage.checkEntry(
                        of: keys[position].id, progress: read.progress!, page: read.page, minutes: read.minutes,
                        listened: read.listened)
                    let before = tails[position]
                    tails[position] = offset
                    let startsAgain = fields.previous == -1
                    if startsAgain && before >= 0 && !takenBack[position] { takeBack(position, handedUpTo: before) }
                    lines[position] = startsAgain ? 1 : lines[position] + 1
                    guard !takenBack[position] else { return }
                    guard
                        let reading = fields.knownReading
                            ?? keys[position].readingIDs.firstIndex(of: fields.reading!)
                    else { return }
                    let place = firstPlaces[position] + reading
                    let id = read.id!
                    guard withdrawn[place]?.contains(id) != true else { return }
                    for index in heldPlaces[place] where held[index].id == id { found[index] = true }
                    let entry = ReadingProgress.Entry(
                        id: id, progress: read.progress!, page: read.page, time: read.time!, minutes: read.minutes,
                        listened: read.listened)
                    switch latest.take(entry, at: place) {
                    case .held: break
                    case .handOn(let first): try body(&part, place, handed(first, of: position))
                    case .outOfOrder:
                        lines[position] -= 1
                        takeBack(position, handedUpTo: before)
                        lines[position] += 1
                    }
                }
                // Every entry held back, with the snapshot's latest entries the history lacks.
                for position in books.indices where position % 2 == parity && !takenBack[position] {
                    let places = firstPlaces[position]..<firstPlaces[position] + books[position].readings.count
                    let missing = places.map { place in heldPlaces[place].filter { !found[$0] }.map { held[$0] } }
                    if zip(places, missing).contains(where: { !latest.canFollow($1.first, at: $0) }) {
                        takeBack(position, handedUpTo: tails[position])
                        continue
                    }
                    for (place, missing) in zip(places, missing) {
                        for entry in latest.handOnAll(at: place, with: missing) {
                            try body(&part, place, handed(entry, of: position))
                        }
                    }
                }
                return (
                    part, takenBack.indices.filter { takenBack[$0] }, tails, handedTails, lines, handedLines,
                    latest.handedCounts
                )
            }
        }
        var even: Result<Read, any Error>?
        var odd: Result<Read, any Error>?
        inParallel({ even = read(parity: 0) }, { odd = read(parity: 1) })
        var reads = [try even!.get(), try odd!.get()]
        // The books taken back, found by their chains.
        let takenBack = reads.flatMap(\.takenBack)
        guard takenBack.count <= mostTakenBack else { return nil }
        guard !takenBack.isEmpty else { return reads.map(\.part) }
        /// The entries of a book's chain back from `tail`, by reading; `nil` unless it leads through `lines`
        /// lines (a line copied further on, chained to one before, would skip those between).
        func chain(of position: Int, from tail: Int, lines: Int) throws -> [UUID: [ReadingProgress.Entry]]? {
            guard tail >= 0 else { return lines == 0 ? [:] : nil }
            let found = try storage.history(following: [(books[position].id, tail)], length: length)
            return found.flatMap { $0.values.reduce(0) { $0 + $1.count } == lines ? $0 : nil }
        }
        for position in takenBack {
            let read = reads[position % 2]
            // What was handed on of the book, then its whole history.
            guard
                var handedHistory = try chain(
                    of: position, from: read.handedTails[position], lines: read.handedLines[position]),
                var history = try chain(of: position, from: read.tails[position], lines: read.lines[position])
            else { return nil }
            for (reading, place) in zip(books[position].readings, firstPlaces[position]...) {
                // The first entries in order, as many as were handed on.
                let withdrawn = reading.progress.withdrawn
                let entries = (handedHistory.removeValue(forKey: reading.id) ?? []).filter {
                    !withdrawn.contains($0.id)
                }
                let count = read.handedCounts[place]
                takingBack(&reads[position % 2].part, place, entries.prefix(count).map { handed($0, of: position) })
            }
            var book = books[position]
            book.loadHistory(&history)
            for (reading, place) in zip(book.readings, firstPlaces[position]...) {
                for entry in reading.progress.entries {
                    try body(&reads[position % 2].part, place, handed(entry, of: position))
                }
            }
        }
        return reads.map(\.part)
    }

    /// The place of each book's first reading among all the library's readings, book by book.
    public var readingPlaces: [Int] {
        var places: [Int] = []
        places.reserveCapacity(library.books.count)
        var place = 0
        for book in library.books {
            places.append(place)
            place += book.readings.count
        }
        return places
    }
}

/// The latest entries of each reading, in order, held back until `room` later ones come, so that one
/// logged backdated among them is handed on in its place: a ring of `room` entries a reading.
private struct LatestEntries {
    enum Taken {
        case held
        /// The entry to hand on now: the first of those held back, or the one taken.
        case handOn(ReadingProgress.Entry)
        /// It precedes one handed on.
        case outOfOrder
    }

    let room: Int
    private var ring: [ReadingProgress.Entry]
    private var starts: [Int]
    private var counts: [Int]
    /// The last entry handed on of each reading, which no later one may precede.
    private var last: [ReadingProgress.Entry?]
    /// How many entries of each reading were handed on.
    private(set) var handedCounts: [Int]

    init(readings: Int, room: Int) {
        self.room = room
        let none = ReadingProgress.Entry(
            id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), progress: 0,
            time: Date(timeIntervalSince1970: 0))
        ring = Array(repeating: none, count: readings * room)
        starts = Array(repeating: 0, count: readings)
        counts = starts
        last = Array(repeating: nil, count: readings)
        handedCounts = starts
    }

    /// Whether `entry` (if any) may come after what was handed on of the reading at `place`.
    func canFollow(_ entry: ReadingProgress.Entry?, at place: Int) -> Bool {
        guard let entry, let before = last[place] else { return true }
        return !ReadingProgress.Entry.precedes(entry, before)
    }

    mutating func take(_ entry: ReadingProgress.Entry, at place: Int) -> Taken {
        guard canFollow(entry, at: place) else { return .outOfOrder }
        let (base, start, count) = (place * room, starts[place], counts[place])
        // Its place among those held back, looked for from the newest.
        var index = count
        while index > 0, ReadingProgress.Entry.precedes(entry, ring[base + (start + index - 1) % room]) { index -= 1 }
        if count < room {
            for at in stride(from: count, to: index, by: -1) {
                ring[base + (start + at) % room] = ring[base + (start + at - 1) % room]
            }
            ring[base + (start + index) % room] = entry
            counts[place] = count + 1
            return .held
        }
        guard index > 0 else { return handedOn(entry, at: place) }
        // The first held back is handed on, the entry put in its place among the others: the newest
        // takes the first's slot.
        let first = ring[base + start]
        if index == count {
            ring[base + start] = entry
            starts[place] = (start + 1) % room
        } else {
            for at in 0..<index - 1 { ring[base + (start + at) % room] = ring[base + (start + at + 1) % room] }
            ring[base + (start + index - 1) % room] = entry
        }
        return handedOn(first, at: place)
    }

    /// The entries held back of the reading at `place` and `others` (in order, none preceding one handed
    /// on), merged in order, the held back first of equals; all handed on.
    mutating func handOnAll(at place: Int, with others: [ReadingProgress.Entry]) -> [ReadingProgress.Entry] {
        let base = place * room
        let heldBack = (0..<counts[place]).map { ring[base + (starts[place] + $0) % room] }
        counts[place] = 0
        var merged: [ReadingProgress.Entry] = []
        var (i, j) = (0, 0)
        while i < heldBack.count || j < others.count {
            if j == others.count || (i < heldBack.count && !ReadingProgress.Entry.precedes(others[j], heldBack[i])) {
                merged.append(heldBack[i])
                i += 1
            } else {
                merged.append(others[j])
                j += 1
            }
        }
        if let lastOne = merged.last { last[place] = lastOne }
        handedCounts[place] += merged.count
        return merged
    }

    private mutating func handedOn(_ entry: ReadingProgress.Entry, at place: Int) -> Taken {
        last[place] = entry
        handedCounts[place] += 1
        return .handOn(entry)
    }
}
