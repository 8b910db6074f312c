#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A StoryGraph export, read by column name.
///
/// - `Read Status` gives the status: `to-read` not started, `currently-reading` (and `paused`)
///   reading, `read` finished, `did-not-finish` abandoned. Any other status leaves the book not
///   started, and becomes a tag.
/// - `Dates Read` holds a read-through per comma-separated item: a day (`2024/08/29`: the day it
///   ended; the day it started, for a book being read) or a range (`2024/08/29-2024/09/02`). A range
///   that ends before it starts keeps only its end. Without them, `Last Date Read` is the end of the
///   last reading. `Read Count` beyond them adds earlier readings, finished on unknown dates.
/// - `Authors` is kept whole (`Chip Heath, Dan Heath`); narrators and translators, in `Contributors`,
///   are kept as contributors with their roles.
/// - `ISBN/UID` is kept when it is an ISBN; an ASIN (`B07MNWKF2M`) is dropped, as it is not one.
/// - `Star Rating` keeps its quarter stars; `Review` is kept; `Tags` become tags.
enum StoryGraphImporter {
    static let required = ["Title", "Authors", "Read Status"]
    /// The columns read into a field of their own; every other is kept in `details`.
    static let mapped: Set<String> = [
        "title", "authors", "contributors", "read status", "date added", "last date read", "dates read", "read count",
        "star rating",
        "review", "tags",
    ]

    static func items(in data: Data, _ context: ImportContext) throws -> [ImportFile.Item] {
        try ImportColumns.items(
            in: data, context, format: .storygraph, required: required,
            otherFormats: [(.goodreads, GoodreadsImporter.required)], item: item)
    }

    static func item(_ row: ImportRow, _ context: ImportContext) throws -> ImportFile.Item {
        guard let title = row.name("Title") else { throw row.failure("no `Title`") }
        let readStatus = row.text("Read Status")?.lowercased() ?? "to-read"
        let status: Book.Status
        switch readStatus {
        case "to-read": status = .unstarted
        case "currently-reading", "paused": status = .reading
        case "read": status = .finished
        default: status = ImportMapping.meansDidNotFinish(readStatus) ? .abandoned : .unstarted
        }
        var tags = row.list("Tags")
        if status == .unstarted && readStatus != "to-read" && !tags.contains(where: { $0.lowercased() == readStatus }) {
            tags.append(readStatus)
        }
        var dated = try datesRead(row, context)
        if dated.isEmpty, let last = try row.day("Last Date Read") {
            dated = [(started: nil, ended: last)]
        }
        if status == .reading, let last = dated.last, last.started == nil {
            // A single day for a book being read is the day it started.
            dated[dated.count - 1] = (started: last.ended, ended: nil)
        }
        let rating = try row.decimal("Star Rating", in: 0...5)
        var book = ImportMapping.book(
            id: context.makeID(), title: title, author: row.name("Authors"), pages: nil,
            isbn: row.text("ISBN/UID").flatMap(ISBN.cleaned), tags: tags,
            rating: rating.flatMap { $0 > 0 ? $0 : nil }, review: row.text("Review"), privateNotes: nil,
            contributors: row.contributors("Contributors"), details: details(row),
            added: try row.day("Date Added") ?? context.now, status: status,
            readCount: try row.integer("Read Count", in: 0...100) ?? 0, readCountKey: "storygraph:Read Count",
            dated: dated, ids: context.ids)
        book.format = ImportMapping.format(row.text("Format"))
        return ImportFile.Item(book: book, line: row.line)
    }

    /// The columns without a field of their own, and `Dates Read` as written when a range in it ran
    /// backwards (its start is not a reading's start, but it is kept).
    static func details(_ row: ImportRow) -> [String: [String]]? {
        var details = row.details(source: .storygraph, except: mapped) ?? [:]
        let backwards = row.list("Dates Read").contains { item in
            let days = item.split(separator: "-").map { String($0).trimmed.replacing("/", with: "") }
            return days.count == 2 && days[0] > days[1]
        }
        if backwards, let text = row.text("Dates Read") { details["storygraph:Dates Read"] = [text] }
        return details.isEmpty ? nil : details
    }

    /// The read-throughs in `Dates Read`, oldest first.
    static func datesRead(_ row: ImportRow, _ context: ImportContext) throws -> [(started: Date?, ended: Date?)] {
        let column = "Dates Read"
        return try row.list(column).map { item -> (started: Date?, ended: Date?) in
            let days = item.split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmed }
            guard days.count <= 2 else {
                throw row.failure("`\(column)` holds '\(ImportRow.shown(item))', not a day or a range of days")
            }
            if days.count == 1 { return (started: nil, ended: try row.day(days[0], column: column)) }
            let started = days[0].isEmpty ? nil : try row.day(days[0], column: column)
            let ended = days[1].isEmpty ? nil : try row.day(days[1], column: column)
            return ordered(started, ended)
        }
        .sorted { ($0.ended ?? $0.started ?? .distantPast) < ($1.ended ?? $1.started ?? .distantPast) }
    }

    /// A range that ends before it starts keeps only its end.
    private static func ordered(_ started: Date?, _ ended: Date?) -> (started: Date?, ended: Date?) {
        if let started, let ended, ended < started { return (nil, ended) }
        return (started, ended)
    }
}
