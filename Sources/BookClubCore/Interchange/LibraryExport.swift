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
        var writer = JSONWriter()
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
