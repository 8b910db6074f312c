#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The document `export --format json` writes and `import json` reads: every book with every reading
/// and every progress entry, and every club. Nothing the store holds is left out, so an export
/// imported into an empty store and exported again gives the same document.
public struct LibraryExport: Codable, Equatable, Sendable {
    /// Names the document, so that an import can tell it from any other JSON.
    public static let formatName = "bookclub-export"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var books: [Book]
    public var clubs: [Club]

    /// - Parameter library: a library whose books' full histories are loaded.
    public init(_ library: Library) {
        format = Self.formatName
        version = Self.currentVersion
        books = library.books
        clubs = library.clubs
    }

    public var library: Library { Library(books: books, clubs: clubs) }

    /// The document in `data`, checked as the store's own file is; `path` names it in errors.
    public static func decode(_ data: Data, path: String) throws -> LibraryExport {
        var document = try JSONCoding.decode(LibraryExport.self, from: data, path: path)
        for index in document.books.indices { document.books[index].deriveFractions() }
        guard document.format == formatName else {
            throw BookClubError.corruptFile(path: path, detail: "at `format`: expected \"\(formatName)\"")
        }
        guard document.version <= currentVersion else {
            throw BookClubError.newerSchema(path: path, found: document.version, supported: currentVersion)
        }
        if let problem = document.library.problem() { throw BookClubError.corruptFile(path: path, detail: problem) }
        return document
    }

    /// The document as `export` writes it: pretty JSON, sorted keys, ISO 8601 dates, a final newline.
    public func encoded() throws -> Data {
        var data = Data()
        try Self.write(library, to: { data += $0 })
        return data
    }

    /// Writes the document of `library` (its books' full histories loaded) to `sink` a book at a
    /// time, so that an export of a million entries never holds the whole text.
    ///
    /// Books are written by hand rather than by JSONEncoder, which spends about 10 µs an entry; the
    /// keys and values are those of `Codable`, so `decode` reads the document back (tests hold the
    /// two to each other).
    public static func write(_ library: Library, to sink: (Data) throws -> Void) throws {
        var writer = ExportWriter()
        writer.text("{\n  \"books\" : [")
        for (index, book) in library.books.enumerated() {
            writer.text(index == 0 ? "\n" : ",\n")
            writer.book(book)
            if writer.bytes.count > 1 << 16 { try sink(writer.take()) }
        }
        writer.text(library.books.isEmpty ? "],\n  \"clubs\" : [" : "\n  ],\n  \"clubs\" : [")
        let encoder = JSONCoding.encoder()
        for (index, club) in library.clubs.enumerated() {
            writer.text(index == 0 ? "\n    " : ",\n    ")
            // Clubs are few: JSONEncoder writes them, indented to their place.
            writer.text(String(decoding: try encoder.encode(club), as: UTF8.self).replacing("\n", with: "\n    "))
        }
        writer.text(library.clubs.isEmpty ? "],\n" : "\n  ],\n")
        writer.text("  \"format\" : \"\(formatName)\",\n  \"version\" : \(currentVersion)\n}\n")
        try sink(writer.take())
    }
}

/// Pretty JSON for books, two spaces an indent level, keys in sorted order, as JSONEncoder writes it.
private struct ExportWriter {
    private static let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    private var depth = 2
    private var isFirst: [Bool] = []

    mutating func take() -> Data {
        defer { bytes.removeAll(keepingCapacity: true) }
        return Data(bytes)
    }

    mutating func text(_ text: String) { bytes += text.utf8 }

    private mutating func newline() {
        bytes.append(0x0A)
        for _ in 0..<depth * 2 { bytes.append(0x20) }
    }

    /// `{ … }` at the current indent, its fields written by `body`.
    private mutating func object(_ body: (inout ExportWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        isFirst.append(true)
        body(&self)
        isFirst.removeLast()
        depth -= 1
        newline()
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func array<T>(_ items: [T], _ item: (inout ExportWriter, T) -> Void) {
        guard !items.isEmpty else { return text("[]") }
        bytes.append(UInt8(ascii: "["))
        depth += 1
        for (index, element) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline()
            item(&self, element)
        }
        depth -= 1
        newline()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts the field `name`; its value follows.
    private mutating func field(_ name: String) {
        if !isFirst[isFirst.count - 1] { bytes.append(UInt8(ascii: ",")) }
        isFirst[isFirst.count - 1] = false
        newline()
        // Field names are plain ASCII: no escaping to do.
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: [UInt8(ascii: "\""), 0x20, UInt8(ascii: ":"), 0x20])
    }

    /// Starts a field whose name came from outside (a column of an export), escaped as a string is.
    private mutating func escapedField(_ name: String) {
        if !isFirst[isFirst.count - 1] { bytes.append(UInt8(ascii: ",")) }
        isFirst[isFirst.count - 1] = false
        newline()
        string(name)
        bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
    }

    private mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        field(name)
        string(value)
    }

