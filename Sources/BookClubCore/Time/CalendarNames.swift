/// The English names of months and weekdays, the one list of them: bookclub shows dates in English
/// whatever the locale (`Fri 20 Nov 2026`), and reads them so (`20 nov`, `last friday`).
///
///     CalendarNames.month(11)   // "Nov"
///     CalendarNames.weekday(6)  // "Fri"
public enum CalendarNames {
    /// "January" to "December".
    public static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    /// "Sunday" to "Saturday": Sunday first, as `LocalDateTime.weekday` numbers them.
    public static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    private static let shortMonths = months.map { String($0.prefix(3)) }
    private static let shortWeekdays = weekdays.map { String($0.prefix(3)) }

    /// "Jan" for 1 to "Dec" for 12, counted round (13 is "Jan").
    public static func month(_ month: Int) -> String { shortMonths[(month - 1).floorModulo(12)] }

    /// "Sun" for 1 (Sunday) to "Sat" for 7, counted round (8 is "Sun").
    public static func weekday(_ weekday: Int) -> String { shortWeekdays[(weekday - 1).floorModulo(7)] }
}
