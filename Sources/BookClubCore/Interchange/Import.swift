#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The files `bookclub import` reads.
public enum ImportFormat: String, CaseIterable, Codable, Sendable {
    /// A Goodreads library export (CSV; the 31, 24 and 23 column generations alike).
    case goodreads
    /// A StoryGraph export (CSV).
    case storygraph
    /// The document `bookclub export --format json` writes (`LibraryExport`).
    case json
    /// A Calibre library's `metadata.db`, read through `sqlite3` (`CalibreLibrary`), not as bytes.
    case calibre

    /// How messages name the format: "Goodreads", "StoryGraph", "bookclub JSON".
    public var displayName: String {
        switch self {
        case .goodreads: "Goodreads"
        case .storygraph: "StoryGraph"
        case .json: "bookclub JSON"
        case .calibre: "Calibre"
        }
    }
}

extension ImportFormat: LosslessStringConvertible {
    public init?(_ description: String) {
        self.init(rawValue: description.lowercased())
    }

    public var description: String { rawValue }
}

/// An export file, read and turned into bookclub's models, ready to be merged into a library
/// (`Library.merge(_:)`).
///
/// ```swift
/// let file = try ImportFile(data, format: .goodreads, path: "export.csv", now: now, timeZone: zone, makeID: makeID)
/// let result = library.merge(file)   // result.added, result.skipped
/// ```
///
/// Dates of a day (`2024/06/29`) become noon of that day in the reader's time zone, as a `WHEN` of
/// `2024-06-29` does. A date the file leaves empty stays unknown (`nil`), never today; only a book
/// without a date added is taken as added at the import.
public struct ImportFile: Sendable {
    /// One book of the file, and the line of the file its row starts on (none in a JSON document).
    public struct Item: Equatable, Sendable {
        public var book: Book
        public var line: Int?

        public init(book: Book, line: Int? = nil) {
            self.book = book
            self.line = line
        }
    }

    public var format: ImportFormat
    /// The books, in the file's order.
    public var items: [Item]
    /// The clubs of a JSON document; CSV exports have none.
    public var clubs: [Club]

    public init(format: ImportFormat, items: [Item], clubs: [Club] = []) {
        self.format = format
        self.items = items
        self.clubs = clubs
    }

    /// Whether a book is also matched against the books before it in the same file. The rows of an
    /// export may list a book twice; the books of a bookclub JSON document are distinct by id and are
    /// matched against the store only, so that an export imported into an empty store comes back whole.
    public var matchesWithinFile: Bool { format != .json }

    /// Reads an export file.
    ///
    /// - Parameters:
    ///   - path: names the file in errors.
    ///   - now: the date added of a book whose row has none.
    ///   - timeZone: the zone whose noon a day stands for.
    ///   - makeID: makes the id of each book of a CSV file (a JSON document's books keep theirs).
    /// - Throws: `BookClubError.badImport` (or, for JSON, `.corruptFile` and `.newerSchema`), naming the
    ///   line where there is one.
    public init(
        _ data: Data, format: ImportFormat, path: String, now: Date, timeZone: Zone, makeID: () -> Book.ID,
        ids: IDSource
    ) throws {
        switch format {
        case .goodreads, .storygraph:
            let items = try withoutActuallyEscaping(makeID) { makeID in
                let context = ImportContext(path: path, now: now, timeZone: timeZone, makeID: makeID, ids: ids)
                return try format == .goodreads
                    ? GoodreadsImporter.items(in: data, context) : StoryGraphImporter.items(in: data, context)
            }
            self.init(format: format, items: items)
        case .json:
            let document = try LibraryExport.decode(data, path: path)
            self.init(format: format, items: document.books.map { Item(book: $0) }, clubs: document.clubs)
        case .calibre:
            throw BookClubError.badImport(
                path: path, line: nil, detail: "a Calibre library is read from its folder or metadata.db, not as bytes")
        }
    }
}

extension ImportMapping {
    /// The book of a row: the rating and review on its last reading when that has ended, else on the book.
    static func book(
        id: Book.ID, title: String, author: String?, pages: Int?, isbn: String?, tags: [String], rating: Double?,
        review: String?,
        privateNotes: String?, contributors: [Contributor]?, details: [String: [String]]?, added: Date,
        status: Book.Status,
        readCount: Int, readCountKey: String, dated: [(started: Date?, ended: Date?)], ids: IDSource
    ) -> Book {
        let ended = status == .finished || status == .abandoned
        var book = Book(
            id: id, title: title, author: author, pages: pages, isbn: isbn, tags: tags, rating: ended ? nil : rating,
            review: ended ? nil : review, privateNotes: privateNotes, contributors: contributors, details: details,
            added: added,
            readings: readings(
                status, readCount: readCount, dated: dated, rating: ended ? rating : nil, review: ended ? review : nil,
                ids: ids))
        // A count the readings do not show (a book read once, back on the to-read shelf) is kept as given.
        if book.readings.count < readCount {
            book.details = (book.details ?? [:]).merging([readCountKey: [String(readCount)]]) { $1 }
        }
        return book
    }
}

