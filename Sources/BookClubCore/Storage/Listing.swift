#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `STORE.listing`: a row of each of the snapshot's books (`BookRow`), so that `list` shows a
/// library of thousands of books without decoding them. Derived data, never trusted over what it
/// lists: it serves only the snapshot it names (its generation, size and time of change) and only
/// whole (its seal, over its rows and their count), a row holds only what a book can, the journal's
/// books stand over its rows, and a store it cannot serve is read as before. Written from the
/// snapshot's books, checked as every load checks them, by a save that found it missing or out of
/// date and by `doctor --fix`; with each new snapshot, from the listing before it with the journal's
/// books (checked so) over its rows.
///
/// ```text
/// {"lines":"id status activity progress page pages listened length logged ended audiobook rating tags title author","snapshot":"4f0c… 2051733 1764182400000000"}
/// ["00000000000000000000000000000002","reading",785289600.0,0.25,103,412,null,null,true,null,false,null,["sf"],"Dune","Frank Herbert"]
/// {"books":1,"crc":"1a2b3c4d"}
/// ```
///
/// A line is a JSON array of a row's fields in the order the first line names them, times in
/// seconds since 2001 (as `Date` holds them: read back to the same bit); the last line seals the
/// others with their checksum.
enum Listing {
    /// The first line of the listing of a snapshot of this generation, size and time of change.
    static func header(generation: String, size: Int, modified: Date?) -> Data {
        let micros = Int(((modified?.timeIntervalSince1970 ?? 0) * 1_000_000).rounded())
        var writer = JSONWriter(compact: true)
        writer.object { w in
            w.field(
                "lines",
                "id status activity progress page pages listened length logged ended audiobook rating tags title author"
            )
            w.field("snapshot", "\(generation) \(size) \(micros)")
        }
        return writer.take()
    }

    /// The listing of these rows.
    static func contents(header: Data, rows: [BookRow]) -> Data {
        var writer = JSONWriter(compact: true)
        writer.raw(header)
        for row in rows {
            writer.text("\n")
            line(row, into: &writer)
        }
        writer.text("\n")
        var data = writer.take()
        var seal = JSONWriter(compact: true)
        seal.object { w in w.field("books", rows.count) }
        data += Seal.seal(seal.take(), covering: data) + Data(utf8: "\n")
        return data
    }

    private static func line(_ row: BookRow, into writer: inout JSONWriter) {
        func number(_ value: (some CustomStringConvertible)?) { writer.text(value?.description ?? "null") }
        writer.text("[")
        writer.string(row.id)
        writer.text(",")
        writer.string(row.status.rawValue)
        writer.text(",")
        number(row.activity.timeIntervalSinceReferenceDate)
        writer.text(",")
        number(row.progress)
        for value in [row.page, row.pages, row.listened, row.length] {
            writer.text(",")
            number(value)
        }
        writer.text(row.isLogged ? ",true," : ",false,")
        number(row.ended?.timeIntervalSinceReferenceDate)
        writer.text(row.isAudiobook ? ",true," : ",false,")
        number(row.rating)
        writer.text(",[")
        for (index, tag) in row.tags.enumerated() {
            if index > 0 { writer.text(",") }
            writer.string(tag)
        }
        writer.text("],")
        writer.string(row.title)
        writer.text(",")
        if let author = row.author { writer.string(author) } else { writer.text("null") }
        writer.text("]")
    }

