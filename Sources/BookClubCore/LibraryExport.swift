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
        let document = try JSONCoding.decode(LibraryExport.self, from: data, path: path)
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
        try JSONCoding.encoder().encode(self) + Data("\n".utf8)
    }
}
