import BookClubCore
import Foundation

/// Fixed times and small libraries for tests.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // Wednesday 2026-11-18T11:06:40Z
    static let utc = TimeZone(identifier: "UTC")!

    static func book(_ title: String, id: String, pages: Int? = 400, author: String? = nil) -> Book {
        Book(id: id, title: title, author: author, pages: pages, added: now)
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
