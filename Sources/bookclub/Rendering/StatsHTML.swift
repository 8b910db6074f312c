import BookClubCore

/// A year in books as one self-contained HTML page (`stats --html`): CSS inline, charts as inline SVG
/// with a text alternative each, covers as `data:` URIs, no script and no request. Every figure is
/// `stats --json`'s, from the same `ReadingStats`; every value from the store is escaped.
enum StatsHTML {
    /// - Parameters:
    ///   - cover: the `data:` URI of a book's cover, when there is one to show.
    static func page(_ stats: ReadingStats, cover: (ReadingStats.Finished) -> String?) -> String {
        var body: [String] = ["<header><h1>A year in books: \(stats.year)</h1>"]
        if stats.throughDay < stats.lastDay && stats.throughDay >= stats.firstDay {
            body.append("<p class=\"muted\">To \(escape(StatsText.text(stats.throughDay))).</p>")
        }
        body.append("</header>")
        guard stats.readingDays > 0 || stats.books > 0 || stats.abandoned > 0 else {
            body.append(
                "<main><p class=\"empty\">No reading in \(stats.year) yet: no book finished, no page logged.</p></main>"
            )
            return document(title: "A year in books: \(stats.year)", body: body)
        }
        body.append("<main>")
        body.append(headline(stats))
        body.append(
            section(
                "Books and pages by month",
                bars(
                    stats.months.map { (CalendarNames.month($0.month), Double($0.books)) },
                    title: "Books finished by month",
                    unit: "books")
                    + bars(
                        stats.months.map { (CalendarNames.month($0.month), Double($0.pages)) },
                        title: "Pages read by month",
                        unit: "pages")))
        if stats.minutes > 0 {
            body.append(
                section(
                    "Time read",
                    bars(
                        stats.months.map { (CalendarNames.month($0.month), Double($0.minutes) / 60) },
                        title: "Hours read by month, as your e-reader counted them", unit: "hours")))
        }
        if stats.listened > 0 {
            body.append(
                section(
                    "Time listened",
                    bars(
                        stats.months.map { (CalendarNames.month($0.month), Double($0.listened) / 60) },
                        title: "Hours of audiobooks listened to by month", unit: "hours")))
        }
        body.append(section("Every day of \(stats.year)", calendar(stats)))
        body.append(section("Books finished", finishedList(stats, cover: cover)))
        body.append(section("Ratings, tags and re-reads", ratings(stats) + tags(stats) + counts(stats)))
        body.append("</main>")
        return document(title: "A year in books: \(stats.year)", body: body)
    }

    // MARK: - Sections

    static func headline(_ stats: ReadingStats) -> String {
        var tiles = [
            tile(String(stats.books), stats.books == 1 ? "book finished" : "books finished"),
            tile(String(stats.pages), "pages read"),
            tile(String(stats.readingDays), stats.readingDays == 1 ? "day with reading" : "days with reading"),
            tile(String(stats.longestStreak.days), "days in the longest streak"),
        ]
        if let goal = stats.goal {
            let percent = goal.target > 0 ? min(100, goal.finished * 100 / goal.target) : 0
            tiles.append(
                tile(
                    "\(goal.finished) of \(goal.target)",
                    "books of the goal (\(percent)%)",
                    extra:
                        "<progress max=\"\(goal.target)\" value=\"\(min(goal.finished, goal.target))\">\(percent)%</progress>"
                ))
        }
        return "<section class=\"headline\" aria-label=\"The year in numbers\">" + tiles.joined() + "</section>"
    }

    private static func tile(_ figure: String, _ label: String, extra: String = "") -> String {
        "<div class=\"tile\"><span class=\"figure\">\(escape(figure))</span><span class=\"label\">\(escape(label))</span>\(extra)</div>"
    }

    private static func section(_ heading: String, _ content: String) -> String {
        "<section><h2>\(escape(heading))</h2>\(content)</section>"
    }

