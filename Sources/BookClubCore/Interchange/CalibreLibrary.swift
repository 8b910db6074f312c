#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Calibre library, read from its `metadata.db` through `SQLiteFile` (the `sqlite3` program).
///
/// ```swift
/// let calibre = try CalibreLibrary("/home/me/Calibre Library", shownAs: "~/Calibre Library", …)
/// let file = try calibre.importFile(readColumn: "read", dateReadColumn: nil, now: now, makeID: makeID, ids: ids)
/// ```
///
/// Calibre's `meta` view calls SQL functions only Calibre defines, so the base tables and their link
/// tables are read, each column named:
/// - the title; the authors in the order of `books_authors_link` (the first is the author, the
///   others contributors; Calibre's `|` in a name is its comma); the tags;
/// - the identifiers: a valid `isbn` is the book's ISBN, and every other is kept in `details` under
///   `calibre:identifiers` as Calibre writes them (`amazon:B00…`);
/// - the series and its index (`calibre:series`, `calibre:series_index`: `0.5`), the publisher, the
///   publication day (not Calibre's empty `0101-01-01`), the comments (the book's description, as
///   HTML) and Calibre's uuid of the book (by which a second import finds it again), in `details`;
/// - the rating, 0 to 10 in Calibre, as 0 to 5 stars (9 is four and a half; 0 is unrated);
/// - the date added (`timestamp`).
///
/// Calibre keeps no reading status: every book is not started, unless the reader names a yes/no
/// custom column that says it was read, or a date column of the day it was (either makes a finished
/// reading, dated when the date column has a value).
public struct CalibreLibrary {
    /// A custom column of the library, as `custom_columns` describes it.
    public struct Column: Equatable, Sendable {
        /// Calibre's number of the column: its values are in `custom_column_<id>`.
        public var id: Int
        /// The lookup name without its `#`: `read`.
        public var label: String
        /// The heading Calibre shows: `Read`.
        public var name: String
        /// `bool`, `datetime`, `text`, `int`, `float`, `rating`, `series`, `enumeration`, `comments`, ...
        public var datatype: String
        /// Whether the values are in a table of their own, linked to books through
        /// `books_custom_column_<id>_link`; a yes/no or date column never is.
        public var normalized: Bool
    }

    /// The database, read through `sqlite3`.
    let database: SQLiteFile

    /// What every Calibre library's database has; a file without them is not one.
    static let requiredColumns: [String: [String]] = [
        "books": ["id", "title", "timestamp", "pubdate", "series_index", "isbn", "uuid"],
        "authors": ["id", "name"],
        "books_authors_link": ["id", "book", "author"],
    ]

    /// The database of a library: `metadata.db` in the folder, or the file itself.
    ///
    /// - Parameters:
    ///   - path: an absolute path, to the library's folder or its `metadata.db`.
    ///   - shown: the path as the reader gave it, for messages.
    ///   - scratch: a folder that is not there yet, for a copy of a database that has a `-wal` file.
    /// - Throws: `.unavailable` without `sqlite3`; `.badImport` for a folder without `metadata.db` or
    ///   a file that is not a SQLite database; `.io` for a path that cannot be read.
    public init(
        _ path: String, shownAs shown: String, fileSystem: FileSystem, runner: ProgramRunner,
        environment: [String: String], scratch: String
    ) throws {
        var (path, shown) = (path, shown)
        if fileSystem.kind(path) == .folder {
            let database = path + "/metadata.db"
            shown += (shown.hasSuffix("/") ? "" : "/") + "metadata.db"
            guard fileSystem.kind(database) == nil, try fileSystem.size(database) != nil else {
                throw BookClubError.badImport(
                    path: shown, line: nil, detail: "no such file: a Calibre library's folder holds metadata.db")
            }
            path = database
        }
        database = try SQLiteFile(
            path, shownAs: shown, what: "a Calibre library", fileSystem: fileSystem, runner: runner,
            environment: environment, scratch: scratch)
    }

