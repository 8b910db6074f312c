#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Dates as bookclub shows them, in the reader's time zone, with English names whatever the locale
/// (formatted from calendar components: a `DateFormatter` costs more to make than a whole command).
public enum DateText {
    /// "Fri 20 Nov 2026"
    public static func day(_ date: Date, timeZone: Zone) -> String {
        let parts = components(date, timeZone)
        return "\(CalendarNames.weekday(parts.weekday)) \(parts.day) \(CalendarNames.month(parts.month)) \(parts.year)"
    }

    /// "Fri 20 Nov 2026 19:00"
    public static func minute(_ date: Date, timeZone: Zone) -> String {
        let parts = components(date, timeZone)
        return day(date, timeZone: timeZone) + " " + String(parts.hour).zeroPadded(to: 2) + ":"
            + String(parts.minute).zeroPadded(to: 2)
    }

    private static func components(_ date: Date, _ timeZone: Zone) -> LocalDateTime {
        timeZone.local(date)
    }

    /// `20261203T190000Z`
    static func stamp(_ date: Date) -> String {
        let c = Zone.utc.local(date)
        return String(c.year).zeroPadded(to: 4) + String(c.month).zeroPadded(to: 2) + String(c.day).zeroPadded(to: 2)
            + "T" + String(c.hour).zeroPadded(to: 2) + String(c.minute).zeroPadded(to: 2)
            + String(c.second).zeroPadded(to: 2) + "Z"
    }
}
