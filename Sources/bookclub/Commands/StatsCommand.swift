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
        year = try arguments[Self.year]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let goal = try session.settings().state.yearlyGoal
        // A few books at a time: a history of a million entries is never held whole.
        let walk = try session.storage.historyWalk()
        var counter = ReadingStats.Counter(now: session.now(), timeZone: session.timeZone, year: year)
        try walk.forEachBook { counter.count($0) }
        let stats = ReadingStats(counter, library: walk.library, goal: goal)
        if json {
            try session.writeJSON(StatsJSON(stats))
            return
        }
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
}