    /// The tables of the database, each with its columns.
    func schema() throws -> [String: Set<String>] {
        struct Row: Decodable {
            var table: String
            var column: String
        }
        let rows: [Row] = try database.rows(
            """
            SELECT CAST(m.name AS TEXT) AS "table", CAST(p.name AS TEXT) AS "column" \
            FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table'
            """)
        var schema: [String: Set<String>] = [:]
        for row in rows { schema[row.table.lowercased(), default: []].insert(row.column.lowercased()) }
        for (table, columns) in Self.requiredColumns.sorted(by: { $0.key < $1.key }) {
            guard let present = schema[table] else { throw failure("not a Calibre library (no `\(table)` table)") }
            if let missing = columns.first(where: { !present.contains($0) }) {
                throw failure("not a Calibre library (`\(table)` has no `\(missing)` column)")
            }
        }
        return schema
    }

    /// The custom columns of the library, in Calibre's order (none when it has no `custom_columns`).
    public func columns() throws -> [Column] {
        try columns(in: schema())
    }

    func columns(in schema: [String: Set<String>]) throws -> [Column] {
        struct Row: Decodable {
            var id: Int?
            var label: String?
            var name: String?
            var datatype: String?
            var normalized: Int?
        }
        guard let present = schema["custom_columns"], ["id", "label", "name", "datatype"].allSatisfy(present.contains)
        else { return [] }
        let normalized = present.contains("normalized") ? "CAST(normalized AS INTEGER)" : "0"
        let rows: [Row] = try database.rows(
            """
            SELECT CAST(id AS INTEGER) AS id, CAST(label AS TEXT) AS label, CAST(name AS TEXT) AS name, \
            CAST(datatype AS TEXT) AS datatype, \(normalized) AS normalized FROM custom_columns ORDER BY id
            """)
        return rows.compactMap { row in
            guard let id = row.id, let label = row.label?.nonBlank else { return nil }
            return Column(
                id: id, label: label, name: row.name ?? label, datatype: (row.datatype ?? "").lowercased(),
                normalized: (row.normalized ?? 0) != 0)
        }
    }

    /// Every book of the library, ready to be merged into a library (`Library.merge(_:)`).
    ///
    /// - Parameters:
    ///   - readColumn: the label of a yes/no custom column (`read` or `#read`) whose yes finishes a book.
    ///   - dateReadColumn: the label of a date custom column: the day a book was finished.
    ///   - now: the date added of a book that has none.
    ///   - makeID: makes the id of each book.
    /// - Throws: `.badImport` for a database bookclub cannot read or a value out of bounds (naming the
    ///   book); `.noCustomColumn` for a label the library does not have, or of the wrong kind.
    public func importFile(
        readColumn: String?, dateReadColumn: String?, now: Date, makeID: () -> Book.ID, ids: IDSource
    ) throws -> ImportFile {
        let schema = try schema()
        let columns = try columns(in: schema)
        let read = try readColumn.map { try column($0, of: "bool", in: columns) }
        let dateRead = try dateReadColumn.map { try column($0, of: "datetime", in: columns) }
        let readValues = try read.map { try values(of: $0, in: schema) } ?? [:]
        let dateValues = try dateRead.map { try values(of: $0, in: schema) } ?? [:]
        let facts = try self.facts(in: schema)
        return ImportFile(
            format: .calibre,
            items: try rows().map { row in
                let finished: Date??
                let date = try dateValues[row.id]?.text.flatMap {
                    try self.date($0, book: row, field: "#\(dateRead!.label)")
                }
                if read != nil {
                    finished = (readValues[row.id]?.number ?? 0) != 0 ? .some(date) : nil
                } else {
                    finished = dateRead != nil && date != nil ? .some(date) : nil
                }
                return ImportFile.Item(
                    book: try book(row, facts[row.id] ?? [], finished: finished, now: now, makeID: makeID, ids: ids))
            })
    }

