import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct StatsCommand: Command {
    static let year = Option(
        long: "year", kind: .value("year"), help: "The year to report, from 1900 to 9999 (default: this year).",
        parse: .integer(in: 1900...9999))
    static let html = Flag(long: "html", help: "Write the year as one HTML page, with charts, to look at and share.")
    static let open = Flag(long: "open", help: "With --html, open the page in your browser (xdg-open or open).")
    static let noCovers = Flag(long: "no-covers", help: "With --html, leave the covers out.")
    static let output = CommonOptions.output("With --html, write the page to this file instead of standard output.")
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Your reading in numbers: pages and books a month, pace, streaks and your yearly goal.",
        discussion: """
            Pages count from the first page of each reading: an entry adds the pages past the furthest \
            one reached before it (going back adds nothing), an entry in percent counts through the \
            book's page count, and finishing on a date reaches the last page. A reading day has an \
            entry that moved forward. Pace is the year's pages over its reading days, and time to \
            finish is the pages left at that pace; streaks run over all your history. Set a goal with \
            `bookclub settings set yearlyGoal 24`. On a terminal, a sparkline of pages a week and a \
            calendar of reading days follow the numbers.

            --html writes one self-contained page (styles, charts and covers inside it; no script, no \
            request): the year in numbers, books and pages by month, a calendar of reading days, every \
            book finished, ratings and tags.
            """,
        examples: ["bookclub stats", "bookclub stats --year 2025 --html > 2025.html"],
        options: [
            year,
            html,
            output,
            open,
            noCovers,
            CommonOptions.json,
        ])

    var year: Int?
    var json: Bool
    var html: Bool
    var outputPath: String?
    var opens: Bool
    var covers: Bool

    init(_ arguments: ParsedArguments) throws {
        year = try arguments[Self.year]
        json = arguments[CommonOptions.json]
        html = arguments[Self.html]
        outputPath = try arguments[Self.output]
        opens = arguments[Self.open]
        covers = !arguments[Self.noCovers]
        if !html, outputPath != nil || opens || !covers {
            throw ParseError.message("--output, --open and --no-covers go with --html")
        }
        if html && json { throw ParseError.message("--html and --json are two ways to write the year: give one") }
    }

    func run(in session: Session) throws {
        let goal = try session.settings().state.yearlyGoal
        // A few books at a time: a history of a million entries is never held whole.
        session.noteMissingStore()
        // No figure, chart or page reads an import's details.
        let walk = try session.storage.historyWalk(leavingDetails: true)
        var counter = ReadingStats.Counter(now: session.now(), timeZone: session.timeZone, year: year)
        try counter.count(walk)
        let stats = ReadingStats(counter, library: walk.library, goal: goal)
        if json {
            try session.writeJSON(StatsJSON(stats))
            return
        }
        if html { return try writePage(stats, in: session) }
        var lines = StatsText.summary(stats, style: session.style)
        if session.terminal.standardOutputIsTerminal || session.style.isEnabled {
            let charts = StatsCharts.render(
                stats, width: session.terminal.lineWidth ?? session.terminal.width, style: session.style)
            if !charts.isEmpty { lines += [""] + charts }
        }
        lines += StatsText.months(stats, style: session.style)
        lines += StatsText.timeToFinish(stats, width: session.terminal.lineWidth, style: session.style)
        for line in lines { session.output.write(line, as: .data) }
        if stats.readingDays == 0 && stats.books == 0 && stats.year == stats.today.year {
            session.output.write(
                "Nothing read in \(stats.year) yet. Log your page with `bookclub progress BOOK PAGE`.", as: .message)
        }
        if stats.goal == nil {
            session.output.write("Set a yearly goal with `bookclub settings set yearlyGoal 24`.", as: .message)
        }
    }

    /// The page, to standard output or a file; `--open` writes it to the cache when no file is given.
    private func writePage(_ stats: ReadingStats, in session: Session) throws {
        let cache = session.openLibrary.cache
        let page = StatsHTML.page(stats) { book in
            guard covers, let name = book.coverName, let path = cache.thumbnailPath(ofName: name),
                let size = try? session.fileSystem.size(path), size <= Self.largestCover,
                let data = try? session.fileSystem.read(path)
            else { return nil }
            return "data:image/" + (name.hasSuffix(".png") ? "png" : "jpeg") + ";base64," + data.base64EncodedString()
        }
        let path = outputPath ?? (opens ? session.paths.cache + "/stats-\(stats.year).html" : nil)
        guard let path else {
            // HTML: the page escapes its text as HTML does, control characters included.
            session.output.write(formatted: page.hasSuffix("\n") ? page : page + "\n")
            return
        }
        try session.writeFile(Data(page.utf8), to: path)
        guard opens else { return }
        if let opener = ["xdg-open", "open"].first(where: { session.runner.find($0, session.variables) != nil }),
            (try? session.runner.run(Program(opener, [session.absolutePath(path)], environment: session.variables)))?
                .ending == .exited(0)
        {
            return
        }
        session.output.write("No program to open it with (xdg-open or open): the page is \(path).", as: .message)
    }

    /// A thumbnail larger than this is left out of the page, which stays small enough to send.
    static let largestCover = 64 * 1024
}