/// What every importer needs beside the file.
struct ImportContext {
    var path: String
    var now: Date
    var makeID: () -> Book.ID
    /// Makes the ids of the readings.
    var ids: IDSource
    /// The reader's time zone: a day is noon of it.
    var timeZone: Zone

    init(path: String, now: Date, timeZone: Zone, makeID: @escaping () -> Book.ID, ids: IDSource) {
        (self.path, self.now, self.makeID, self.timeZone, self.ids) = (path, now, makeID, timeZone, ids)
    }
}

// MARK: - Reading a CSV export by column name

/// The columns of a CSV export, found by name, so that a column moved or added between generations
/// of an export changes nothing.
struct ImportColumns {
    private let indices: [String: Int]
    /// The header's names, trimmed, each once, in the file's order.
    let names: [String]

    /// - Throws: `badImport` naming the first required column the header lacks, and the format.
    init(
        header: [String], required: [String], format: ImportFormat, path: String,
        otherFormats: [(ImportFormat, [String])] = []
    ) throws {
        var indices: [String: Int] = [:]
        for (index, name) in header.enumerated() where indices[name.trimmed.lowercased()] == nil {
            indices[name.trimmed.lowercased()] = index
        }
        self.indices = indices
        names = header.map(\.trimmed).enumerated().filter { indices[$0.element.lowercased()] == $0.offset }.map(
            \.element)
        if let missing = required.first(where: { indices[$0.lowercased()] == nil }) {
            var detail = "not a \(format.displayName) export (no `\(missing)` column)"
            if let (other, _) = otherFormats.first(where: { $0.1.allSatisfy { indices[$0.lowercased()] != nil } }) {
                detail += "; it looks like a \(other.displayName) export: try `bookclub import \(other.rawValue) FILE`"
            }
            throw BookClubError.badImport(path: path, line: 1, detail: detail)
        }
    }

    /// Every row of a CSV export in `format`, made into items by `item`; the header is checked first,
    /// so that a file of the wrong kind is reported as that.
    static func items(
        in data: Data, _ context: ImportContext, format: ImportFormat, required: [String],
        otherFormats: [(ImportFormat, [String])], item: (ImportRow, ImportContext) throws -> ImportFile.Item
    ) throws -> [ImportFile.Item] {
        var columns: ImportColumns?
        let table = try CSVTable(parsing: data, path: context.path) { header in
            columns = try ImportColumns(
                header: header, required: required, format: format, path: context.path, otherFormats: otherFormats)
        }
        return try table.rows.map { try item(columns!.row($0, context), context) }
    }

    func row(_ row: CSVTable.Row, _ context: ImportContext) -> ImportRow {
        ImportRow(fields: row.fields, line: row.line, path: context.path, timeZone: context.timeZone, columns: self)
    }

    func index(of name: String) -> Int? { indices[name.lowercased()] }
}

/// One row of a CSV export, with its values read by column name; a value that cannot be read is an
/// error naming the line and the column.
struct ImportRow {
    let fields: [String]
    let line: Int
    let path: String
    let timeZone: Zone
    let columns: ImportColumns

    /// The value trimmed, or `nil` when the column is absent or the value empty.
    func text(_ column: String) -> String? {
        guard let index = columns.index(of: column) else { return nil }
        let value = fields[index].trimmed
        return value.isEmpty ? nil : value
    }

    /// A title or a name, with the runs of spaces some exports hold (`Michael   Lewis`) made one.
    func name(_ column: String) -> String? {
        text(column).map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }

