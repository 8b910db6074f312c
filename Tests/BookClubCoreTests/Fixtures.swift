import BookClubCore
import Foundation

/// Fixed times and small libraries for tests.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // Wednesday 2026-11-18T11:06:40Z
    static let utc = Zone.utc

    /// A zone of the system's zone database, as the CLI reads it for `TZ=name`.
    /// The bytes of a zone database file.
    static func zoneData(_ name: String) -> Data {
        (try? Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name))) ?? Data()
    }

    static func zone(_ name: String) -> Zone {
        let (zone, problem) = Zone.resolve(tz: name, zoneinfo: "/usr/share/zoneinfo") {
            try? Data(contentsOf: URL(fileURLWithPath: $0))
        }
        precondition(problem == nil, "no zone \(name): install tzdata")
        return zone
    }

    static func book(_ title: String, id: String, pages: Int? = 400, author: String? = nil) -> Book {
        Book(id: id, title: title, author: author, pages: pages, added: now)
    }

    /// Noon of a day in UTC, as an import or a `WHEN` of that day reads it.
    static func day(_ text: String) -> Date {
        When.parse(text, now: now, timeZone: utc)!
    }

    /// The folder of the hand-written fixtures.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A hand-written export under `Fixtures/imports`.
    static func export(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent("imports/" + name))
    }

    /// An export read as the CLI reads it, with ids `b1`, `b2`, ... in row order.
    static func importFile(_ data: Data, _ format: ImportFormat, path: String = "export.csv", idPrefix: String = "b")
        throws -> ImportFile
    {
        var next = 0
        return try ImportFile(data, format: format, path: path, now: now, timeZone: utc) {
            next += 1
            return idPrefix + String(next)
        }
    }

    static var shelf: Library {
        Library(books: [
            book("Dune", id: "aaaa1111", author: "Frank Herbert"),
            book("Dune Messiah", id: "aaaa2222", author: "Frank Herbert"),
            book("The Left Hand of Darkness", id: "bbbb1111"),
            book("The Dispossessed", id: "cccc1111"),
        ])
    }
}