    // MARK: - Rows

    struct BookRow: Decodable {
        var id: Int
        var title: String?
        var timestamp: String?
        var pubdate: String?
        var seriesIndex: Double?
        var isbn: String?
        var uuid: String?
    }

    /// One value linked to a book: an author, an identifier, a tag, the series, the publisher, the
    /// rating or the comments.
    struct Fact: Decodable {
        var kind: String
        var book: Int
        var name: String?
        var value: String?
        var number: Double?
    }

    /// A custom column's value for a book.
    struct Value: Decodable {
        var book: Int
        var text: String?
        var number: Double?
    }

    func rows() throws -> [BookRow] {
        try database.rows(
            """
            SELECT CAST(id AS INTEGER) AS id, CAST(title AS TEXT) AS title, CAST(timestamp AS TEXT) AS timestamp, \
            CAST(pubdate AS TEXT) AS pubdate, CAST(series_index AS REAL) AS seriesIndex, \
            CAST(isbn AS TEXT) AS isbn, CAST(uuid AS TEXT) AS uuid FROM books ORDER BY id
            """)
    }

    /// The link tables a book's values come from: the table of values, its column, the link table
    /// and the link's column that names the value.
    static let links: [(kind: String, table: String, column: String, link: String, key: String)] = [
        ("author", "authors", "name", "books_authors_link", "author"),
        ("tag", "tags", "name", "books_tags_link", "tag"),
        ("series", "series", "name", "books_series_link", "series"),
        ("publisher", "publishers", "name", "books_publishers_link", "publisher"),
        ("rating", "ratings", "rating", "books_ratings_link", "rating"),
    ]

    /// Every value linked to each book, in the order of the links (an author's place among the
    /// authors), from the tables the database has.
    func facts(in schema: [String: Set<String>]) throws -> [Int: [Fact]] {
        func has(_ table: String, _ columns: String...) -> Bool {
            schema[table].map { present in columns.allSatisfy(present.contains) } ?? false
        }
        var parts: [String] = []
        for link in Self.links where has(link.table, "id", link.column) && has(link.link, "id", "book", link.key) {
            let value =
                link.kind == "rating"
                ? "NULL AS name, CAST(v.\(link.column) AS REAL) AS number"
                : "CAST(v.\(link.column) AS TEXT) AS name, NULL AS number"
            parts.append(
                """
                SELECT '\(link.kind)' AS kind, CAST(l.book AS INTEGER) AS book, \(value), NULL AS value, \
                l.id AS position FROM \(link.link) AS l JOIN \(link.table) AS v ON v.id = l.\(link.key)
                """)
        }
        if has("identifiers", "id", "book", "type", "val") {
            parts.append(
                """
                SELECT 'identifier' AS kind, CAST(book AS INTEGER) AS book, CAST(type AS TEXT) AS name, NULL AS number, \
                CAST(val AS TEXT) AS value, id AS position FROM identifiers
                """)
        }
        if has("comments", "id", "book", "text") {
            parts.append(
                """
                SELECT 'comments' AS kind, CAST(book AS INTEGER) AS book, NULL AS name, NULL AS number, \
                CAST(text AS TEXT) AS value, id AS position FROM comments
                """)
        }
        let query =
            "SELECT kind, book, name, value, number FROM ("
            + parts.joined(separator: " UNION ALL ") + ") WHERE book IS NOT NULL ORDER BY book, kind, position"
        let facts: [Fact] = try database.rows(query)
        return Dictionary(grouping: facts, by: \.book)
    }

