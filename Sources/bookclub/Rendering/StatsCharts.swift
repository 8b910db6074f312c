import BookClubCore

/// The charts of `stats`: a sparkline of pages a week above a calendar heat map of reading days, one
/// column a week (Monday to Sunday, top to bottom) under month labels; the oldest weeks give way
/// when the width is short.
///
/// ```text
///       Jan   Feb    Mar
/// pages ▁▃▅█▂▁▁▄▆▇▅▃
/// Mon   ·░▒▓█·░·▒▒▓·
/// ```
enum StatsCharts {
    static let sparks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let shades: [Character] = ["·", "░", "▒", "▓", "█"]
    /// Greens from dark to bright (256-colour codes), for the shades when colour is on.
    static let greens = [22, 28, 34, 40]
    static let labelWidth = 6

    /// The chart lines, each at most `width` columns; none when no day of the year has begun.
    static func render(_ stats: ReadingStats, width: Int, style: Style) -> [TerminalText] {
        let weeks = Array(stats.weeks.suffix(max(1, width - labelWidth)))
        guard !weeks.isEmpty else { return [] }
        var lines = [label("") + TerminalText(monthLabels(weeks, stats: stats).trimmingTrailingSpaces)]
        let mostInAWeek = weeks.map(\.pages).max() ?? 0
        lines.append(
            label("pages") + style.green(TerminalText(String(weeks.map { spark($0.pages, most: mostInAWeek) }))))
        let pagesByDay = Dictionary(uniqueKeysWithValues: stats.days.map { ($0.day, $0.pages) })
        let mostInADay = stats.days.map(\.pages).max() ?? 0
        for weekday in 1...7 {
            let levels = weeks.map { week -> Int? in
                let day = week.start.adding(weekday - 1)
                guard day >= stats.firstDay, day <= stats.throughDay else { return nil }
                return level(pagesByDay[day], most: mostInADay)
            }
            lines.append(
                (label(CalendarNames.weekday(weekday + 1)) + shades(levels, style: style)).trimmingTrailingSpaces)
        }
        lines.append(label("") + style.dim("▁…█ pages a week, up to \(mostInAWeek)"))
        lines.append(
            label("") + shades.indices.map { shade($0, style: style) }.joined()
                + style.dim(" pages a day, up to \(mostInADay)"))
        return lines
    }

    private static func label(_ text: String) -> TerminalText {
        TerminalText(text) + .spaces(max(1, labelWidth - text.count))
    }

    /// `Jan` over the week that holds the 1st of January, and so on, where there is room.
    private static func monthLabels(_ weeks: [ReadingStats.WeekTotal], stats: ReadingStats) -> String {
        var text = ""
        for (column, week) in weeks.enumerated() where column >= text.count {
            let first = (0..<7).map { week.start.adding($0) }.first {
                $0.day == 1 && $0 >= stats.firstDay && $0 <= stats.throughDay
            }
            guard let first, column + 3 <= weeks.count else { continue }
            text += String(repeating: " ", count: column - text.count) + CalendarNames.month(first.month) + " "
        }
        return text
    }

    /// `▁` for none, up to `█` for the most.
    static func spark(_ pages: Int, most: Int) -> Character {
        guard pages > 0, most > 0 else { return sparks[0] }
        return sparks[min(7, max(1, Int((Double(pages) / Double(most) * 7).rounded(.up))))]
    }

    /// 0 for a day without reading; 1 to 4 for a reading day, by its pages against the most.
    private static func level(_ pages: Int?, most: Int) -> Int {
        guard let pages else { return 0 }
        guard pages > 0, most > 0 else { return 1 }
        return min(4, max(1, Int((Double(pages) / Double(most) * 4).rounded(.up))))
    }

    /// The shades of a row of levels (`nil`: a day outside the year, blank), styled a run at a time.
    private static func shades(_ levels: [Int?], style: Style) -> TerminalText {
        var text: TerminalText = ""
        var start = levels.startIndex
        while start < levels.endIndex {
            let end = levels[start...].firstIndex { $0 != levels[start] } ?? levels.endIndex
            if let level = levels[start] {
                text += shade(level, count: end - start, style: style)
            } else {
                text += .spaces(end - start)
            }
            start = end
        }
        return text
    }

    private static func shade(_ level: Int, count: Int = 1, style: Style) -> TerminalText {
        let text = TerminalText(String(repeating: shades[level], count: count))
        return level == 0 ? style.dim(text) : style.color256(greens[level - 1], text)
    }
}