    /// The rows of a listing that starts with `header` and is whole; `nil` when it is of another
    /// snapshot, cut, damaged or not of this shape. A row of a status not in `statuses` is read no
    /// further than its status: its other fields are left empty (a `list` of the books being read
    /// need not read the thousands finished).
    static func rows(
        in data: Data, header: Data, statuses: Set<Book.Status> = Set(Book.Status.allCases)
    ) -> [BookRow]? {
        guard data.starts(with: header + Data(utf8: "\n")), data.last == 0x0A,
            let last = data.dropLast().lastIndex(of: 0x0A), last >= data.startIndex + header.count
        else { return nil }
        // Looked up once a row: an array by status, not the set's hashing.
        let kept = Book.Status.allCases.map(statuses.contains)
        let rows = data[(data.startIndex + header.count + 1)..<(last + 1)].withUnsafeBytes { bytes -> [BookRow]? in
            // As many as the lines: grown, the rows would be copied, and their new pages touched, twice or more.
            var lines = 0
            if var at = bytes.baseAddress {
                let end = at + bytes.count
                while let found = firstByte(0x0A, at: at, count: end - at) {
                    lines += 1
                    at = found + 1
                }
            }
            var rows: [BookRow] = []
            rows.reserveCapacity(lines)
            var start = 0
            while start < bytes.count {
                guard let found = firstByte(0x0A, at: bytes.baseAddress! + start, count: bytes.count - start)
                else { return nil }
                let end = bytes.baseAddress!.distance(to: found)
                var scanner = JSONScanner(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                guard let row = row(&scanner, kept: kept), !kept[row.status.index] || scanner.atEnd
                else { return nil }
                rows.append(row)
                start = end + 1
            }
            return rows
        }
        // The seal: the checksum of every line before it, and their count.
        var count = JSONWriter(compact: true)
        count.object { w in w.field("books", rows?.count ?? -1) }
        guard let rows,
            data[(last + 1)..<(data.endIndex - 1)].elementsEqual(Seal.seal(count.take(), covering: data[...last]))
        else { return nil }
        return rows
    }

    /// A row; one of a status not `kept` (by `Book.Status.index`) read as far as its status.
    private static func row(_ scanner: inout JSONScanner, kept: [Bool]) -> BookRow? {
        func comma() -> Bool { scanner.take(UInt8(ascii: ",")) }
        /// Reads `,` then `null` or a value into `value`.
        func optional<T>(_ value: inout T?, _ read: (inout JSONScanner, inout T?) -> Bool) -> Bool {
            guard comma() else { return false }
            value = nil
            return scanner.take(literal: "null") || read(&scanner, &value)
        }
        /// A number as `description` writes it: an exponent of three digits too (`5e-324`), which
        /// the scanner leaves to Foundation's decoder.
        func number(_ scanner: inout JSONScanner, _ value: inout Double?) -> Bool {
            let start = scanner.index
            if scanner.read(&value) { return true }
            scanner.index = start
            scanner.skipBlanks()
            let first = scanner.index
            while scanner.index < scanner.bytes.count, scanner.bytes[scanner.index] != UInt8(ascii: ","),
                scanner.bytes[scanner.index] != UInt8(ascii: "]")
            {
                scanner.index += 1
            }
            let text = UnsafeRawBufferPointer(rebasing: scanner.bytes[first..<scanner.index])
            value = Double(String(decoding: text, as: UTF8.self))
            return value?.isFinite == true
        }
        func flag(_ value: inout Bool) -> Bool {
            guard comma() else { return false }
            value = scanner.take(literal: "true")
            return value || scanner.take(literal: "false")
        }
        var (id, title, author): (String?, String?, String?)
        var (activity, progress, ended, rating): (Double?, Double?, Double?, Double?)
        var (page, pages, listened, length): (Int?, Int?, Int?, Int?)
        var (isLogged, isAudiobook) = (false, false)
        var tags: [String] = []
        guard scanner.take(UInt8(ascii: "[")), scanner.read(&id), comma(),
            // Matched as bytes, not made a string.
            let status = Book.Status.allCases.first(where: { scanner.take(string: $0.rawValue) })
        else { return nil }
        guard kept[status.index] else {
            return BookRow(
                id: id!, title: "", author: nil, status: status, tags: [],
                activity: Date(timeIntervalSinceReferenceDate: 0),
                progress: 0, page: nil, pages: nil, listened: nil, length: nil, isLogged: false, ended: nil,
                isAudiobook: false, rating: nil)
        }
        guard
            comma(), number(&scanner, &activity), comma(), number(&scanner, &progress),
            optional(&page, { $0.read(&$1) }), optional(&pages, { $0.read(&$1) }),
            optional(&listened, { $0.read(&$1) }), optional(&length, { $0.read(&$1) }), flag(&isLogged),
            optional(&ended, number), flag(&isAudiobook), optional(&rating, number),
            comma(),
            scanner.array({ scanner in
                guard let tag = scanner.string() else { return false }
                tags.append(tag)
                return true
            }),
            comma(), scanner.read(&title), optional(&author, { $0.read(&$1) }), scanner.take(UInt8(ascii: "]")),
            let id, let activity, let progress, let title,
            // What no book holds (a hand edit sealed again, say) is refused, as a load refuses it.
            (0...1).contains(progress), page.map({ (0...Library.pageCounts.upperBound).contains($0) }) ?? true,
            pages.map(Library.pageCounts.contains) ?? true, length.map(Book.lengths.contains) ?? true,
            listened.map({ (0...Book.lengths.upperBound).contains($0) }) ?? true,
            rating.map(Rating.range.contains) ?? true, abs(activity) < 4e11, abs(ended ?? 0) < 4e11
        else { return nil }
        return BookRow(
            id: id, title: title, author: author, status: status, tags: tags,
            activity: Date(timeIntervalSinceReferenceDate: activity), progress: progress, page: page, pages: pages,
            listened: listened, length: length, isLogged: isLogged,
            ended: ended.map(Date.init(timeIntervalSinceReferenceDate:)), isAudiobook: isAudiobook, rating: rating)
    }
}

extension LibraryFiles {
    /// The first line of the listing of this snapshot; `nil` when the snapshot is of an earlier schema,
    /// has no generation or is not laid out as bookclub writes it.
    var listingHeader: Data? {
        guard let generation, snapshotRun != nil, version == LibraryStorage.schemaVersion else { return nil }
        return Listing.header(generation: generation, size: snapshotSize, modified: fileSystem.modified(path))
    }