    static func finishedList(_ stats: ReadingStats, cover: (ReadingStats.Finished) -> String?) -> String {
        guard !stats.finished.isEmpty else { return "<p class=\"muted\">No book finished in \(stats.year).</p>" }
        let items = stats.finished.map { book -> String in
            var facts: [String] = []
            if let started = book.started {
                facts.append("\(StatsText.text(started)) to \(StatsText.text(book.finished))")
            } else {
                facts.append("finished \(StatsText.text(book.finished))")
            }
            if let days = book.days {
                facts.append(NumberText.count(days, "day"))
                if let pages = book.pages {
                    facts.append("\(NumberText.short(Double(pages) / Double(days))) pages a day")
                }
            }
            if book.isReread { facts.append("a re-read") }
            if book.format == .audiobook {
                facts.append("listened to")
            } else if book.format == .ebook {
                facts.append("e-book")
            }
            let image =
                cover(book).map {
                    "<img class=\"cover\" src=\"\(escape($0))\" alt=\"\" width=\"48\" height=\"72\">"
                } ?? "<span class=\"cover none\" aria-hidden=\"true\"></span>"
            let stars =
                book.rating.map {
                    "<span class=\"stars\" aria-label=\"rated \(NumberText.short($0, decimals: 2)) of 5\">\(Rating.stars($0))</span>"
                } ?? ""
            return "<li>\(image)<div><cite>\(escape(book.title))</cite>"
                + (book.author.map { " <span class=\"author\">by \(escape($0))</span>" } ?? "")
                + " \(stars)<br><span class=\"muted\">\(escape(facts.joined(separator: " · ")))</span></div></li>"
        }
        return "<ol class=\"books\">" + items.joined() + "</ol>"
    }

    static func ratings(_ stats: ReadingStats) -> String {
        guard !stats.ratings.isEmpty else { return "<p class=\"muted\">No book rated.</p>" }
        // Whole stars, a half or more rounding up.
        let buckets = (1...5).map { stars in
            ("\(stars) ★", Double(stats.ratings.count { max(1, min(5, Int(($0).rounded()))) == stars }))
        }
        return bars(buckets, title: "Books by rating", unit: "books")
    }

    static func tags(_ stats: ReadingStats) -> String {
        var counts: [String: (name: String, count: Int)] = [:]
        for book in stats.finished {
            for tag in book.tags { counts[tag.lowercased(), default: (tag, 0)].count += 1 }
        }
        guard !counts.isEmpty else { return "" }
        let top = counts.values.sorted { ($0.count, $1.name) > ($1.count, $0.name) }.prefix(8)
        let total = max(1, stats.finished.count)
        let rows = top.map { tag in
            let percent = tag.count * 100 / total
            return
                "<li><span class=\"tag\">\(escape(tag.name))</span><span class=\"share\" style=\"--share: \(percent)%\"></span> \(percent)% (\(NumberText.count(tag.count, "book")))</li>"
        }
        return "<h3>Tags of the books finished</h3><ul class=\"tags\">" + rows.joined() + "</ul>"
    }

    static func counts(_ stats: ReadingStats) -> String {
        let rereads = stats.finished.count(where: \.isReread)
        let listened =
            stats.listened > 0 ? " · \(escape(DurationText.describe(minutes: stats.listened))) of audiobooks" : ""
        return
            "<p>\(escape(NumberText.count(rereads, "re-read"))) · \(escape(NumberText.count(stats.abandoned, "book")) ) abandoned\(listened)</p>"
    }

    // MARK: - Charts

