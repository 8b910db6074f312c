/// Days and wall-clock times on the proleptic Gregorian calendar, by arithmetic (Howard Hinnant's
/// `days_from_civil` and `civil_from_days`): no `Calendar`, no locale, the same on every platform.
public struct LocalDateTime: Hashable, Sendable {
    public var year: Int
    /// 1 (January) to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
    }

    /// The wall-clock time `seconds` after 1970-01-01 00:00 (on a clock that never changes).
    init(secondsSinceEpoch seconds: Int64) {
        let days = Int(seconds.floorDivided(by: 86_400))
        let rest = Int(seconds - Int64(days) * 86_400)
        (year, month, day) = Self.civil(fromDays: days)
        (hour, minute, second) = (rest / 3_600, rest / 60 % 60, rest % 60)
    }

    /// Days since 1970-01-01 of this date (of a month or day past its end, the days it runs on into).
    public var daysSinceEpoch: Int { Self.days(year: year, month: month, day: 1) + day - 1 }

    /// This wall-clock time as seconds after 1970-01-01 00:00, as if no clock ever changed.
    var secondsSinceEpoch: Int64 { Int64(daysSinceEpoch) * 86_400 + Int64(hour * 3_600 + minute * 60 + second) }

    /// The day as ISO 8601 writes it: `2026-11-18`.
    public var isoDay: String {
        String(year).zeroPadded(to: 4) + "-" + String(month).zeroPadded(to: 2) + "-" + String(day).zeroPadded(to: 2)
    }

    /// 1 (Sunday) to 7 (Saturday), as `Calendar` numbers weekdays.
    public var weekday: Int { (daysSinceEpoch + 4).floorModulo(7) + 1 }  // 1 January 1970 was a Thursday

    /// Whether the date exists (not 30 February), and the time too.
    public var isValid: Bool {
        (1...12).contains(month) && (1...Self.length(ofMonth: month, year: year)).contains(day)
            && (0...23).contains(hour)
            && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// The same time `count` days later (earlier when negative).
    public func adding(days count: Int) -> LocalDateTime {
        var result = self
        (result.year, result.month, result.day) = Self.civil(fromDays: daysSinceEpoch + count)
        return result
    }

    /// The same day at another time.
    public func at(hour: Int, minute: Int, second: Int = 0) -> LocalDateTime {
        var result = self
        (result.hour, result.minute, result.second) = (hour, minute, second)
        return result
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the first of `month` (1...12, or beyond, running into later years) plus `day - 1`.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let (carry, monthIndex) = (month - 1).floorDividedAndModulo(12)
        let year = year + carry
        let month = monthIndex + 1
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day `days` after 1970-01-01.
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension BinaryInteger {
    func floorDivided(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    func floorModulo(_ divisor: Self) -> Self { self - floorDivided(by: divisor) * divisor }

    func floorDividedAndModulo(_ divisor: Self) -> (Self, Self) {
        let quotient = floorDivided(by: divisor)
        return (quotient, self - quotient * divisor)
    }
}
