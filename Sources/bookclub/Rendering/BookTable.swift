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

    /// One line a book: id, title, author, progress bar, percent and where it stands (and the stars);
    /// the author column goes when no book has one. The lines come as UTF-8, each ending in a line
    /// break, laid out as `Table` lays out these cells (the title and the author give way to a
    /// width), but a row at a time into one buffer: a `list` of thousands of books spent more on
    /// making each cell a value of its own, and measuring it, than on anything else.
    ///
    /// - Parameters:
    ///   - order: the places of the books to show, in order (`order(_:)`); all, as they come, when `nil`.
    ///   - emit: given the lines a piece at a time, 64 KiB or so, in one buffer used again (made
    ///     whole, that of thousands of rows was a megabyte of new pages to touch).
    static func render(
        _ books: [BookRow], order: [Int]? = nil, width: Int?, style: Style, timeZone: Zone, stars: Bool = false,
        emit: (UnsafeRawBufferPointer) -> Void
    ) {
        let barWidth = min(24, max(8, (width ?? 100) / 5))
        // A table of thousands of rows has a few dozen bars: each made once.
        var bars = [String?](repeating: nil, count: 8 * barWidth + 1)
        let hasAuthors = books.contains { $0.author != nil }
        // The columns: id, title, author (when any book has one), bar, percent, detail, stars.
        let styles: [(TerminalText) -> TerminalText] =
            [style.dim, style.bold] + (hasAuthors ? [{ $0 }] : []) + [style.green, { $0 }, style.dim]
            + (stars ? [{ $0 }] : [])
        let percentColumn = hasAuthors ? 4 : 3
        // Each cell's text and width, row by row in one array.
        var cells: [Cell] = []
        cells.reserveCapacity(books.count * styles.count)
        var widths = [Int](repeating: 0, count: styles.count)
        func add(_ text: String, width: Int? = nil) {
            let width = width ?? text.displayWidth
            widths[cells.count % styles.count] = max(widths[cells.count % styles.count], width)
            cells.append(Cell(text: text, width: width))
        }
        /// A value as a cell shows it (`TerminalText`), and its width: printable ASCII, most titles,
        /// is both at once.
        func add(value: String) {
            var value = value
            if let width = value.withUTF8({ $0.allSatisfy { (0x20..<0x7F).contains($0) } ? $0.count : nil }) {
                add(value, width: width)
            } else {
                add(TerminalText(value).string)
            }
        }
        for place in order ?? Array(books.indices) {
            let book = books[place]
            add(value: shortID(book.id, 8))
            add(value: book.title)
            if hasAuthors { add(value: book.author ?? "") }
            let eighths = ProgressBar.eighths(book.progress, width: barWidth)
            let bar = bars[eighths] ?? ProgressBar.render(eighths: eighths, width: barWidth)
            bars[eighths] = bar
            // The bar and the percent are bookclub's own, laid out as they are, their widths known.
            add(bar, width: barWidth)
            let percent = ProgressText.percent(book.progress)
            add(percent, width: percent.utf8.count)
            add(value: detail(book, timeZone: timeZone))
            if stars { add(value: book.rating.map(Rating.stars) ?? "") }
        }
        if let width {
            widths = Table.fitted(widths, flexibleColumns: hasAuthors ? [1, 2] : [1], width: width)
        }
        let piece = 1 << 16
        var text: [UInt8] = []
        // A piece and a line as wide as the widest, each of its columns three bytes (the bar's
        // blocks, CJK), and colour: never grown.
        text.reserveCapacity(piece + 3 * widths.reduce(0, +) + 12 * styles.count)
        let blanks = [UInt8](repeating: UInt8(ascii: " "), count: 64)
        var held = 0
        for (index, cell) in cells.enumerated() {
            let column = index % styles.count
            if column > 0 { held += 2 }
            var (cellText, cellWidth) = (cell.text, cell.width)
            if cellWidth > widths[column] {
                cellText = cellText.truncated(toWidth: widths[column])
                cellWidth = cellText.displayWidth
            }
            let padding = max(0, widths[column] - cellWidth)
            if column == percentColumn { held += padding }
            if !cellText.isEmpty {
                while held > 0 {
                    text.append(contentsOf: blanks[..<min(held, blanks.count)])
                    held -= min(held, blanks.count)
                }
                if style.isEnabled { cellText = styles[column](TerminalText(layout: cellText)).string }
                cellText.withUTF8 { text.append(contentsOf: $0) }
            }
            if column != percentColumn && column < styles.count - 1 { held += padding }
            if column == styles.count - 1 {
                // A line ends where its text does, a cell's own spaces too.
                while text.last == UInt8(ascii: " ") { text.removeLast() }
                text.append(0x0A)
                held = 0
                if text.count >= piece {
                    text.withUnsafeBytes(emit)
                    text.removeAll(keepingCapacity: true)
                }
            }
        }
        if !text.isEmpty { text.withUnsafeBytes(emit) }
    }

    /// A cell's text, as shown, and its width in columns.
    private struct Cell {
        var text: String
        var width: Int
    }

    /// Where the book stands, after its bar and percent.
    private static func detail(_ book: BookRow, timeZone: Zone) -> String {
        var detail: String
        switch book.status {
        case .unstarted: detail = "not started"
        case .reading:
            // A book logged in percents with no page count has its percent in the column before.
            detail =
                book.listened.map { DurationText.clock($0) + "/" + DurationText.clock(book.length ?? 0) }
                ?? book.page.map { page in
                    // `p. 120/412` made in one buffer: a row a line, adding up its strings cost more.
                    var text = Array("p. ".utf8) + String(page).utf8
                    if let pages = book.pages { text += [UInt8(ascii: "/")] + String(pages).utf8 }
                    return String(decoding: text, as: UTF8.self)
                }
                ?? (book.isLogged ? "" : "no progress yet")
        case .finished, .abandoned:
            detail = book.status.rawValue + (book.ended.map { " " + DateText.day($0, timeZone: timeZone) } ?? "")
        }
        if book.isAudiobook { detail += " · audio" }
        return detail
    }

    /// The first `width` characters of an id, read as bytes when they are printable ASCII and
    /// ASCII follows (a character each), as in every id bookclub makes.
    private static func shortID(_ id: String, _ width: Int) -> String {
        var id = id
        return id.withUTF8 { utf8 in
            let head = UnsafeBufferPointer(rebasing: utf8.prefix(width + 1))
            guard head.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: head.prefix(width)), as: UTF8.self)
        } ?? String(id.prefix(width))
    }
}
