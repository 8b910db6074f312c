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
    private static let weekdays = CalendarNames.weekdays.map { $0.lowercased() }
    private static let months = CalendarNames.months.map { $0.lowercased() }

    /// `2026-11-20T19:00`, `2026-11-20 19:00:30Z`, `2026-11-20T19:00+05:30`: a date with a time, in
    /// `timeZone` unless it carries an offset; also a plain `2026-11-20` is left to `day`.
    ///
    /// That is `YYYY-MM-DD[Tt ]hh:mm[:ss][Z|z|±hh[:]mm]`, read byte by byte: a batch reads one a line.
    private static func isoDateTime(_ text: String, timeZone: Zone) -> Date? {
        guard var word = ASCIIWord(text), let year = word.digits(4), word.take("-"), let month = word.digits(2),
            word.take("-"), let day = word.digits(2), word.take("T") || word.take("t") || word.take(" "),
            let hour = word.digits(2), word.take(":"), let minute = word.digits(2)
        else { return nil }
        var second = 0
        if word.take(":") {
            guard let seconds = word.digits(2) else { return nil }
            second = seconds
        }
        let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        var offset: Int?
        if word.take("Z") || word.take("z") {
            offset = 0
        } else if let sign = word.take("+") ? 1 : word.take("-") ? -1 : nil {
            guard let hours = word.digits(2) else { return nil }
            _ = word.take(":")
            guard let minutes = word.digits(2) else { return nil }
            guard hours <= 18, minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard word.atEnd, local.isValid, local.year >= 1 else { return nil }
        guard let offset else { return timeZone.date(from: local) }
        return Date(timeIntervalSince1970: Double(local.secondsSinceEpoch - Int64(offset)))
    }

    /// `19:00`, `7:05:30`, `7pm`, `7:30am`, `noon`, `midnight`.
    private static func clockTime(_ word: String) -> (hour: Int, minute: Int, second: Int)? {
        switch word {
        case "noon": return (12, 0, 0)
        case "midnight": return (0, 0, 0)
        default: break
        }
        // `h[h][:mm[:ss]][am|pm]`
        guard var scanner = ASCIIWord(word), var hour = scanner.digits(1...2) else { return nil }
        var (minute, second, hasMinutes) = (0, 0, false)
        if scanner.take(":") {
            guard let minutes = scanner.digits(2) else { return nil }
            (minute, hasMinutes) = (minutes, true)
            if scanner.take(":") {
                guard let seconds = scanner.digits(2) else { return nil }
                second = seconds
            }
        }
        let meridiem: Int? = scanner.take("am") ? 0 : scanner.take("pm") ? 12 : nil
        guard scanner.atEnd, hasMinutes || meridiem != nil else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + meridiem
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
            // `[+-]n{1,4}[dw]`
            if var word = ASCIIWord(words[0]), let sign = word.take("+") ? 1 : word.take("-") ? -1 : nil,
                let number = word.digits(1...4), let unit = word.take("d") ? 1 : word.take("w") ? 7 : nil, word.atEnd
            {
                return today.adding(days: sign * number * unit)
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
        guard var scanner = ASCIIWord(word), let year = scanner.digits(4), scanner.take("-") || scanner.take("/"),
            let month = scanner.digits(1...2), scanner.take("-") || scanner.take("/"),
            let dayOfMonth = scanner.digits(1...2),
            scanner.atEnd
        else { return nil }
        let day = LocalDateTime(year: year, month: month, day: dayOfMonth)
        return day.isValid && day.year >= 1 ? day : nil
    }
}

/// A word of the forms `When` reads with digits (`2026-11-20T19:00Z`, `7:30pm`, `-2d`), read a byte at
/// a time: each form is ASCII through and through, so a word with any other byte is none of them.
private struct ASCIIWord {
    private let bytes: [UInt8]
    private var index = 0

    /// `nil` for a word with a byte outside ASCII.
    init?(_ word: String) {
        bytes = Array(word.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    }

    var atEnd: Bool { index == bytes.count }

    /// Takes `text` if it comes next.
    mutating func take(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// The number of exactly `count` digits that comes next.
    mutating func digits(_ count: Int) -> Int? { digits(count...count) }

    /// The number of as many digits as come next, when that is within `counts` (no form has a digit
    /// after its numbers, so taking all is the regular expression's match).
    mutating func digits(_ counts: ClosedRange<Int>) -> Int? {
        var (value, end) = (0, index)
        while end < bytes.count, end - index < counts.upperBound, (0x30...0x39).contains(bytes[end]) {
            value = value * 10 + Int(bytes[end] - 0x30)
            end += 1
        }
        guard counts.contains(end - index) else { return nil }
        index = end
        return value
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
