#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `WHEN` argument, in the reader's time zone: one grammar for every date bookclub reads.
///
/// - A day: `today`, `yesterday`, `tomorrow`; a weekday (`friday`, `fri`); `last friday`,
///   `next thursday`; `2 days ago`, `3 weeks ago`, `a month ago`, `in 2 weeks`; `-2d`, `+1w`;
///   `20 nov`, `nov 20`, `20 November 2026`, `November 20, 2026`; `2026-11-20`, `2026/11/20`.
/// - Any of those followed by a time: `19:00`, `19:00:30`, `7pm`, `7:30pm`, `noon`, `midnight`,
///   optionally after `at`; a time alone is today at that time.
/// - ISO 8601 with a time: `2026-11-20T19:00`, and with an offset, `2026-11-20T19:00Z` or
///   `2026-11-20T19:00-05:00`, which then wins over the time zone.
/// - `now`.
///
/// A bare weekday, or a day and month without a year, is the most recent one for what happened
/// (`friday` on a Friday is today) and the next one for plans (`looking: .ahead`: `thursday` on a
/// Thursday is a week away). `last` and `next` never mean today.
///
/// A day given without a time means noon of that day, except today, which means now.
public enum When {
    /// Which way a bare weekday or a day without a year looks from today.
    public enum Direction: Sendable {
        /// For things that happened: the most recent such day, today included.
        case back
        /// For plans: the next such day, today excluded for a weekday.
        case ahead
    }

    /// The forms, for help and error messages.
    public static let forms =
        "today, yesterday, friday, last friday, next thursday 19:00, 2 days ago, -2d, 20 nov, nov 20 2026, 2026-11-20 or 2026-11-20T19:00"

    /// The moment `text` names; `nil` when it is not a date. See the type's documentation.
    public static func parse(_ text: String, now: Date, timeZone: Zone, looking direction: Direction = .back) -> Date? {
        let trimmed = text.trimmed
        if let exact = isoDateTime(trimmed, timeZone: timeZone) { return exact }
        var words = trimmed.lowercased().replacing(",", with: " ").split(whereSeparator: \.isWhitespace).map(
            String.init)
        if words == ["now"] { return now }
        var time: (hour: Int, minute: Int, second: Int)?
        if let last = words.last, let parsed = clockTime(last) {
            time = parsed
            words.removeLast()
        } else if words.count >= 2, ["am", "pm"].contains(words[words.count - 1]),
            let parsed = clockTime(words[words.count - 2] + words[words.count - 1])
        {
            time = parsed
            words.removeLast(2)
        }
        if time != nil, words.last == "at" { words.removeLast() }
        let today = timeZone.local(now)
        guard let day = self.day(words, today: today, direction: direction) else { return nil }
        guard let time else {
            return day.daysSinceEpoch == today.daysSinceEpoch ? now : timeZone.date(from: day.at(hour: 12, minute: 0))
        }
        return timeZone.date(from: day.at(hour: time.hour, minute: time.minute, second: time.second))
    }
}

