import Foundation

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
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?$"#
        guard let match = text.range(of: pattern, options: .regularExpression), match == text.startIndex..<text.endIndex
        else { return nil }
        let digits = text.split { !$0.isNumber }.compactMap { Int($0) }
        guard digits.count >= 3 else { return nil }
        var components = DateComponents()
        components.year = digits[0]
        components.month = digits[1]
        components.day = digits[2]
        let hasTime = text.contains("T") || text.contains(" ")
        components.hour = hasTime ? digits[3] : 12
        components.minute = hasTime ? digits[4] : 0
        components.second = 0
        if hasTime, text.count > 16, text[text.index(text.startIndex, offsetBy: 16)] == ":" {
            components.second = digits[5]
        }
        guard (1...9999).contains(digits[0]), (1...12).contains(digits[1]), (1...31).contains(digits[2]),
            (0...23).contains(components.hour!), (0...59).contains(components.minute!), (0...59).contains(components.second!)
        else { return nil }
        var zone = timeZone
        if let offset = text.range(of: #"(Z|[+-]\d{2}:?\d{2})$"#, options: .regularExpression), hasTime {
            let suffix = text[offset].replacingOccurrences(of: ":", with: "")
            if suffix == "Z" {
                zone = TimeZone(secondsFromGMT: 0)!
            } else {
                let sign = suffix.hasPrefix("-") ? -1 : 1
                let value = Int(suffix.dropFirst())!
                guard let parsed = TimeZone(secondsFromGMT: sign * ((value / 100) * 3600 + (value % 100) * 60)) else { return nil }
                zone = parsed
            }
        }
        calendar.timeZone = zone
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == digits[2]  // refuses 2026-02-30
        else { return nil }
        return date
    }
}

extension Date {
    /// This moment without its fraction of a second, so that it survives an ISO 8601 round trip unchanged.
    public var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
