#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Goodreads library export (`goodreads_library_export.csv`), read by column name: the three
/// generations of its header (31 columns up to about 2020, 24 since, 23 from 2026 without
/// `Average Rating`) read alike.
///
/// - `Exclusive Shelf` gives the status: `to-read` not started, `currently-reading` reading, `read`
///   finished, `did-not-finish` and custom shelves whose name says so (`dnf`, `wont-finish`,
///   `abandoned`) abandoned. Any other custom exclusive shelf leaves the book not started, and
///   becomes a tag.
/// - `Bookshelves` beyond the status shelves become tags.
/// - `Read Count` readings, the last ending on `Date Read` (unknown when empty), the earlier ones
///   finished on unknown dates. A book on `to-read` has no reading, whatever its count.
/// - `ISBN13`, else `ISBN`, unwrapped from `="..."`; `My Rating` 0 is unrated; `My Review` is kept
///   as written (HTML); `Private Notes` too.
enum GoodreadsImporter {
    static let required = ["Title", "Author", "Exclusive Shelf"]
    /// The columns read into a field of their own; every other is kept in `details`.
    static let mapped: Set<String> = [
        "title", "author", "additional authors", "my rating", "number of pages", "date read", "date added",
        "bookshelves",
        "exclusive shelf", "my review", "private notes", "read count", GoodreadsCSV.bookColumn,
    ]
    static let statusShelves: [String: Book.Status] = [
        "to-read": .unstarted, "currently-reading": .reading, "read": .finished,
    ]

    static func items(in data: Data, _ context: ImportContext) throws -> [ImportFile.Item] {
        try ImportColumns.items(
            in: data, context, format: .goodreads, required: required,
            otherFormats: [(.storygraph, StoryGraphImporter.required)], item: item)
    }

    static func item(_ row: ImportRow, _ context: ImportContext) throws -> ImportFile.Item {
        // A row bookclub wrote carries the whole book after Goodreads' columns.
        if let json = row.text(GoodreadsCSV.bookColumn) {
            guard var book = JSONCoding.decodeLine(Book.self, from: Data(utf8: json)), !book.title.trimmed.isEmpty,
                Library(books: [book]).problem() == nil
            else { throw row.failure("`\(GoodreadsCSV.bookColumn)` holds no book bookclub wrote") }
            book.deriveFractions()
            return ImportFile.Item(book: book, line: row.line)
        }
        guard let title = row.name("Title") else { throw row.failure("no `Title`") }
        let exclusive = row.text("Exclusive Shelf")?.lowercased() ?? "to-read"
        let status = statusShelves[exclusive] ?? (ImportMapping.meansDidNotFinish(exclusive) ? .abandoned : .unstarted)
        var seen = Set<String>()
        let tags = (row.list("Bookshelves") + [exclusive]).filter { shelf in
            let name = shelf.lowercased()
            return statusShelves[name] == nil && !(name == exclusive && status == .abandoned)
                && seen.insert(name).inserted
        }
        let readCount = try row.integer("Read Count", in: 0...100) ?? 0
        let dateRead = try row.day("Date Read")
        let rating = try row.integer("My Rating", in: 0...5)
        var book = ImportMapping.book(
            id: context.makeID(), title: title, author: row.name("Author"),
            pages: try row.integer("Number of Pages", in: 0...100_000).flatMap { $0 > 0 ? $0 : nil },
            isbn: row.text("ISBN13").flatMap(ISBN.cleaned) ?? row.text("ISBN").flatMap(ISBN.cleaned),
            tags: tags, rating: rating.flatMap { $0 > 0 ? Double($0) : nil }, review: row.text("My Review"),
            privateNotes: row.text("Private Notes"), contributors: row.contributors("Additional Authors"),
            details: row.details(source: .goodreads, except: mapped), added: try row.day("Date Added") ?? context.now,
            status: status,
            readCount: readCount, readCountKey: "goodreads:Read Count",
            dated: [(started: nil, ended: status == .reading ? nil : dateRead)], ids: context.ids)
        book.format = ImportMapping.format(row.text("Binding"))
        return ImportFile.Item(book: book, line: row.line)
    }
}
