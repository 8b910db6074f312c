import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ListCommand: Command {
    static let reading = Flag(long: "reading", help: "Only books being read.")
    static let finished = Flag(long: "finished", help: "Only finished books.")
    static let abandoned = Flag(long: "abandoned", help: "Only abandoned books.")
    static let unstarted = Flag(long: "unstarted", help: "Only books not yet started.")
    static let all = Flag(long: "all", help: "Every book.")
    static let tag = Option(long: "tag", short: "t", kind: .value("tag"), help: "Only books with this tag.")
    static let stars = Flag(long: "stars", help: "Show your rating of each book as stars.")
    static let configuration = CommandConfiguration(
        name: "list",
        aliases: ["ls"],
        abstract: "List books, one line each, with a progress bar.",
        discussion: "Without a filter, lists the books being read and those not yet started.",
        examples: [
            "bookclub list", "bookclub list --finished --tag sf", "bookclub list --all --json | jq -r '.[].title'",
        ],
        options: [
            reading,
            finished,
            abandoned,
            unstarted,
            all,
            tag,
            stars,
            CommonOptions.json,
        ])

    var statuses: Set<Book.Status>
    var tag: String?
    var json: Bool
    var stars: Bool

    init(_ arguments: ParsedArguments) throws {
        let filters = [Self.reading, Self.finished, Self.abandoned, Self.unstarted, Self.all].filter {
            arguments[$0]
        }
        .map(\.spec.long)
        if filters.count > 1 {
            throw ParseError.exclusiveFlags(duplicate: "--" + filters[1], previous: "--" + filters[0])
        }
        switch filters.first {
        case nil: statuses = [.reading, .unstarted]
        case "all": statuses = Set(Book.Status.allCases)
        case let name?: statuses = [Book.Status(rawValue: name)!]
        }
        tag = try arguments[Self.tag]?.lowercased()
        json = arguments[CommonOptions.json]
        stars = arguments[Self.stars]
    }

    func run(in session: Session) throws {
        func shown(_ row: BookRow) -> Bool {
            statuses.contains(row.status) && (tag.map { tag in row.tags.contains { $0.lowercased() == tag } } ?? true)
        }
        if json {
            let books = try session.library().state.books.filter { shown(BookRow($0)) }
            try session.writeJSON(BookTable.sorted(books).map { BookJSON($0) })
            return
        }
        // The rows alone, read without decoding the books where the store keeps them (`STORE.listing`).
        let (rows, books) = try session.bookRows(of: statuses)
        let shownRows = tag == nil ? rows : rows.filter(shown)
        guard !shownRows.isEmpty else {
            session.output.write(
                books == 0
                    ? "No books yet. Add one: bookclub add \"Dune\" --author \"Frank Herbert\" --pages 412"
                    : "No books match; see `bookclub list --all`.",
                as: .message)
            return
        }
        session.write(laidOut: { emit in
            BookTable.render(
                shownRows, order: BookTable.order(shownRows), width: session.terminal.lineWidth, style: session.style,
                timeZone: session.timeZone, stars: stars, emit: emit)
        })
    }
}
