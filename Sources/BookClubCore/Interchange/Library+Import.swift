#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What merging an import into a library did.
public struct ImportResult: Equatable, Sendable {
    /// Why a book of the file was taken for one already there.
    public enum MatchReason: String, Codable, Sendable {
        /// The same book id (a bookclub JSON document).
        case id
        /// The same ISBN (an ISBN-10 matches its ISBN-13).
        case isbn
        /// The same id in the export's own service (Goodreads' `Book Id`).
        case externalID
        /// The same title and author, ignoring case and runs of spaces, when either has no ISBN.
        case titleAndAuthor
    }

    /// A book of the file that matched one already there, and what it brought to it.
    public struct Merged: Equatable, Sendable {
        public var item: ImportFile.Item
        /// The book it matched, as it was before this row was merged into it.
        public var match: Book
        /// Whether `match` was in the store before the import.
        public var matchIsInStore: Bool
        /// The line of the earlier row `match` came from, when it came from the file.
        public var matchLine: Int?
        public var reason: MatchReason
        /// Readings of the row that the book did not have (a re-read, a range of dates).
        public var newReadings: Int = 0
        /// The fields the book had empty and the row filled (`rating`, `pages`, `readings[1].started`).
        public var filled: [String] = []
        /// The row's values that differ from the book's, kept in its `details` rather than lost.
        public var keptAside: [String] = []

        /// Whether the row brought anything.
        public var changedTheBook: Bool { newReadings > 0 || !filled.isEmpty || !keptAside.isEmpty }
    }

    /// The books added, in the file's order.
    public var added: [ImportFile.Item] = []
    /// The books merged into one already there, in the file's order.
    public var merged: [Merged] = []
    public var addedClubs: [Club] = []
    /// Clubs of a JSON document whose id or name a club in the store already has.
    public var skippedClubs: [Club] = []
}

extension Library {
    /// Merges an export file into the library, as one change: a row that matches a book already
    /// there (in the store, or from an earlier row of the same file) is merged into it; any other
    /// is added. Importing the same file twice changes nothing the second time.
    ///
    /// A row matches a book with its id (JSON documents), else its ISBN, else its id in the
    /// export's service (Goodreads' `Book Id`), else its title and author when either has no ISBN.
    /// Merging never throws a value away (see `BookMerge`).
    ///
    /// A club is already there when one has its id or name; the meetings of an added club that
    /// discussed a merged book discuss the book it merged into.
    public mutating func merge(_ file: ImportFile) -> ImportResult {
        var matcher = BookMatcher()
        for (index, book) in books.enumerated() { matcher.insert(book, at: index, line: nil, inStore: true) }
        var result = ImportResult()
        var matchedIDs: [Book.ID: Book.ID] = [:]
        for item in file.items {
            if let (candidate, reason) = matcher.match(item.book) {
                var merge = BookMerge(book: books[candidate.index], source: file.format)
                merge.take(item.book)
                var merged = ImportResult.Merged(
                    item: item, match: books[candidate.index], matchIsInStore: candidate.inStore,
                    matchLine: candidate.line, reason: reason)
                (merged.newReadings, merged.filled, merged.keptAside) = (
                    merge.newReadings, merge.filled, merge.keptAside
                )
                books[candidate.index] = merge.book
                matcher.insert(merge.book, at: candidate.index, line: candidate.line, inStore: candidate.inStore)
                result.merged.append(merged)
                matchedIDs[item.book.id] = merge.book.id
                continue
            }
            books.append(item.book)
            result.added.append(item)
            if file.matchesWithinFile {
                matcher.insert(item.book, at: books.count - 1, line: item.line, inStore: false)
            }
        }
        for var club in file.clubs {
            if clubIndex(of: club.id) != nil || self.club(named: club.name) != nil {
                result.skippedClubs.append(club)
                continue
            }
            for (merged, into) in matchedIDs where merged != into { club.replace(bookID: merged, with: into) }
            clubs.append(club)
            result.addedClubs.append(club)
        }
        return result
    }
}

/// One row merged into a book: what the book lacks is filled, what the row adds (a reading, a tag,
/// a contributor) is added, and a value that differs from the book's is kept in `details` under
/// the export's column name, so that every value of every row can be found in the library after.
///
/// What wins where: the book's own values stay; a reading of the row matches one of the book's
/// with the same end day (or, undated, one the book has with that outcome and no date, which it
/// then dates), else it is a reading of its own; a rating and a review go with their reading.
struct BookMerge {
    var book: Book
    let source: ImportFormat
    var newReadings = 0
    var filled: [String] = []
    var keptAside: [String] = []

    init(book: Book, source: ImportFormat) {
        self.book = book
        self.source = source
    }