    private mutating func field(_ name: String, _ value: Int?) {
        guard let value else { return }
        field(name)
        text(String(value))
    }

    private mutating func field(_ name: String, _ value: Double?) {
        guard let value else { return }
        field(name)
        // The shortest text that reads back as the same number; finite, as the store's values are.
        text(value.isFinite ? "\(value)" : "0")
    }

    private mutating func field(_ name: String, _ value: Date?) {
        guard let value else { return }
        field(name)
        date(value)
    }

    mutating func book(_ book: Book) {
        for _ in 0..<depth * 2 { bytes.append(0x20) }
        object { w in
            w.field("added", book.added)
            w.field("author", book.author)
            if let contributors = book.contributors {
                w.field("contributors")
                w.array(contributors) { w, contributor in
                    w.object { w in
                        w.field("name", contributor.name)
                        w.field("role", contributor.role)
                    }
                }
            }
            w.field("coverName", book.coverName)
            if let details = book.details {
                w.field("details")
                w.object { w in
                    for key in details.keys.sorted() {
                        w.escapedField(key)
                        w.array(details[key]!) { w, value in w.string(value) }
                    }
                }
            }
            w.field("id", book.id)
            w.field("isbn", book.isbn)
            w.field("pages", book.pages)
            w.field("privateNotes", book.privateNotes)
            w.field("rating", book.rating)
            w.field("readings")
            w.array(book.readings) { w, reading in w.reading(reading) }
            w.field("review", book.review)
            w.field("tags")
            w.array(book.tags) { w, tag in w.string(tag) }
            w.field("title", book.title)
        }
    }

    private mutating func reading(_ reading: Reading) {
        object { w in
            if let ending = reading.ending {
                w.field("ending")
                w.ending(ending)
            }
            w.field("id")
            w.uuid(reading.id)
            w.field("progress")
            w.object { w in
                w.field("entries")
                w.array(reading.progress.entries) { w, entry in w.entry(entry) }
            }
            if let resumed = reading.resumed {
                w.field("resumed")
                w.array(resumed) { w, ending in w.ending(ending) }
            }
            w.field("started", reading.started)
        }
    }

    private mutating func ending(_ ending: Ending) {
        object { w in
            w.field("date", ending.date)
            w.field("note", ending.note)
            w.field("outcome", ending.outcome.rawValue)
            w.field("rating", ending.rating)
            w.field("review", ending.review)
        }
    }

    private mutating func entry(_ entry: ReadingProgress.Entry) {
        object { w in
            w.field("id")
            w.uuid(entry.id)
            w.field("note", entry.note)
            w.field("page", entry.page)
            w.field("progress", entry.progress)
            w.field("time", entry.time)
        }
    }

    /// A UUID as `uuidString` spells it, without its trip through printf.
    private mutating func uuid(_ id: UUID) {
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): text("\\\"")
            case UInt8(ascii: "\\"): text("\\\\")
            case 0x0A: text("\\n")
            case 0x0D: text("\\r")
            case 0x09: text("\\t")
            case 0..<0x20:
                bytes += Array("\\u00".utf8) + [Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `2026-11-20T19:00:00Z`, the whole seconds of `date` in UTC, as `.iso8601` writes it.
    private mutating func date(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        // Before 1583 Foundation's calendar is Julian, and so must this be to read back the same.
        guard seconds >= -12_212_553_600 else { return string(Date.ISO8601FormatStyle().format(date)) }
        let t = LocalDateTime(secondsSinceEpoch: Int64(seconds))
        text(
            "\"\(String(t.year).zeroPadded(to: 4))-\(String(t.month).zeroPadded(to: 2))-\(String(t.day).zeroPadded(to: 2))T\(String(t.hour).zeroPadded(to: 2)):\(String(t.minute).zeroPadded(to: 2)):\(String(t.second).zeroPadded(to: 2))Z\""
        )
    }
}