    /// The custom column of `label` (with or without its `#`), which must be of `datatype`.
    func column(_ label: String, of datatype: String, in columns: [Column]) throws -> Column {
        let bare = label.hasPrefix("#") ? String(label.dropFirst()) : label
        guard let column = columns.first(where: { $0.label.lowercased() == bare.lowercased() }) else {
            throw BookClubError.noCustomColumn(
                library: database.shown, label: "#" + bare, problem: nil, known: columns.map { "#" + $0.label })
        }
        guard column.datatype == datatype, !column.normalized else {
            let kind = datatype == "bool" ? "a yes/no column" : "a date column"
            throw BookClubError.noCustomColumn(
                library: database.shown, label: "#" + column.label,
                problem: "it is a \(column.datatype.isEmpty ? "?" : column.datatype) column, not \(kind)",
                known: columns.map { "#" + $0.label })
        }
        return column
    }

    /// A yes/no or date column's values, by book: Calibre keeps them in `custom_column_<id>`, a row a
    /// book (`book`, `value`), with no row for a book that has no value.
    func values(of column: Column, in schema: [String: Set<String>]) throws -> [Int: Value] {
        let table = "custom_column_\(column.id)"
        guard let present = schema[table], present.contains("book"), present.contains("value") else {
            throw failure("its custom column #\(column.label) has no table `\(table)` of books and values")
        }
        let value =
            column.datatype == "bool"
            ? "NULL AS text, CAST(value AS REAL) AS number" : "CAST(value AS TEXT) AS text, NULL AS number"
        let rows: [Value] = try database.rows(
            "SELECT CAST(book AS INTEGER) AS book, \(value) FROM \(table) WHERE book IS NOT NULL ORDER BY id")
        return Dictionary(rows.map { ($0.book, $0) }) { first, _ in first }
    }

    // MARK: - A book

    /// The most a series index may be: far beyond any series, and still written as a number.
    static let largestSeriesIndex = 1e9

    func book(
        _ row: BookRow, _ facts: [Fact], finished: Date??, now: Date, makeID: () -> Book.ID, ids: IDSource
    ) throws -> Book {
        guard let title = row.title.map(Self.name), !title.isEmpty else {
            throw failure("book \(row.id) has no title")
        }
        func named(_ kind: String) -> [String] {
            var seen = Set<String>()
            return facts.filter { $0.kind == kind }.compactMap { $0.name.map(Self.name) }
                .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
        }
        let authors = named("author").map { $0.replacing("|", with: ",") }
        var details: [String: [String]] = [:]
        var isbn: String?
        for fact in facts where fact.kind == "identifier" {
            guard let type = fact.name?.trimmed.nonBlank, let value = fact.value?.trimmed.nonBlank else { continue }
            if isbn == nil, type.lowercased() == "isbn", let valid = ISBN.cleaned(value) {
                isbn = valid
                continue
            }
            details["calibre:identifiers", default: []].append(type + ":" + value)
        }
        if let legacy = row.isbn?.trimmed.nonBlank {
            if isbn == nil, let valid = ISBN.cleaned(legacy) {
                isbn = valid
            } else if ISBN.cleaned(legacy) != isbn {
                details["calibre:isbn"] = [legacy]
            }
        }
        if let series = named("series").first {
            details["calibre:series"] = [series]
            let index = row.seriesIndex ?? 1
            guard index.isFinite, abs(index) <= Self.largestSeriesIndex else {
                throw failure(
                    "book \(row.id) ('\(ImportRow.shown(title))'): `series_index` is not a number of a series")
            }
            details["calibre:series_index"] = [NumberText.short(index, decimals: 6)]
        }
        if let publisher = named("publisher").first { details["calibre:publisher"] = [publisher] }
        if let published = try row.pubdate.flatMap({ try date($0, book: row, field: "pubdate") }) {
            details["calibre:pubdate"] = [String(published.ISO8601Format().prefix(10))]
        }
        if let comments = facts.first(where: { $0.kind == "comments" })?.value?.trimmed.nonBlank {
            details["calibre:comments"] = [comments]
        }
        if let uuid = row.uuid?.trimmed.nonBlank { details[Self.uuidKey] = [uuid] }
        var rating: Double?
        if let stored = facts.first(where: { $0.kind == "rating" })?.number {
            guard stored.isFinite, (0...10).contains(stored) else {
                throw failure(
                    "book \(row.id) ('\(ImportRow.shown(title))'): its rating is \(NumberText.short(stored)), not 0 to 10"
                )
            }
            // Half stars: Calibre's 9 is four and a half.
            let stars = stored.rounded() / 2
            rating = stars > 0 ? stars : nil
        }
        let added = try row.timestamp.flatMap { try date($0, book: row, field: "timestamp") } ?? now
        return ImportMapping.book(
            id: makeID(), title: title, author: authors.first, pages: nil, isbn: isbn, tags: named("tag"),
            rating: rating, review: nil, privateNotes: nil,
            contributors: authors.count > 1 ? authors.dropFirst().map { Contributor(name: $0) } : nil,
            details: details.isEmpty ? nil : details, added: added, status: finished == nil ? .unstarted : .finished,
            readCount: 0, readCountKey: "calibre:read_count", dated: [(started: nil, ended: finished ?? nil)],
            ids: ids)
    }

