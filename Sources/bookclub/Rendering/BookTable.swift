import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Books as `list` prints them.
enum BookTable {
    /// The places of these rows in list order: being read first (latest update first), then
    /// unstarted, finished and abandoned ones, each group by title; a title lowercased only where two
    /// books tie before it (books imported on one day, say).
    static func order(_ rows: [BookRow]) -> [Int] {
        func rank(_ status: Book.Status) -> Int {
            switch status {
            case .reading: 0
            case .unstarted: 1
            case .finished: 2
            case .abandoned: 3
            }
        }
        var keys = rows.indices.map { (rank: rank(rows[$0].status), activity: rows[$0].activity, place: $0) }
        keys.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if a.activity != b.activity { return a.activity > b.activity }
            return a.place < b.place
        }
        var start = keys.startIndex
        while start < keys.endIndex {
            var end = start + 1
            while end < keys.endIndex, keys[end].rank == keys[start].rank, keys[end].activity == keys[start].activity {
                end += 1
            }
            if end - start > 1 {
                let titles = keys[start..<end].map { (title: rows[$0.place].title.lowercased(), key: $0) }
                keys.replaceSubrange(
                    start..<end,
                    with: titles.sorted { $0.title != $1.title ? $0.title < $1.title : $0.key.place < $1.key.place }
                        .map(\.key))
            }
            start = end
        }
        return keys.map(\.place)
    }

    /// The books in list order (`order(_:)`).
    static func sorted(_ books: [Book]) -> [Book] { order(books.map(BookRow.init)).map { books[$0] } }

    /// One line a book: id, title, author, progress bar, percent and where it stands; the author
    /// column goes when no book has one. The lines come as UTF-8, each ending in a line break.
    static func render(_ books: [BookRow], width: Int?, style: Style, timeZone: Zone, stars: Bool = false) -> Data {
        let idWidth = 8
        let barWidth = min(24, max(8, (width ?? 100) / 5))
        // A table of thousands of rows has a few dozen bars: each made once.
        var bars = [String?](repeating: nil, count: 8 * barWidth + 1)
        let rows = books.map { book -> [TerminalText] in
            let progress = book.progress
            var detail: String
            switch book.status {
            case .unstarted: detail = "not started"
            case .reading:
                // A book logged in percents with no page count has its percent in the column before.
                detail =
                    book.listened.map { DurationText.clock($0) + "/" + DurationText.clock(book.length ?? 0) }
                    ?? book.page.map { page in "p. " + String(page) + (book.pages.map { "/" + String($0) } ?? "") }
                    ?? (book.isLogged ? "" : "no progress yet")
            case .finished, .abandoned:
                detail = book.status.rawValue + (book.ended.map { " " + DateText.day($0, timeZone: timeZone) } ?? "")
            }
            if book.isAudiobook { detail += " · audio" }
            let eighths = ProgressBar.eighths(progress, width: barWidth)
            let bar = bars[eighths] ?? ProgressBar.render(eighths: eighths, width: barWidth)
            bars[eighths] = bar
            // The bar, the percent and the detail are bookclub's own words, laid out as they are.
            let row: [TerminalText] = [
                TerminalText(shortID(book.id, idWidth)), TerminalText(book.title), TerminalText(book.author ?? ""),
                TerminalText(layout: bar),
                TerminalText(layout: ProgressText.percent(progress)), TerminalText(layout: detail),
            ]
            return stars ? row + ["\(book.rating.map(Rating.stars) ?? "")"] : row
        }
        // Without any author, the column goes, rather than leave a gap.
        let hasAuthors = books.contains { $0.author != nil }
        let table = Table(
            rows: hasAuthors ? rows : rows.map { $0.enumerated().filter { $0.offset != 2 }.map(\.element) },
            flexibleColumns: hasAuthors ? [1, 2] : [1], rightAligned: [hasAuthors ? 4 : 3])
        return table.renderedUTF8(width: width) { column, text in
            switch hasAuthors || column < 2 ? column : column + 1 {
            case 0: style.dim(text)
            case 1: style.bold(text)
            case 3: style.green(text)
            case 5: style.dim(text)
            default: text
            }
        }
    }

    /// The first `width` characters of an id, read as bytes when they are printable ASCII and
    /// ASCII follows (a character each), as in every id bookclub makes.
    private static func shortID(_ id: String, _ width: Int) -> String {
        let head = id.utf8.prefix(width + 1)
        guard head.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return String(id.prefix(width)) }
        return String(decoding: head.prefix(width), as: UTF8.self)
    }
}
