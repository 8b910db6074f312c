#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HistoryWalk {
    /// Hands `body` every entry of the library's readings, each reading's in the order
    /// `forEachBook` gives them (with their fractions derived as a book derives them, and without their
    /// notes), reading the history once: a reader that keeps no entry (`stats`) goes through a history
    /// of a million entries without counting each book's lines first, or holding any of them.
    ///
    /// The history is read on two threads at once, each handing on the entries of the books at even or
    /// odd places in the library to `body` with a copy of `part` of its own; both copies are returned.
    /// A reading is named by its place among all the library's readings, book by book
    /// (`readingPlaces`).
    ///
    /// A book whose lines are not in its entries' order (one logged backdated, or the book removed and
    /// back again, the lines before no longer its history) is handed on as far as its lines are in
    /// order; `takingBack` is then called with the book's place and the part it was handed to, and its
    /// entries are handed on again, whole and in order, each book's found by following its chain. `nil`
    /// when more than `mostTakenBack` books are, or a chain does not hold: `forEachBook` then goes
    /// through them all.
    public func forEachEntry<Part>(
        _ part: Part, mostTakenBack: Int = 16,
        _ body: (inout Part, _ reading: Int, ReadingProgress.Entry) throws -> Void,
        takingBack: (inout Part, _ book: Int) -> Void
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
        func hand(_ entry: ReadingProgress.Entry, of position: Int, at place: Int, to part: inout Part) throws {
            var entry = Book.withDerivedFraction(entry, pages: bounds[position].pages, length: bounds[position].length)
            entry.note = nil
            try body(&part, place, entry)
        }
        try storage.checkHistory(committedLength: length)
        /// A part, the books it takes back, and where the last line of each of its books begins (-1: none).
        typealias Read = (part: Part, takenBack: [Int], tails: [Int])
        func read(parity: Int) -> Result<Read, any Error> {
            Result {
                var part = part
                var started = Array(repeating: false, count: books.count)
                var takenBack = Array(repeating: false, count: books.count)
                var tails = Array(repeating: -1, count: books.count)
                var found = Array(repeating: false, count: held.count)
                // The last entry handed on of each reading, which the next must not precede.
                var last: [ReadingProgress.Entry?] = Array(repeating: nil, count: readings.count)
                func handInOrder(_ entry: ReadingProgress.Entry, of position: Int, at place: Int) throws {
                    if let before = last[place], ReadingProgress.Entry.precedes(entry, before) {
                        takenBack[position] = true
                        return
                    }
                    last[place] = entry
                    try hand(entry, of: position, at: place, to: &part)
                }
                try storage.forEachHistoryLine(in: 0..<length) { line, offset in
                    // A line in another form, or of a book no longer there, is read whole.
                    let position =
                        try HistoryLine.bookID(line).flatMap(positions.position) ?? positions.position(
                            of: storage.record(line).book) ?? -1
                    guard position >= 0, position % 2 == parity else { return }
                    var fields = HistoryLine.Fields()
                    let isRead = HistoryLine.read(
                        line, ofBook: keys[position].id, isPlain: keys[position].isPlain,
                        readings: keys[position].writtenReadingIDs, leavingNote: true, into: &fields)
                    if !isRead { fields = HistoryLine.Fields(try storage.record(line)) }
                    let read = fields.entry
                    try storage.checkEntry(
                        of: keys[position].id, progress: read.progress!, page: read.page, minutes: read.minutes,
                        listened: read.listened)
                    tails[position] = offset
                    guard !takenBack[position] else { return }
                    if fields.previous == -1 && started[position] {
                        takenBack[position] = true
                        return
                    }
                    started[position] = true
                    guard
                        let reading = fields.knownReading
                            ?? keys[position].readingIDs.firstIndex(of: fields.reading!)
                    else { return }
                    let place = firstPlaces[position] + reading
                    let id = read.id!
                    guard withdrawn[place]?.contains(id) != true else { return }
                    for index in heldPlaces[place] where held[index].id == id { found[index] = true }
                    try handInOrder(
                        ReadingProgress.Entry(
                            id: id, progress: read.progress!, page: read.page, time: read.time!,
                            minutes: read.minutes, listened: read.listened), of: position, at: place)
                }
                for position in books.indices where position % 2 == parity && !takenBack[position] {
                    for place in firstPlaces[position]..<firstPlaces[position] + books[position].readings.count {
                        for index in heldPlaces[place] where !found[index] {
                            try handInOrder(held[index], of: position, at: place)
                        }
                    }
                }
                return (part, takenBack.indices.filter { takenBack[$0] }, tails)
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
        let chains = takenBack.map { (book: books[$0].id, tail: reads[$0 % 2].tails[$0]) }
        guard var history = try storage.history(following: chains, length: length) else { return nil }
        for position in takenBack {
            takingBack(&reads[position % 2].part, position)
            var book = books[position]
            book.loadHistory(&history)
            for (reading, place) in zip(book.readings, firstPlaces[position]...) {
                for entry in reading.progress.entries {
                    try hand(entry, of: position, at: place, to: &reads[position % 2].part)
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
