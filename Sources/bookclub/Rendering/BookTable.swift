import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Books as `list` prints them.
enum BookTable {
    /// Being read first (latest update first), then unstarted, finished and abandoned ones, each
    /// group by title; each key worked out once a book, and a title lowercased only where two books
    /// tie before it (books imported on one day, say).
    static func sorted(_ books: [Book]) -> [Book] {
        func rank(_ status: Book.Status) -> Int {
            switch status {
            case .reading: 0
            case .unstarted: 1
            case .finished: 2
            case .abandoned: 3
            }
        }
        // The keys are sorted with the books' places, not the books, which are large to move.
        var keys = books.indices.map { (rank: rank(books[$0].status), activity: activity(books[$0]), place: $0) }
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
                let titles = keys[start..<end].map { (title: books[$0.place].title.lowercased(), key: $0) }
                keys.replaceSubrange(
                    start..<end,
                    with: titles.sorted { $0.title != $1.title ? $0.title < $1.title : $0.key.place < $1.key.place }
                        .map(\.key))
            }
            start = end
        }
        return keys.map { books[$0.place] }
    }

    static func activity(_ book: Book) -> Date {
        guard let reading = book.currentReading else { return book.added }
        return reading.ending?.date ?? reading.progress.latest?.time ?? reading.started ?? book.added
    }

    /// One line a book: id, title, author, progress bar, percent and where it stands; the author
    /// column goes when no book has one. The lines come as one text, a line break between two.
    static func render(_ books: [Book], width: Int?, style: Style, timeZone: Zone, stars: Bool = false)
        -> TerminalText
    {
        let idWidth = 8
        let barWidth = min(24, max(8, (width ?? 100) / 5))
        // A table of thousands of rows has a few dozen bars: each made once.
        var bars = [String?](repeating: nil, count: 8 * barWidth + 1)
        let rows = books.map { book -> [TerminalText] in
            let reading = book.currentReading
            let progress = book.currentProgress
            var detail: String
            switch book.status {
            case .unstarted: detail = "not started"
            case .reading:
                // A book logged in percents with no page count has its percent in the column before.
                let logged = reading?.progress.latest != nil
                detail =
                    book.currentListened.map { DurationText.clock($0) + "/" + DurationText.clock(book.length ?? 0) }
                    ?? book.currentPage.map { page in "p. " + String(page) + (book.pages.map { "/" + String($0) } ?? "")
                    }
                    ?? (logged ? "" : "no progress yet")
            case .finished, .abandoned:
                detail =
                    book.status.rawValue
                    + (reading?.ending?.date.map { " " + DateText.day($0, timeZone: timeZone) } ?? "")
            }
            if book.currentFormat == .audiobook { detail += " · audio" }
            let eighths = ProgressBar.eighths(progress, width: barWidth)
            let bar = bars[eighths] ?? ProgressBar.render(eighths: eighths, width: barWidth)
            bars[eighths] = bar
            // The bar, the percent and the detail are bookclub's own words, laid out as they are.
            let row: [TerminalText] = [
                TerminalText(shortID(book.id, idWidth)), TerminalText(book.title), TerminalText(book.author ?? ""),
                TerminalText(layout: bar),
                TerminalText(layout: ProgressText.percent(progress)), TerminalText(layout: detail),
            ]
            return stars ? row + ["\(book.currentRating.map(Rating.stars) ?? "")"] : row
        }
        // Without any author, the column goes, rather than leave a gap.
        let hasAuthors = books.contains { $0.author != nil }
        let table = Table(
            rows: hasAuthors ? rows : rows.map { $0.enumerated().filter { $0.offset != 2 }.map(\.element) },
            flexibleColumns: hasAuthors ? [1, 2] : [1], rightAligned: [hasAuthors ? 4 : 3])
        return table.renderedText(width: width) { column, text in
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
