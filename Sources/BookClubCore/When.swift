#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `WHEN` argument: `today`, `yesterday`, an ISO 8601 date (`2026-11-20`) or date and time
/// (`2026-11-20T19:00`, `2026-11-20T19:00:30Z`, `2026-11-20T19:00+01:00`).
public enum When {
    /// The moment `text` names, in `timeZone` unless it carries an offset. `today` is `now`; `yesterday`
    /// is the same time a day earlier; a bare date means noon of that day. `nil` when it is not a date.
    public static func parse(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        switch text.lowercased() {
        case "today", "now": return now
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: now)
        default: break
        }
        let pattern = /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?/
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

extension Date {
    /// This moment without its fraction of a second, so that it survives an ISO 8601 round trip unchanged.
    public var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
