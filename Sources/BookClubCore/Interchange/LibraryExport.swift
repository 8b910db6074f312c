#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The document `export --format json` writes and `import json` reads: every book with every reading
/// and every progress entry, and every club; the books in the order they were added (`exportOrder`)
/// and the clubs by id, which is the same on every machine that syncs the library. Nothing the store holds is left out, so an export
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
        books = Library.inExportOrder(library.books)
        clubs = library.clubs.sorted { $0.id < $1.id }
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
    public static func write(_ library: Library, to sink: (Data) throws -> Void) throws {
        var text = Text()
        for book in Library.inExportOrder(library.books) { if let chunk = text.add(book) { try sink(chunk) } }
        try sink(try text.end(clubs: library.clubs))
    }

    /// The document's text, made a book at a time and handed out in chunks, so that an export of a
    /// million entries (its books handed over a few at a time by a `HistoryWalk`) never holds them all.
    ///
    /// Books are written by hand rather than by JSONEncoder, which spends about 10 µs an entry; the
    /// keys and values are those of `Codable`, so `decode` reads the document back (tests hold the
    /// two to each other).
    public struct Text {
        private var writer = JSONWriter()
        private var count = 0

        public init() {
            writer.text("{\n  \"books\" : [")
        }

        /// Adds a book with its full history; returns the text so far once it has grown past 64 KiB.
        public mutating func add(_ book: Book) -> Data? {
            writer.text(count == 0 ? "\n    " : ",\n    ")
            count += 1
            writer.book(book)
            return writer.bytes.count > 1 << 16 ? writer.take() : nil
        }

        /// The rest of the document: the clubs (by id, whatever order the store keeps them in, so that
        /// every machine writes the same bytes) and the end.
        public mutating func end(clubs: [Club]) throws -> Data {
            let clubs = clubs.sorted { $0.id < $1.id }
            writer.text(count == 0 ? "],\n  \"clubs\" : [" : "\n  ],\n  \"clubs\" : [")
            let encoder = JSONCoding.encoder()
            for (index, club) in clubs.enumerated() {
                writer.text(index == 0 ? "\n    " : ",\n    ")
                // Clubs are few: JSONEncoder writes them, indented to their place.
                writer.text(String(decoding: try encoder.encode(club), as: UTF8.self).replacing("\n", with: "\n    "))
            }
            writer.text(clubs.isEmpty ? "],\n" : "\n  ],\n")
            writer.text("  \"format\" : \"\(formatName)\",\n  \"version\" : \(currentVersion)\n}\n")
            return writer.take()
        }
    }
}