    /// A bar chart as inline SVG with a title and a description, and the same figures as a table a
    /// screen reader reads (hidden from view).
    static func bars(_ values: [(label: String, value: Double)], title: String, unit: String) -> String {
        let id =
            "chart-" + String(title.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) }.map(Character.init))
        let width = 40 * values.count
        let height = 120
        let top = values.map(\.value).max() ?? 0
        var svg =
            "<svg class=\"bars\" viewBox=\"0 0 \(width) \(height + 20)\" style=\"max-width: \(width * 3 / 2)px\" role=\"img\" aria-labelledby=\"\(id)-t \(id)-d\">"
            + "<title id=\"\(id)-t\">\(escape(title))</title>"
            + "<desc id=\"\(id)-d\">\(escape(values.map { "\($0.label): \(amount($0.value, unit))" }.joined(separator: ", ")))</desc>"
        for (index, item) in values.enumerated() {
            let barHeight = top > 0 ? Int((item.value / top * Double(height - 14)).rounded()) : 0
            let x = index * 40 + 6
            svg +=
                "<rect x=\"\(x)\" y=\"\(height - barHeight)\" width=\"28\" height=\"\(barHeight)\" rx=\"3\"><title>\(escape("\(item.label): \(amount(item.value, unit))"))</title></rect>"
            if item.value > 0 {
                svg +=
                    "<text x=\"\(x + 14)\" y=\"\(height - barHeight - 3)\" class=\"value\">\(escape(NumberText.short(item.value)))</text>"
            }
            svg += "<text x=\"\(x + 14)\" y=\"\(height + 14)\">\(escape(item.label))</text>"
        }
        svg += "</svg>"
        let rows = values.map {
            "<tr><th scope=\"row\">\(escape($0.label))</th><td>\(escape(NumberText.short($0.value)))</td></tr>"
        }
        return "<figure>" + svg + "<figcaption>\(escape(title))</figcaption>"
            + "<table class=\"visually-hidden\"><caption>\(escape(title))</caption><tr><th scope=\"col\">When</th><th scope=\"col\">\(escape(unit))</th></tr>"
            + rows.joined() + "</table></figure>"
    }

    /// `2 books`, `1 book`: a unit is given in the plural, as the charts' units (books, pages, hours) are.
    private static func amount(_ value: Double, _ unit: String) -> String {
        NumberText.short(value) + " " + (value == 1 && unit.hasSuffix("s") ? String(unit.dropLast()) : unit)
    }

    /// The year as squares, a column a week from Monday, each shaded by the pages read that day (in
    /// four steps from the year's own quarters), with the day and its pages as its title.
    static func calendar(_ stats: ReadingStats) -> String {
        let pagesByDay = Dictionary(stats.days.map { ($0.day.number, $0.pages) }, uniquingKeysWith: +)
        let sorted = pagesByDay.values.filter { $0 > 0 }.sorted()
        func level(_ pages: Int?) -> Int {
            guard let pages else { return 0 }
            guard pages > 0, !sorted.isEmpty else { return 1 }
            let quarter = sorted.count / 4
            if pages <= sorted[quarter] { return 1 }
            if pages <= sorted[min(sorted.count - 1, quarter * 2)] { return 2 }
            if pages <= sorted[min(sorted.count - 1, quarter * 3)] { return 3 }
            return 4
        }
        let first = stats.firstDay
        let offset = first.weekday - 1  // the squares before 1 January, in its first week
        let count = stats.lastDay.number - first.number + 1
        let weeks = (offset + count + 6) / 7
        let cell = 14
        var svg =
            "<svg class=\"calendar\" viewBox=\"0 0 \(weeks * cell + 30) \(7 * cell + 18)\" role=\"img\" aria-labelledby=\"calendar-t calendar-d\">"
            + "<title id=\"calendar-t\">Days with reading in \(stats.year)</title>"
            + "<desc id=\"calendar-d\">\(NumberText.count(stats.readingDays, "day")) with reading, \(NumberText.count(stats.pages, "page")); the longest streak \(NumberText.count(stats.longestStreak.days, "day")).</desc>"
        for row in stride(from: 0, to: 7, by: 2) {  // Mon, Wed, Fri, Sun
            svg +=
                "<text x=\"0\" y=\"\(18 + row * cell + 10)\" class=\"weekday\">\(CalendarNames.weekday(row + 2))</text>"
        }
        var lastMonth = 0
        for index in 0..<count {
            let day = first.adding(index)
            let position = offset + index
            let (column, row) = (position / 7, position % 7)
            let x = 30 + column * cell
            if day.month != lastMonth {
                lastMonth = day.month
                svg += "<text x=\"\(x)\" y=\"10\" class=\"month\">\(CalendarNames.month(day.month))</text>"
            }
            let pages = pagesByDay[day.number]
            let label = StatsText.text(day) + (pages.map { ": " + NumberText.count($0, "page") } ?? ": no reading")
            svg +=
                "<rect x=\"\(x)\" y=\"\(18 + row * cell)\" width=\"\(cell - 3)\" height=\"\(cell - 3)\" rx=\"2\" class=\"l\(level(pages))\"><title>\(escape(label))</title></rect>"
        }
        return "<figure class=\"wide\">" + svg
            + "</svg><figcaption>Each square a day, darker for more pages.</figcaption></figure>"
    }

    /// Text for HTML, in an element or an attribute. Control characters are shown as U+FFFD; a tab and
    /// the marks that reorder text are written as character references, which a browser shows the
    /// same but a terminal the page is printed to never receives raw. Line breaks stay.
    static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters are shown, not sent.
                if character.value < 0x20 && character != "\n" && character != "\t"
                    || (0x7F..<0xA0).contains(character.value)
                {
                    out += "&#xFFFD;"
                } else if character.isTerminalUnsafe && character != "\n" {
                    out += "&#x" + String(character.value, radix: 16, uppercase: true) + ";"
                } else {
                    out.unicodeScalars.append(character)
                }
            }
        }
        return out
    }

    // MARK: - The document

    private static func document(title: String, body: [String]) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
        <meta name="generator" content="bookclub">
        <title>\(escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body.joined(separator: "\n"))
        <footer class="muted">Made by bookclub from your own store.</footer>
        </body>
        </html>

        """
    }

    static let style = """
        :root { color-scheme: light dark; --ink: #1d1d1f; --paper: #fbfaf7; --muted: #6b6b70; --accent: #2f7d4f;
          --l0: #e7e5df; --l1: #b9dcc4; --l2: #7cc194; --l3: #3f9a62; --l4: #1f6b3f; }
        @media (prefers-color-scheme: dark) { :root { --ink: #ececec; --paper: #161618; --muted: #a0a0a6;
          --accent: #6fcf97; --l0: #2a2a2e; --l1: #1f4a30; --l2: #2e7048; --l3: #46a067; --l4: #7fd69f; } }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 60rem; padding: 1rem; font: 16px/1.5 system-ui, sans-serif;
          color: var(--ink); background: var(--paper); }
        h1 { font-size: 1.8rem; margin: .5rem 0; } h2 { font-size: 1.2rem; margin-top: 2rem; }
        .muted { color: var(--muted); }
        .headline { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .75rem; }
        .tile { border: 1px solid var(--l0); border-radius: .6rem; padding: .75rem; }
        .figure { display: block; font-size: 1.8rem; font-weight: 700; color: var(--accent); }
        .label { color: var(--muted); font-size: .9rem; }
        progress { width: 100%; accent-color: var(--accent); }
        figure { margin: 0 0 1rem; overflow-x: auto; } figcaption { color: var(--muted); font-size: .85rem; }
        svg.bars { width: 100%; height: auto; display: block; }
        svg.calendar { width: 100%; min-width: 40rem; height: auto; display: block; }
        svg rect { fill: var(--accent); } svg text { fill: var(--muted); font-size: 9px; text-anchor: middle; }
        svg text.value { fill: var(--ink); } svg text.month, svg text.weekday { text-anchor: start; }
        svg rect.l0 { fill: var(--l0); } svg rect.l1 { fill: var(--l1); } svg rect.l2 { fill: var(--l2); }
        svg rect.l3 { fill: var(--l3); } svg rect.l4 { fill: var(--l4); }
        ol.books { list-style: none; padding: 0; } ol.books li { display: flex; gap: .75rem; margin: .6rem 0; }
        .cover { width: 48px; height: 72px; object-fit: cover; border-radius: 3px; flex: none; background: var(--l0); }
        cite { font-style: normal; font-weight: 600; } .stars { color: var(--accent); }
        ul.tags { list-style: none; padding: 0; } .tag { display: inline-block; min-width: 8rem; }
        .share { display: inline-block; height: .7rem; width: calc(var(--share) / 2);
          background: var(--accent); border-radius: 2px; vertical-align: middle; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        .empty { font-size: 1.2rem; }
        footer { margin-top: 3rem; font-size: .8rem; }
        @media print { body { background: #fff; color: #000; max-width: none; } figure { overflow: visible; }
          section { break-inside: avoid; } }
        """
}