    /// The key of `details` that keeps Calibre's uuid of a book, by which a second import finds it.
    public static let uuidKey = "calibre:uuid"

    /// A title or a name with its runs of white space made one space.
    static func name(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A time as Calibre writes it (`2023-12-27 20:21:42.893813+00:00`, or with a `T`), whole seconds;
    /// `nil` for none: empty, or Calibre's empty date (the year 101).
    func date(_ text: String, book row: BookRow, field: String) throws -> Date? {
        let text = text.trimmed
        guard !text.isEmpty, !text.hasPrefix("0101-01-01") else { return nil }
        guard let date = Self.time(text) else {
            throw failure(
                "book \(row.id) ('\(ImportRow.shown(row.title ?? ""))'): `\(field)` is '\(ImportRow.shown(text))', not a time"
            )
        }
        return date
    }

    /// `YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][Z|±HH:MM]`; a time without a zone is UTC, as Calibre
    /// stores every time.
    static func time(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ (0x30...0x39).contains(bytes[$0]) }) else {
                return nil
            }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        }
        guard let year = number(0..<4), bytes.count >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
            let month = number(5..<7), let day = number(8..<10), year >= 1
        else { return nil }
        var local = LocalDateTime(year: year, month: month, day: day)
        var at = 10
        if at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x54 {
            guard let hour = number(at + 1..<at + 3), at + 3 < bytes.count, bytes[at + 3] == 0x3A,
                let minute = number(at + 4..<at + 6), hour < 24, minute < 60
            else { return nil }
            (local.hour, local.minute) = (hour, minute)
            at += 6
            if at < bytes.count, bytes[at] == 0x3A {
                guard let second = number(at + 1..<at + 3), second < 61 else { return nil }
                local.second = min(second, 59)
                at += 3
                if at < bytes.count, bytes[at] == 0x2E {
                    at += 1
                    while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
                }
            }
        }
        var offset = 0
        if at < bytes.count {
            if bytes[at] == 0x5A, at + 1 == bytes.count {
                at += 1
            } else if bytes[at] == 0x2B || bytes[at] == 0x2D, let hours = number(at + 1..<at + 3), hours < 24 {
                let sign = bytes[at] == 0x2D ? -1 : 1
                var minutes = 0
                if at + 3 < bytes.count {
                    guard bytes[at + 3] == 0x3A, let value = number(at + 4..<at + 6), value < 60 else { return nil }
                    minutes = value
                    at += 3
                }
                offset = (hours * 3600 + minutes * 60) * sign
                at += 3
            } else {
                return nil
            }
        }
        guard at == bytes.count, local.isValid else { return nil }
        return Zone(name: "", fixedOffset: offset).date(from: local)
    }

    func failure(_ detail: String) -> BookClubError {
        .badImport(path: database.shown, line: nil, detail: detail)
    }
}