    /// Whether `STORE.listing` starts as the listing of this snapshot does (whether it is whole is
    /// asked when it is read); `true` when the snapshot cannot have one.
    var hasListing: Bool {
        guard let header = listingHeader else { return true }
        let first = try? fileSystem.readRange(storage.listingPath, 0, header.count + 1)
        return first == header + Data(utf8: "\n")
    }

    /// The rows of the books of these statuses, in the store's order: the listing's, those of the
    /// journal's books standing over them; and how many books the store holds. `nil` when there is
    /// no listing of this snapshot that is whole, or a book of the journal (or the clubs) is not one a
    /// load would take, which the load then says.
    func listedRows(of statuses: Set<Book.Status> = Set(Book.Status.allCases)) -> (rows: [BookRow], books: Int)? {
        guard let header = listingHeader, let data = try? fileSystem.map(storage.listingPath),
            let listed = Listing.rows(in: data, header: header, statuses: statuses)
        else { return nil }
        var changed: [Book] = []
        func read(_ line: Data) -> BookRow? {
            guard let book = StoredBook(scanning: line, leavingDetails: true)?.book else { return nil }
            changed.append(book)
            return BookRow(book)
        }
        // One pass, as `everyBook` orders them: a changed book in its place, a new one after the
        // others; only the rows of these statuses kept (thousands of rows, moved or copied once more,
        // cost a `list` more than the journal's few books).
        var rows: [BookRow] = []
        rows.reserveCapacity(listed.count + journalOrder.count)
        var books = 0
        var found = Set<Book.ID>()
        let kept = Book.Status.allCases.map(statuses.contains)
        func add(_ row: BookRow) {
            books += 1
            if kept[row.status.index] { rows.append(row) }
        }
        for row in listed {
            guard !journalBooks.isEmpty, let change = journalBooks[row.id] else {
                add(row)
                continue
            }
            found.insert(row.id)
            if let line = change {
                guard let row = read(line) else { return nil }
                add(row)
            }
        }
        for id in journalOrder where !found.contains(id) {
            guard case .some(.some(let line)) = journalBooks[id] else { continue }
            guard let row = read(line) else { return nil }
            add(row)
        }
        // The check of every load, of what the listing's own check, as it was written, did not see.
        guard (try? library(books: changed)) != nil else { return nil }
        return (rows, books)
    }

    /// Writes the listing of the snapshot's books, replacing one out of date; nothing when the snapshot
    /// cannot have one or a book is not one a load would take. Derived data: a failure is passed over.
    ///
    /// - Parameter rows: the rows of the snapshot's books, in its order, when they are known (a fold
    ///   has them from the listing before it); `nil`: every book is decoded.
    func writeListing(_ rows: [BookRow]? = nil) {
        guard let header = listingHeader else { return }
        if let rows {
            try? fileSystem.replace(storage.listingPath, Listing.contents(header: header, rows: rows))
            return
        }
        guard let (lines, asLaidOut) = try? snapshotLines(), asLaidOut else { return }
        var books: [Book] = []
        books.reserveCapacity(lines.count)
        for line in lines {
            // A book the scanner leaves to the decoder, decoded: or every save would try again.
            guard
                let book = StoredBook(scanning: line, leavingDetails: true)
                    ?? (try? StoredBook.decode(line, path: path))
            else { return }
            books.append(book.book)
        }
        guard Library(books: books).problem() == nil else { return }
        try? fileSystem.replace(storage.listingPath, Listing.contents(header: header, rows: books.map(BookRow.init)))
    }
}

extension LibraryStorage {
    /// The rows (`BookRow`) of the books of these statuses, in the store's order, as the books would
    /// be loaded without their details (`LibraryScope.listing`), and how many books the store holds;
    /// read from `STORE.listing` when it serves the snapshot.
    public func rows(of statuses: Set<Book.Status> = Set(Book.Status.allCases)) throws -> (
        rows: [BookRow], books: Int
    ) {
        var files = try readFiles(locked: false)
        if let listed = files.listedRows(of: statuses) { return listed }
        let books = try files.library(in: .listing).books
        return (books.filter { statuses.contains($0.status) }.map(BookRow.init), books.count)
    }

    /// Writes the listing when it is missing or out of date, under the store lock; `true` when it
    /// wrote one.
    func refreshListing(lockTimeout: Double) throws -> Bool {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        let files = try readFiles(locked: true)
        guard files.listingHeader != nil, files.listedRows() == nil else { return false }
        files.writeListing()
        return try LibraryFiles(reading: self).listedRows() != nil
    }
}
