import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The year in reading as `stats` prints it: the headline numbers, the months, the time to finish.
enum StatsText {
    /// The headline numbers, one line each.
    static func summary(_ stats: ReadingStats, style: Style) -> [TerminalText] {
        var span: TerminalText = "Reading in \(stats.year)"
        if stats.throughDay < stats.firstDay {
            span += ": the year has not begun"
        } else if stats.throughDay < stats.lastDay {
            span += ", to \(text(stats.throughDay))"
        }
        var rows: [[TerminalText]] = [
            [
                "Pages",
                "\(stats.pages) on \(NumberText.count(stats.readingDays, "reading day")), \(NumberText.short(stats.pagesPerDay)) a day",
            ],
            [
                "Books",
                "\(stats.books) finished"
                    + (stats.finishedWithoutDate > 0
                        ? " (\(stats.finishedWithoutDate) more on dates unknown, in any year)" : ""),
            ],
            ["Streaks", "\(streaks(stats))"],
        ]
        if stats.minutes > 0 {
            let (hours, minutes) = stats.minutes.quotientAndRemainder(dividingBy: 60)
            rows.insert(
                [
                    "Time",
                    (hours > 0 ? "\(hours) h \(minutes) min" : "\(minutes) min") + " read, by your e-reader's count",
                ], at: 1)
        }
        if stats.listened > 0 {
            rows.insert(
                [
                    "Listened",
                    "\(DurationText.describe(minutes: stats.listened)) of audiobooks, \(DurationText.describe(minutes: Int(stats.listenedPerDay.rounded()))) a day",
                ], at: 1)
        }
        if !stats.ratings.isEmpty {
            let average = stats.ratings.reduce(0, +) / Double(stats.ratings.count)
            rows.insert(
                [
                    "Ratings",
                    "\(NumberText.count(stats.ratings.count, "book")) rated, \(Rating.stars(average)) (\(NumberText.short(average))) on average",
                ], at: 2)
        }
        if let goal = stats.goal { rows.append(["Goal", "\(describe(goal, in: stats))"]) }
        return [style.bold(span)]
            + Table(rows: rows).render(width: nil) { column, text in column == 0 ? style.dim(text) : text }
    }

    /// "19 of 24 books; 21.2 expected by today: 2 behind; on course for 22" in the current year,
    /// "19 of 24 books: 5 short" for a year gone by.
    private static func describe(_ goal: ReadingStats.Goal, in stats: ReadingStats) -> String {
        let text = "\(goal.finished) of \(NumberText.count(goal.target, "book"))"
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
        var text =
            stats.currentStreak.days > 0 ? NumberText.count(stats.currentStreak.days, "day") + " now" : "none now"
        if let last = stats.longestStreak.last {
            text += "; longest \(NumberText.count(stats.longestStreak.days, "day")), to \(self.text(last))"
        }
        return text
    }

    /// A row a month, through the last month counted.
    static func months(_ stats: ReadingStats, style: Style) -> [TerminalText] {
        guard stats.throughDay >= stats.firstDay else { return [] }
        let months = stats.months.prefix(stats.throughDay.month)
        let rows: [[TerminalText]] =
            [["Month", "Books", "Pages", "Days"]]
            + months.map {
                [TerminalText(CalendarNames.month($0.month)), "\($0.books)", "\($0.pages)", "\($0.readingDays)"]
            }
        return [""]
            + Table(rows: rows, rightAligned: [1, 2, 3]).render(width: nil) { column, text in
                text == "Month" || text == "Books" || text == "Pages" || text == "Days" ? style.bold(text) : text
            }
    }

    /// Each book being read, with the pages left and when it will be done at the pace.
    static func timeToFinish(_ stats: ReadingStats, width: Int?, style: Style) -> [TerminalText] {
        guard !stats.timeToFinish.isEmpty else { return [] }
        let heading: TerminalText =
            stats.pagesPerDay == 0
            ? "Time to finish: no pace yet, as nothing was read in \(stats.year)"
            : stats.year == stats.today.year
                ? "Time to finish at \(NumberText.short(stats.pagesPerDay)) pages a day"
                : "Time to finish at \(NumberText.short(stats.pagesPerDay)) pages a day, your pace in \(stats.year)"
        let rows = stats.timeToFinish.map { finish -> [TerminalText] in
            [
                "\(finish.title)", "\(NumberText.count(finish.pagesLeft, "page")) left",
                "\(finish.days.map { NumberText.count($0, "day") } ?? "-")", "\(finish.date.map(text) ?? "")",
            ]
        }
        return ["", style.bold(heading)]
            + Table(rows: rows, flexibleColumn: 0, rightAligned: [1, 2]).render(width: width)
    }

    /// "Wed 18 Nov 2026"
    static func text(_ day: ReadingStats.Day) -> String {
        DateText.day(Date(timeIntervalSince1970: Double(day.number) * 86_400), timeZone: .utc)
    }

}