    /// The comma-separated values of a column (shelves, tags), trimmed, without blanks or repeats.
    func list(_ column: String) -> [String] {
        var seen = Set<String>()
        return (text(column) ?? "").split(separator: ",").map { String($0).trimmed }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    func integer(_ column: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = text(column) else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw failure(
                "`\(column)` is '\(Self.shown(value))', not a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return number
    }

    func decimal(_ column: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = text(column) else { return nil }
        guard let number = Double(value), number.isFinite, range.contains(number) else {
            throw failure(
                "`\(column)` is '\(Self.shown(value))', not a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A day written `2024/06/29` (or `2024-06-29`), as noon of that day in the reader's time zone.
    func day(_ column: String) throws -> Date? {
        guard let value = text(column) else { return nil }
        return try day(value, column: column)
    }

    func day(_ value: String, column: String) throws -> Date {
        guard let date = ImportDate.parse(value, timeZone: timeZone) else {
            throw failure("`\(column)` is '\(Self.shown(value))', not a date (YYYY/MM/DD)")
        }
        return date
    }

    /// Every non-empty value of the columns an importer has no field for, as `Book.details` keeps
    /// them: by `source:Column`, an ISBN unwrapped from `="…"`.
    func details(source: ImportFormat, except mapped: Set<String>) -> [String: [String]]? {
        var details: [String: [String]] = [:]
        for name in columns.names where !mapped.contains(name.lowercased()) {
            guard var value = text(name) else { continue }
            // Goodreads guards numbers from spreadsheets as ="…".
            if value.hasPrefix("=\""), value.hasSuffix("\""), value.count >= 3 {
                value = String(value.dropFirst(2).dropLast()).trimmed
            }
            guard !value.isEmpty else { continue }
            details["\(source.rawValue):\(name)"] = [
                name.lowercased().hasPrefix("isbn") ? ISBN.cleaned(value) ?? value : value
            ]
        }
        return details.isEmpty ? nil : details
    }

    /// `Amy Wallace, Rhys Harvey (Narrator)`: each name, with the part in parentheses as its role.
    func contributors(_ column: String) -> [Contributor]? {
        let list = (text(column) ?? "").split(separator: ",").compactMap { item -> Contributor? in
            let words = item.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !words.isEmpty else { return nil }
            if let open = words.lastIndex(of: "("), words.hasSuffix(")") {
                let role = String(words[words.index(after: open)..<words.index(before: words.endIndex)]).trimmed
                let name = String(words[..<open]).trimmed
                if !name.isEmpty && !role.isEmpty { return Contributor(name: name, role: role) }
            }
            return Contributor(name: words)
        }
        return list.isEmpty ? nil : list
    }

    /// A value as an error message quotes it: cut short when it is long.
    static func shown(_ value: String) -> String {
        value.count > 40 ? value.prefix(40) + "…" : value
    }

    func failure(_ detail: String) -> BookClubError {
        .badImport(path: path, line: line, detail: detail)
    }
}

enum ImportDate {
    /// `2024/06/29` or `2024-06-29` as noon of that day in `timeZone`, as a `WHEN` of `2024-06-29`
    /// is; `nil` when it is not a day.
    static func parse(_ text: String, timeZone: Zone) -> Date? {
        let trimmed = text.trimmed
        let slashed = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        let parts = slashed.count == 3 ? slashed : trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts.dropFirst().allSatisfy({ (1...2).contains($0.count) }),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...9999).contains(year)
        else { return nil }
        let noon = LocalDateTime(year: year, month: month, day: day, hour: 12)
        return noon.isValid ? timeZone.date(from: noon) : nil  // refuses 2026/02/30
    }
}

// MARK: - Shelves

enum ImportMapping {
    /// The format a Goodreads `Binding` or a StoryGraph `Format` names (`Audible Audio`, `Kindle
    /// Edition`, `audio`, `digital`, `paperback`); `nil` for one that names none (the column is kept in
    /// `details` as it is).
    static func format(_ text: String?) -> Book.Format? {
        guard let text = text?.lowercased().trimmed, !text.isEmpty else { return nil }
        if ["audio", "audiobook", "mp3"].contains(where: text.contains(word:)) { return .audiobook }
        if ["kindle", "ebook", "e-book", "digital", "nook", "kobo", "epub"].contains(where: text.contains(word:)) {
            return .ebook
        }
        if ["paperback", "hardcover", "hardback", "print", "board book", "library binding", "spiral"].contains(
            where: text.contains(word:))
        {
            return .print
        }
        return nil
    }

    /// Whether a shelf's name says the book was not finished: `did-not-finish`, `dnf`, `DNF 2020`,
    /// `wont-finish`, `abandoned`, `gave-up`, ... (but not `want-to-finish-eventually`).
    static func meansDidNotFinish(_ name: String) -> Bool {
        let words = name.lowercased().split { !$0.isLetter && !$0.isNumber }
        let joined = words.joined()
        return words.contains("dnf")
            || [
                "didnotfinish", "didntfinish", "wontfinish", "willnotfinish", "notfinished", "unfinished",
                "neverfinished",
                "couldnotfinish", "couldntfinish", "abandoned", "gaveup", "stoppedreading",
            ].contains(joined)
    }

    /// The readings of an imported book, oldest first, whose status is `status`.
    ///
    /// - Parameters:
    ///   - readCount: how many times the export says the book was read; earlier readings than the
    ///     dated ones are finished on unknown dates.
    ///   - dated: the read-throughs the export gives dates for, oldest first (`nil`: unknown); the last
    ///     is the current one, which ends as `status` says.
    /// A rating and a review belong to a reading: the last one, when it has ended.
    static func readings(
        _ status: Book.Status, readCount: Int, dated: [(started: Date?, ended: Date?)], rating: Double? = nil,
        review: String? = nil, ids: IDSource
    ) -> [Reading] {
        guard status != .unstarted else { return [] }
        let dated = dated.isEmpty ? [(started: nil, ended: nil)] : dated
        let earlier = max(readCount - dated.count, 0)
        var readings = (0..<earlier).map { _ in
            Reading(id: ids.uuid(), started: nil, ending: Ending(outcome: .finished, date: nil))
        }
        for (index, reading) in dated.enumerated() {
            let outcome: Ending.Outcome?
            switch index == dated.count - 1 ? status : .finished {
            case .finished: outcome = .finished
            case .abandoned: outcome = .abandoned
            case .reading, .unstarted: outcome = nil
            }
            let last = index == dated.count - 1
            readings.append(
                Reading(
                    id: ids.uuid(), started: reading.started,
                    ending: outcome.map {
                        Ending(
                            outcome: $0, date: reading.ended, rating: last ? rating : nil, review: last ? review : nil)
                    }))
        }
        return readings
    }
}
