import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ListCommand: Command {
    static let reading = OptionSpec(long: "reading", kind: .flag, help: "Only books being read.")
    static let finished = OptionSpec(long: "finished", kind: .flag, help: "Only finished books.")
    static let abandoned = OptionSpec(long: "abandoned", kind: .flag, help: "Only abandoned books.")
    static let unstarted = OptionSpec(long: "unstarted", kind: .flag, help: "Only books not yet started.")
    static let all = OptionSpec(long: "all", kind: .flag, help: "Every book.")
    static let tag = OptionSpec(long: "tag", short: "t", kind: .value("tag"), help: "Only books with this tag.")
    static let stars = OptionSpec(long: "stars", kind: .flag, help: "Show your rating of each book as stars.")
    static let configuration = CommandConfiguration(
        name: "list",
        aliases: ["ls"],
        abstract: "List books, one line each, with a progress bar.",
        discussion: "Without a filter, lists the books being read and those not yet started.",
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
            arguments.flag($0)
        }
        .map(\.long)
        if filters.count > 1 {
            throw ParseError.exclusiveFlags(duplicate: "--" + filters[1], previous: "--" + filters[0])
        }
        switch filters.first {
        case nil: statuses = [.reading, .unstarted]
        case "all": statuses = Set(Book.Status.allCases)
        case let name?: statuses = [Book.Status(rawValue: name)!]
        }
        tag = arguments.value(Self.tag)?.lowercased()
        json = arguments.flag(CommonOptions.json)
        stars = arguments.flag(Self.stars)
    }

    func run(in env: Environment) throws {
        let books = try env.library().state.books
            .filter { statuses.contains($0.status) }
            .filter { book in tag.map { tag in book.tags.contains { $0.lowercased() == tag } } ?? true }
            .sorted(by: Self.order)
        if json {
            try env.writeJSON(books.map { BookJSON($0) })
            return
        }
        guard !books.isEmpty else {
            env.output.write(
                try env.library().state.books.isEmpty
                    ? "No books yet. Add one: bookclub add \"Dune\" --author \"Frank Herbert\" --pages 412"
                    : "No books match; see `bookclub list --all`.",
                as: .message)
            return
        }
        for line in Self.render(
            books, width: env.terminal.lineWidth, style: env.style, timeZone: env.timeZone, stars: stars)
        {
            env.output.write(line, as: .data)
        }
    }

    /// Being read first (latest update first), then unstarted, finished and abandoned ones.
    static func order(_ a: Book, _ b: Book) -> Bool {
        let rank: [Book.Status: Int] = [.reading: 0, .unstarted: 1, .finished: 2, .abandoned: 3]
        if a.status != b.status { return rank[a.status]! < rank[b.status]! }
        if activity(a) != activity(b) { return activity(a) > activity(b) }
        return a.title.lowercased() < b.title.lowercased()
    }

    static func activity(_ book: Book) -> Date {
        book.currentReading?.ending?.date ?? book.currentReading?.progress.latest?.time ?? book.currentReading?.started
            ?? book.added
    }

    static func render(_ books: [Book], width: Int?, style: Style, timeZone: Zone, stars: Bool = false) -> [String] {
        let idWidth = 8
        let barWidth = min(24, max(8, (width ?? 100) / 5))
        let rows = books.map { book -> [String] in
            let detail: String
            switch book.status {
            case .unstarted: detail = "not started"
            case .reading:
                // A book logged in percents with no page count has its percent in the column before.
                let logged = book.currentReading?.progress.latest != nil
                detail =
                    book.currentPage.map { page in "p. \(page)" + (book.pages.map { "/\($0)" } ?? "") }
                    ?? (logged ? "" : "no progress yet")
            case .finished, .abandoned:
                detail =
                    book.status.rawValue
                    + (book.currentReading?.ending?.date.map { " " + DateText.day($0, timeZone: timeZone) } ?? "")
            }
            let row = [
                String(book.id.prefix(idWidth)), book.title.terminalSafe, (book.author ?? "").terminalSafe,
                ProgressBar.render(book.currentProgress, width: barWidth), ProgressText.percent(book.currentProgress),
                detail,
            ]
            return stars ? row + [book.currentRating.map(Rating.stars) ?? ""] : row
        }
        // Without any author, the column goes, rather than leave a gap.
        let hasAuthors = books.contains { $0.author != nil }
        let table = Table(
            rows: hasAuthors ? rows : rows.map { $0.enumerated().filter { $0.offset != 2 }.map(\.element) },
            flexibleColumns: hasAuthors ? [1, 2] : [1], rightAligned: [hasAuthors ? 4 : 3])
        return table.render(width: width) { column, text in
            switch hasAuthors || column < 2 ? column : column + 1 {
            case 0: style.dim(text)
            case 1: style.bold(text)
            case 3: style.green(text)
            case 5: style.dim(text)
            default: text
            }
        }
    }
}
