import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `--json` shape of `stats`: every key always present (`null` when there is no value), days as
/// ISO 8601 dates (`2026-11-18`), months as `2026-11`, fractional numbers to two decimals.
struct StatsJSON: Encodable {
    struct MonthJSON: Encodable {
        var month: String
        var books: Int
        var pages: Int
        var readingDays: Int
        /// Minutes of audiobooks listened to.
        var minutesListened: Int
    }

    struct WeekJSON: Encodable {
        var start: String
        var pages: Int
    }

    struct DayJSON: Encodable {
        var date: String
        var pages: Int
    }

    struct StreakJSON: Encodable {
        var days: Int
        var last: Nullable<String>
    }

    struct FinishJSON: Encodable {
        var id: String
        var title: String
        var pagesLeft: Int
        var days: Nullable<Int>
        var date: Nullable<String>
    }

    struct GoalJSON: Encodable {
        var target: Int
        var finished: Int
        var expected: Double
        var ahead: Int
        var projected: Int
    }

    var year: Int
    var today: String
    /// The days counted: 1 January to `through`; `through` is `null` for a year still to come.
    var from: String
    var through: Nullable<String>
    var pages: Int
    var books: Int
    var finishedWithoutDate: Int
    /// Books finished in the year with a rating, and their average (`null` with none).
    var rated: Int
    var averageRating: Nullable<Double>
    var readingDays: Int
    var pagesPerDay: Double
    /// Minutes read in the year, as e-readers' statistics tell them; 0 when none do.
    var minutesRead: Int
    /// Minutes of audiobooks listened to.
    var minutesListened: Int
    /// Minutes listened a day listened on.
    var minutesListenedPerDay: Double
    var currentStreak: StreakJSON
    var longestStreak: StreakJSON
    var months: [MonthJSON]
    var weeks: [WeekJSON]
    var days: [DayJSON]
    var timeToFinish: [FinishJSON]
    var goal: Nullable<GoalJSON>

    init(_ stats: ReadingStats) {
        year = stats.year
        today = stats.today.description
        from = stats.firstDay.description
        through = Nullable(stats.throughDay >= stats.firstDay ? stats.throughDay.description : nil)
        pages = stats.pages
        books = stats.books
        finishedWithoutDate = stats.finishedWithoutDate
        rated = stats.ratings.count
        averageRating = Nullable(
            stats.ratings.isEmpty ? nil : Self.twoDecimals(stats.ratings.reduce(0, +) / Double(stats.ratings.count)))
        readingDays = stats.readingDays
        pagesPerDay = Self.twoDecimals(stats.pagesPerDay)
        minutesRead = stats.minutes
        minutesListened = stats.listened
        minutesListenedPerDay = Self.twoDecimals(stats.listenedPerDay)
        currentStreak = StreakJSON(
            days: stats.currentStreak.days, last: Nullable(stats.currentStreak.last?.description))
        longestStreak = StreakJSON(
            days: stats.longestStreak.days, last: Nullable(stats.longestStreak.last?.description))
        months = stats.months.map {
            MonthJSON(
                month: "\(stats.year)-" + String($0.month).zeroPadded(to: 2), books: $0.books, pages: $0.pages,
                readingDays: $0.readingDays, minutesListened: $0.listened)
        }
        weeks = stats.weeks.map { WeekJSON(start: $0.start.description, pages: $0.pages) }
        days = stats.days.map { DayJSON(date: $0.day.description, pages: $0.pages) }
        timeToFinish = stats.timeToFinish.map {
            FinishJSON(
                id: $0.bookID, title: $0.title, pagesLeft: $0.pagesLeft, days: Nullable($0.days),
                date: Nullable($0.date?.description))
        }
        goal = Nullable(
            stats.goal.map {
                GoalJSON(
                    target: $0.target, finished: $0.finished, expected: Self.twoDecimals($0.expected), ahead: $0.ahead,
                    projected: $0.projected)
            })
    }

    /// Two decimals, and 0 for anything not finite (which JSON cannot hold).
    static func twoDecimals(_ value: Double) -> Double {
        value.isFinite ? (value * 100).rounded() / 100 : 0
    }
}

/// An optional that JSON shows as `null`, where a plain optional would leave its key out.
struct Nullable<Wrapped: Encodable>: Encodable {
    var value: Wrapped?

    init(_ value: Wrapped?) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
