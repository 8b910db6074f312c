#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `WHEN` argument: `today`, `yesterday`, `tomorrow`, a weekday (`thursday`, `thu`: the next one),
/// any of those with a time (`thursday 19:00`), an ISO 8601 date (`2026-11-20`) or date and time
/// (`2026-11-20T19:00`, `2026-11-20T19:00:30Z`, `2026-11-20T19:00+01:00`).
public enum When {
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// The moment `text` names, in `timeZone` unless it carries an offset. `today` is `now` and
    /// `yesterday` the same time a day earlier; a day without a time means noon of that day. `nil` when
    /// it is not a date.
    public static func parse(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let lowered = text.lowercased().trimmed
        switch lowered {
        case "today", "now": return now
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: now)
        default: break
        }
        if let named = namedDay(lowered, now: now, calendar: calendar) { return named }
        let pattern = /([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?(Z|[+-][0-9]{2}:?[0-9]{2})?)?/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        let (_, year, month, day, hour, minute, second, offset) = match.output
        var components = DateComponents()
        components.year = Int(year)
        components.month = Int(month)
        components.day = Int(day)
        components.hour = hour.flatMap { Int($0) } ?? 12
        components.minute = minute.flatMap { Int($0) } ?? 0
        components.second = second.flatMap { Int($0) } ?? 0
        guard (1...9999).contains(components.year!), (1...12).contains(components.month!),
            (1...31).contains(components.day!), (0...23).contains(components.hour!),
            (0...59).contains(components.minute!), (0...59).contains(components.second!)
        else { return nil }
        var zone = timeZone
        if let offset {
            if offset == "Z" {
                zone = TimeZone(secondsFromGMT: 0)!
            } else {
                let digits = offset.dropFirst().filter(\.isNumber)
                let value = Int(digits)!
                let sign = offset.hasPrefix("-") ? -1 : 1
                guard let parsed = TimeZone(secondsFromGMT: sign * ((value / 100) * 3600 + (value % 100) * 60)) else { return nil }
                zone = parsed
            }
        }
        calendar.timeZone = zone
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == components.day  // refuses 2026-02-30
        else { return nil }
        return date
    }
}

extension When {
    /// `tomorrow`, `today 19:00`, `thursday`, `thu 19:00`: a day named relative to `now`.
    private static func namedDay(_ text: String, now: Date, calendar: Calendar) -> Date? {
        let parts = text.split(separator: " ")
        guard (1...2).contains(parts.count) else { return nil }
        var hour = 12
        var minute = 0
        if parts.count == 2 {
            guard let time = parts[1].wholeMatch(of: /(\d{1,2}):(\d{2})/), let h = Int(time.output.1),
                let m = Int(time.output.2), (0...23).contains(h), (0...59).contains(m)
            else { return nil }
            (hour, minute) = (h, m)
        }
        let name = String(parts[0])
        let today = calendar.startOfDay(for: now)
        let offset: Int
        switch name {
        case "today": offset = 0
        case "tomorrow": offset = 1
        case "yesterday": offset = -1
        default:
            guard name.count >= 3, let weekday = weekdays.firstIndex(where: { $0.hasPrefix(name) }) else { return nil }
            let current = calendar.component(.weekday, from: now) - 1
            offset = (weekday - current + 6) % 7 + 1  // the next one, never today
        }
        guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { return nil }
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)
    }
}

extension Date {
    /// This moment without its fraction of a second, so that it survives an ISO 8601 round trip unchanged.
    public var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
