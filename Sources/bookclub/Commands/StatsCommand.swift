import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct StatsCommand: Command {
    static let year = OptionSpec(
        long: "year", kind: .value("year"), help: "The year to report, from 1900 to 9999 (default: this year).")
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
            """,
        options: [
            year,
            CommonOptions.json,
        ])

    var year: Int?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        year = try arguments.integer(Self.year, in: 1900...9999)
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        let goal = try env.settings().state.yearlyGoal
        let store = try env.library(scope: .everything.withHistory)
        let stats = ReadingStats(library: store.state, now: env.now(), timeZone: env.timeZone, year: year, goal: goal)
        if json {
            try env.writeJSON(StatsJSON(stats))
            return
        }
        var lines = Self.summary(stats, style: env.style)
        if env.terminal.standardOutputIsTerminal || env.style.isEnabled {
            let charts = StatsCharts.render(
                stats, width: env.terminal.lineWidth ?? env.terminal.width, style: env.style)
            if !charts.isEmpty { lines += [""] + charts }
        }
        lines += Self.months(stats, style: env.style)
        lines += Self.timeToFinish(stats, width: env.terminal.lineWidth, style: env.style)
        for line in lines { env.output.write(line, as: .data) }
        if stats.readingDays == 0 && stats.books == 0 && stats.year == stats.today.year {
            env.output.write(
                "Nothing read in \(stats.year) yet. Log your page with `bookclub progress BOOK PAGE`.", as: .message)
        }
        if stats.goal == nil {
            env.output.write("Set a yearly goal with `bookclub settings set yearlyGoal 24`.", as: .message)
        }
    }

    /// The headline numbers, one line each.
    static func summary(_ stats: ReadingStats, style: Style) -> [String] {
        var span = "Reading in \(stats.year)"
        if stats.throughDay < stats.firstDay {
            span += ": the year has not begun"
        } else if stats.throughDay < stats.lastDay {
            span += ", to \(text(stats.throughDay))"
        }
        var rows = [
            [
                "Pages",
                "\(stats.pages) on \(count(stats.readingDays, "reading day")), \(NumberText.short(stats.pagesPerDay)) a day",
            ],
            [
                "Books",
                "\(stats.books) finished"
                    + (stats.finishedWithoutDate > 0
                        ? " (\(stats.finishedWithoutDate) more on dates unknown, in any year)" : ""),
            ],
            ["Streaks", streaks(stats)],
        ]
        if !stats.ratings.isEmpty {
            let average = stats.ratings.reduce(0, +) / Double(stats.ratings.count)
            rows.insert(
                [
                    "Ratings",
                    "\(count(stats.ratings.count, "book")) rated, \(Rating.stars(average)) (\(NumberText.short(average))) on average",
                ], at: 2)
        }
        if let goal = stats.goal { rows.append(["Goal", describe(goal, in: stats)]) }
        return [style.bold(span)]
            + Table(rows: rows).render(width: nil) { column, text in column == 0 ? style.dim(text) : text }
    }

    /// "19 of 24 books; 21.2 expected by today: 2 behind; on course for 22" in the current year,
    /// "19 of 24 books: 5 short" for a year gone by.
    private static func describe(_ goal: ReadingStats.Goal, in stats: ReadingStats) -> String {
        let text = "\(goal.finished) of \(count(goal.target, "book"))"
        if stats.throughDay < stats.firstDay { return text }
        if stats.year != stats.today.year {
            return text + ": "
                + (goal.ahead > 0 ? "\(goal.ahead) over" : goal.ahead < 0 ? "\(-goal.ahead) short" : "reached")
        }
        let standing = goal.ahead > 0 ? "\(goal.ahead) ahead" : goal.ahead < 0 ? "\(-goal.ahead) behind" : "on track"
        return text
            + "; \(NumberText.short(goal.expected)) expected by today: \(standing); on course for \(goal.projected)"
    }

    private static func streaks(_ stats: ReadingStats) -> String {
        var text = stats.currentStreak.days > 0 ? count(stats.currentStreak.days, "day") + " now" : "none now"
        if let last = stats.longestStreak.last {
            text += "; longest \(count(stats.longestStreak.days, "day")), to \(self.text(last))"
        }
        return text
    }

    /// A row a month, through the last month counted.
    static func months(_ stats: ReadingStats, style: Style) -> [String] {
        guard stats.throughDay >= stats.firstDay else { return [] }
        let months = stats.months.prefix(stats.throughDay.month)
        let rows =
            [["Month", "Books", "Pages", "Days"]]
            + months.map { [StatsCharts.months[$0.month - 1], "\($0.books)", "\($0.pages)", "\($0.readingDays)"] }
        return [""]
            + Table(rows: rows, rightAligned: [1, 2, 3]).render(width: nil) { column, text in
                text == "Month" || text == "Books" || text == "Pages" || text == "Days" ? style.bold(text) : text
            }
    }

    /// Each book being read, with the pages left and when it will be done at the pace.
    static func timeToFinish(_ stats: ReadingStats, width: Int?, style: Style) -> [String] {
        guard !stats.timeToFinish.isEmpty else { return [] }
        let heading =
            stats.pagesPerDay == 0
            ? "Time to finish: no pace yet, as nothing was read in \(stats.year)"
            : stats.year == stats.today.year
                ? "Time to finish at \(NumberText.short(stats.pagesPerDay)) pages a day"
                : "Time to finish at \(NumberText.short(stats.pagesPerDay)) pages a day, your pace in \(stats.year)"
        let rows = stats.timeToFinish.map { finish in
            [
                finish.title.terminalSafe, count(finish.pagesLeft, "page") + " left",
                finish.days.map { count($0, "day") } ?? "-", finish.date.map(text) ?? "",
            ]
        }
        return ["", style.bold(heading)]
            + Table(rows: rows, flexibleColumn: 0, rightAligned: [1, 2]).render(width: width)
    }

    /// "Wed 18 Nov 2026"
    static func text(_ day: ReadingStats.Day) -> String {
        DateText.day(Date(timeIntervalSince1970: Double(day.number) * 86_400), timeZone: .utc)
    }

    /// "1 day", "3 days"
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

}