extension When {
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// `2026-11-20T19:00`, `2026-11-20 19:00:30Z`, `2026-11-20T19:00+05:30`: a date with a time, in
    /// `timeZone` unless it carries an offset; also a plain `2026-11-20` is left to `day`.
    private static func isoDateTime(_ text: String, timeZone: Zone) -> Date? {
        let pattern =
            /([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?([Zz]|[+-][0-9]{2}:?[0-9]{2})?/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        let (_, year, month, day, hour, minute, second, offset) = match.output
        let local = LocalDateTime(
            year: Int(year)!, month: Int(month)!, day: Int(day)!, hour: Int(hour)!, minute: Int(minute)!,
            second: second.flatMap { Int($0) } ?? 0)
        guard local.isValid, local.year >= 1 else { return nil }
        guard let offset else { return timeZone.date(from: local) }
        var seconds = 0
        if offset != "Z" && offset != "z" {
            let digits = Int(offset.dropFirst().filter(\.isNumber))!
            guard digits / 100 <= 18, digits % 100 < 60 else { return nil }
            seconds = (offset.hasPrefix("-") ? -1 : 1) * ((digits / 100) * 3_600 + (digits % 100) * 60)
        }
        return Date(timeIntervalSince1970: Double(local.secondsSinceEpoch - Int64(seconds)))
    }

    /// `19:00`, `7:05:30`, `7pm`, `7:30am`, `noon`, `midnight`.
    private static func clockTime(_ word: String) -> (hour: Int, minute: Int, second: Int)? {
        switch word {
        case "noon": return (12, 0, 0)
        case "midnight": return (0, 0, 0)
        default: break
        }
        guard let match = word.wholeMatch(of: /([0-9]{1,2})(?::([0-9]{2}))?(?::([0-9]{2}))?(am|pm)?/) else {
            return nil
        }
        let (_, hourText, minuteText, secondText, meridiem) = match.output
        guard var hour = Int(hourText), minuteText != nil || meridiem != nil else { return nil }
        let minute = minuteText.flatMap { Int($0) } ?? 0
        let second = secondText.flatMap { Int($0) } ?? 0
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        return (hour, minute, second)
    }

    /// The day `words` name (its time of day is left as today's).
    private static func day(_ words: [String], today: LocalDateTime, direction: Direction) -> LocalDateTime? {
        switch words.count {
        case 0: return today
        case 1:
            switch words[0] {
            case "today": return today
            case "yesterday": return today.adding(days: -1)
            case "tomorrow": return today.adding(days: 1)
            default: break
            }
            if let weekday = weekday(words[0]) {
                let current = today.weekday - 1
                let offset =
                    direction == .back ? -((current - weekday + 7) % 7) : (weekday - current + 6) % 7 + 1
                return today.adding(days: offset)
            }
            if let match = words[0].wholeMatch(of: /([+-])([0-9]{1,4})([dw])/) {
                let count = Int(match.output.2)! * (match.output.3 == "w" ? 7 : 1)
                return today.adding(days: match.output.1 == "-" ? -count : count)
            }
            return numericDate(words[0])
        case 2:
            if words[0] == "last" || words[0] == "next", let weekday = weekday(words[1]) {
                let current = today.weekday - 1
                let offset = words[0] == "last" ? -((current - weekday + 6) % 7 + 1) : (weekday - current + 6) % 7 + 1
                return today.adding(days: offset)
            }
            return dayAndMonth(words, year: nil, today: today, direction: direction)
        case 3:
            if words[0] == "in", let shifted = shift(today, count: words[1], unit: words[2], sign: 1) { return shifted }
            if words[2] == "ago", let shifted = shift(today, count: words[0], unit: words[1], sign: -1) {
                return shifted
            }
            guard let year = Int(words[2]), words[2].count == 4, year >= 1 else { return nil }
            return dayAndMonth(Array(words[0..<2]), year: year, today: today, direction: direction)
        default: return nil
        }
    }

    private static func weekday(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return weekdays.firstIndex { $0.hasPrefix(word) }
    }

    private static func month(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return months.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    /// `2 days ago`, `a week ago`, `in 3 weeks`, `1 month ago`, `a year ago`.
    private static func shift(_ today: LocalDateTime, count word: String, unit: String, sign: Int) -> LocalDateTime? {
        guard let count = ["a", "an", "one"].contains(word) ? 1 : Int(word), (0...10_000).contains(count) else {
            return nil
        }
        switch unit {
        case "day", "days": return today.adding(days: sign * count)
        case "week", "weeks": return today.adding(days: sign * 7 * count)
        case "month", "months", "year", "years":
            let month = today.year * 12 + today.month - 1 + sign * count * (unit.hasPrefix("year") ? 12 : 1)
            var result = today
            (result.year, result.month) = (month.floorDivided(by: 12), month.floorModulo(12) + 1)
            // 31 March a month ago is 28 (or 29) February, not 3 March.
            result.day = min(today.day, LocalDateTime.length(ofMonth: result.month, year: result.year))
            return result.year >= 1 ? result : nil
        default: return nil
        }
    }

    /// `20 nov` or `nov 20`, in `year` or, without one, the nearest such day in `direction`.
    private static func dayAndMonth(_ words: [String], year: Int?, today: LocalDateTime, direction: Direction)
        -> LocalDateTime?
    {
        let (dayWord, monthWord) = month(words[0]) != nil ? (words[1], words[0]) : (words[0], words[1])
        guard let day = Int(dayWord.trimmingSuffix(["st", "nd", "rd", "th"])), let month = month(monthWord) else {
            return nil
        }
        var candidate = today
        (candidate.month, candidate.day) = (month, day)
        if let year {
            candidate.year = year
            return candidate.isValid ? candidate : nil
        }
        // This year's, else the nearest year's that lies that way (29 February may be years off).
        for step in 0..<9 {
            candidate.year = today.year + (direction == .back ? -step : step)
            guard candidate.isValid else { continue }
            let compared = candidate.daysSinceEpoch - today.daysSinceEpoch
            if direction == .back ? compared <= 0 : compared >= 0 { return candidate }
        }
        return nil
    }

    /// `2026-11-20` or `2026/11/20`.
    private static func numericDate(_ word: String) -> LocalDateTime? {
        guard let match = word.wholeMatch(of: /([0-9]{4})[-\/]([0-9]{1,2})[-\/]([0-9]{1,2})/) else { return nil }
        let day = LocalDateTime(year: Int(match.output.1)!, month: Int(match.output.2)!, day: Int(match.output.3)!)
        return day.isValid && day.year >= 1 ? day : nil
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffixes: [String]) -> String {
        for suffix in suffixes where hasSuffix(suffix) && count > suffix.count { return String(dropLast(suffix.count)) }
        return self
    }
}

extension Date {
    /// This moment without its fraction of a second, so that it survives an ISO 8601 round trip unchanged.
    public var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