    mutating func take(_ row: Book) {
        if row.title != book.title {
            keep(row.title, under: "\(source.rawValue):\(column("Title", calibre: "title"))", as: "title")
        }
        fill(\.author, row.author, "author", column: column("Author", storygraph: "Authors", calibre: "authors"))
        fill(\.pages, row.pages, "pages", column: column("Number of Pages", calibre: "pages"))
        fill(\.isbn, row.isbn, "isbn", column: column("ISBN13", storygraph: "ISBN/UID", calibre: "isbn"))
        fill(\.coverName, row.coverName, "coverName", column: "Cover")
        // A format another row or file says otherwise is in its details as the column was written.
        if book.format == nil, let format = row.format {
            book.format = format
            note("format", in: &filled)
        }
        fill(\.rating, row.rating, "rating", column: column("My Rating", storygraph: "Star Rating", calibre: "rating"))
        fill(\.review, row.review, "review", column: column("My Review", storygraph: "Review", calibre: "review"))
        fill(\.privateNotes, row.privateNotes, "privateNotes", column: "Private Notes")
        let tags = Set(book.tags.map { $0.lowercased() })
        let newTags = row.tags.filter { !tags.contains($0.lowercased()) }
        if !newTags.isEmpty {
            book.tags += newTags
            note("tags", in: &filled)
        }
        for contributor in row.contributors ?? []
        where !(book.contributors ?? []).contains(where: {
            $0.name.lowercased() == contributor.name.lowercased()
                && ($0.role == contributor.role || contributor.role == nil)
        }) {
            book.contributors = (book.contributors ?? []) + [contributor]
            note("contributors", in: &filled)
        }
        for (key, values) in (row.details ?? [:]).sorted(by: { $0.key < $1.key }) {
            for value in values { keep(value, under: key, as: key) }
        }
        if row.added != book.added {
            keep(
                row.added.ISO8601Format(), under: "\(source.rawValue):\(column("Date Added", calibre: "timestamp"))",
                as: "added")
        }
        var used = Set<UUID>()
        for reading in row.readings { take(reading, used: &used) }
        // Readings in the order they happened: ended ones by their end (unknown first), the one going on last.
        book.readings = book.readings.enumerated().sorted { a, b in
            let (ka, kb) = (Self.order(a.element), Self.order(b.element))
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    private static func order(_ reading: Reading) -> Double {
        guard let ending = reading.ending else { return .infinity }
        return (ending.date ?? reading.started)?.timeIntervalSince1970 ?? -.infinity
    }

    private mutating func take(_ reading: Reading, used: inout Set<UUID>) {
        let candidates = book.readings.indices.filter { !used.contains(book.readings[$0].id) }
        let sameDay = { (a: Date?, b: Date?) -> Bool in
            guard let a, let b else { return false }
            return abs(a.timeIntervalSince(b)) < 43_200
        }
        let match =
            candidates.first { book.readings[$0].id == reading.id }
            ?? {
                guard let ending = reading.ending else {
                    return candidates.first { book.readings[$0].ending == nil }
                        ?? candidates.first { sameDay(book.readings[$0].started, reading.started) }
                }
                if let date = ending.date {
                    return candidates.first { sameDay(book.readings[$0].ending?.date, date) }
                        ?? candidates.first {
                            book.readings[$0].ending?.outcome == ending.outcome && book.readings[$0].ending?.date == nil
                        }
                }
                return candidates.first { book.readings[$0].ending?.outcome == ending.outcome }
            }()
        guard let index = match else {
            book.readings.append(reading)
            used.insert(reading.id)
            newReadings += 1
            return
        }
        used.insert(book.readings[index].id)
        let at = "readings[\(index)]"
        fillReading(index, \.started, reading.started, at + ".started", column: "Date Started")
        guard let ending = reading.ending, book.readings[index].ending != nil else { return }
        fillReading(
            index, \.ending!.date, ending.date, at + ".ended",
            column: column("Date Read", storygraph: "Dates Read", calibre: "date_read"))
        fillReading(index, \.ending!.note, ending.note, at + ".endNote", column: "Note")
        fillReading(
            index, \.ending!.rating, ending.rating, at + ".rating",
            column: column("My Rating", storygraph: "Star Rating", calibre: "rating"))
        fillReading(
            index, \.ending!.review, ending.review, at + ".review",
            column: column("My Review", storygraph: "Review", calibre: "review"))
    }

    private mutating func fill<Value: Equatable & CustomStringConvertible>(
        _ path: WritableKeyPath<Book, Value?>, _ value: Value?, _ name: String, column: String
    ) {
        guard let value else { return }
        if book[keyPath: path] == nil {
            book[keyPath: path] = value
            note(name, in: &filled)
        } else if book[keyPath: path] != value {
            keep(Self.text(value), under: "\(source.rawValue):\(column)", as: name)
        }
    }

    private mutating func fillReading<Value: Equatable & CustomStringConvertible>(
        _ index: Int, _ path: WritableKeyPath<Reading, Value?>, _ value: Value?, _ name: String, column: String
    ) {
        guard let value else { return }
        if book.readings[index][keyPath: path] == nil {
            book.readings[index][keyPath: path] = value
            note(name, in: &filled)
        } else if book.readings[index][keyPath: path] != value {
            keep(Self.text(value), under: "\(source.rawValue):\(column)", as: name)
        }
    }

    /// A value kept in `details`, once.
    private mutating func keep(_ value: String, under key: String, as name: String) {
        var details = book.details ?? [:]
        guard !(details[key] ?? []).contains(value) else { return }
        details[key, default: []].append(value)
        book.details = details
        note(name, in: &keptAside)
    }

    /// The name of a column in the export of `source`: Goodreads' unless StoryGraph's or Calibre's
    /// (`storygraph:Star Rating`, `calibre:rating`) differs.
    private func column(_ goodreads: String, storygraph: String? = nil, calibre: String? = nil) -> String {
        switch source {
        case .storygraph: storygraph ?? goodreads
        case .calibre: calibre ?? goodreads
        case .goodreads, .json: goodreads
        }
    }

    private func note(_ name: String, in names: inout [String]) {
        if !names.contains(name) { names.append(name) }
    }

    private static func text(_ value: some CustomStringConvertible) -> String {
        if let date = value as? Date { return date.ISO8601Format() }
        if let number = value as? Double { return NumberText.short(number, decimals: 6) }
        return value.description
    }
}

/// The books an import is matched against, indexed by id, ISBN, external id and title and author.
struct BookMatcher {
    struct Candidate {
        /// Where the book is in the library.
        var index: Int
        var line: Int?
        var inStore: Bool
        var isbnKey: String?
    }

    private var byID: [Book.ID: Candidate] = [:]
    private var byISBN: [String: Candidate] = [:]
    private var byExternalID: [String: Candidate] = [:]
    private var byTitle: [String: [Candidate]] = [:]

    static func titleKey(_ book: Book) -> String {
        func normal(_ text: String) -> String {
            let lowered = text.lowercased()
            // ASCII, where a character is a byte: its runs of white space made one space by bytes.
            if lowered.utf8.allSatisfy({ $0 < 0x80 }) {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(lowered.utf8.count)
                var space = false
                for byte in lowered.utf8 {
                    if byte == 0x20 || (0x09...0x0D).contains(byte) {
                        space = !bytes.isEmpty
                    } else {
                        if space { bytes.append(0x20) }
                        space = false
                        bytes.append(byte)
                    }
                }
                return String(decoding: bytes, as: UTF8.self)
            }
            return lowered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        return normal(book.title) + "\n" + normal(book.author ?? "")
    }

    /// The ids of other services a book carries in its details: `goodreads:Book Id=123`, Calibre's
    /// uuid of the book, KOReader's checksum of the file, and Kobo's id of the book.
    static func externalIDs(_ book: Book) -> [String] {
        [
            "goodreads:Book Id", CalibreLibrary.uuidKey, ReaderImport.externalIDKey(.koreader),
            ReaderImport.externalIDKey(.kobo),
        ]
        .flatMap { key in
            (book.details?[key] ?? []).map { key + "=" + $0 }
        }
    }

    /// Every ISBN a book is known by: its own, and those of rows merged into it.
    static func isbnKeys(_ book: Book) -> [String] {
        let kept = (book.details ?? [:]).lazy.filter { $0.key.lowercased().contains(word: "isbn") }.flatMap(\.value)
        return ([book.isbn].compactMap { $0 } + kept).compactMap(ISBN.matchKey)
    }

    /// Adds a book, or indexes it again under what a merge taught (an earlier entry keeps its place).
    mutating func insert(_ book: Book, at index: Int, line: Int?, inStore: Bool) {
        let candidate = Candidate(index: index, line: line, inStore: inStore, isbnKey: book.isbn.flatMap(ISBN.matchKey))
        if byID[book.id] == nil { byID[book.id] = candidate }
        for key in Self.isbnKeys(book) where byISBN[key] == nil { byISBN[key] = candidate }
        for key in Self.externalIDs(book) where byExternalID[key] == nil { byExternalID[key] = candidate }
        let title = Self.titleKey(book)
        if !(byTitle[title] ?? []).contains(where: { $0.index == index }) {
            byTitle[title, default: []].append(candidate)
        }
    }

    /// The first book `book` matches, and why.
    func match(_ book: Book) -> (Candidate, ImportResult.MatchReason)? {
        if let candidate = byID[book.id] { return (candidate, .id) }
        let isbnKey = book.isbn.flatMap(ISBN.matchKey)
        if let isbnKey, let candidate = byISBN[isbnKey] { return (candidate, .isbn) }
        if let candidate = Self.externalIDs(book).lazy.compactMap({ byExternalID[$0] }).first {
            return (candidate, .externalID)
        }
        if let candidate = (byTitle[Self.titleKey(book)] ?? []).first(where: { isbnKey == nil || $0.isbnKey == nil }) {
            return (candidate, .titleAndAuthor)
        }
        return nil
    }
}
