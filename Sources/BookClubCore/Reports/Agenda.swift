#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where you stand against an upcoming meeting's target, and the pace that gets you there.
public struct AgendaItem: Equatable, Sendable {
    public enum Standing: String, Codable, Sendable {
        /// The target is reached already.
        case reached
        /// At your recent pace you reach the target in time.
        case onTrack
        /// At your recent pace you miss the target.
        case behind
        /// There is no target, or no book, to measure against.
        case unknown
    }

    public var club: Club
    public var meeting: Meeting
    public var book: Book?
    /// The target as a page, when the book's page count or the target's page is known.
    public var targetPage: Int?
    /// The target as a fraction of the book.
    public var targetFraction: Double?
    public var currentPage: Int?
    public var pagesToGo: Int?
    /// Days from now to the meeting (fractional).
    public var daysLeft: Double
    /// The pages a day that reach the target in time.
    public var pagesPerDay: Double?
    /// Your pace over the last two weeks of this reading, in pages a day.
    public var recentPagesPerDay: Double?
    public var standing: Standing
    /// For an audiobook the same in minutes: where you are, the minutes to go, the minutes a day that
    /// reach the target, and your recent pace.
    public var currentListened: Int? = nil
    public var minutesToGo: Int? = nil
    public var minutesPerDay: Double? = nil
    public var recentMinutesPerDay: Double? = nil
}

public enum Agenda {
    /// How many days back your recent pace is measured.
    public static let paceWindowDays = 14.0

    /// The meetings of every club from `now` to `days` days later, in date order, each with where you
    /// stand. The meetings' books come with their histories (for the recent pace: see `meetings`).
    ///
    /// - Throws: `BookClubError.historyNotLoaded` when the recent pace of a book loaded without its
    ///   history is needed.
    public static func items(in library: Library, clubs: [Club]? = nil, now: Date, days: Int) throws -> [AgendaItem] {
        try meetings(of: clubs ?? library.clubs, now: now, days: days).map { club, meeting in
            try item(club: club, meeting: meeting, library: library, now: now)
        }
    }

    /// The meetings of `clubs` from `now` to `days` days later, in date order, with their clubs: those
    /// `items` reports.
    public static func meetings(of clubs: [Club], now: Date, days: Int) -> [(club: Club, meeting: Meeting)] {
        let end = now.addingTimeInterval(Double(days) * 86_400)
        return clubs.flatMap { club in
            club.meetings.filter { $0.date >= now && $0.date <= end }.map { (club, $0) }
        }
        .sorted { $0.meeting.date < $1.meeting.date }
    }

    public static func item(club: Club, meeting: Meeting, library: Library, now: Date) throws -> AgendaItem {
        let book = meeting.bookID.flatMap { library[id: $0] }
        let daysLeft = max(0, meeting.date.timeIntervalSince(now) / 86_400)
        var item = AgendaItem(
            club: club, meeting: meeting, book: book, targetPage: nil, targetFraction: nil, currentPage: nil,
            pagesToGo: nil, daysLeft: daysLeft, pagesPerDay: nil, recentPagesPerDay: nil, standing: .unknown)
        guard let book, let target = meeting.target, let fraction = target.fraction(of: book.pages) else { return item }
        item.targetFraction = fraction
        item.targetPage = target.page(of: book.pages)
        if book.currentProgress >= fraction - 1e-9 {
            item.standing = .reached
            item.currentPage = book.currentPage
            item.pagesToGo = 0
            return item
        }
        // An hour at least, so that a meeting about to start does not ask for infinite pages a day.
        let days = max(daysLeft, 1.0 / 24)
        if book.isHeard(book.currentReading), let length = book.length {
            let current = book.status == .reading ? book.currentListened ?? 0 : 0
            item.currentListened = current
            item.minutesToGo = max(0, Int((fraction * Double(length)).rounded()) - current)
            item.minutesPerDay = Double(item.minutesToGo!) / days
            guard let pace = try recentPace(of: book, pages: length, now: now) else { return item }
            item.recentMinutesPerDay = pace
            item.standing = pace >= item.minutesPerDay! ? .onTrack : .behind
            return item
        }
        guard let pages = book.pages, let targetPage = item.targetPage else { return item }
        let current = book.status == .reading ? book.currentPage ?? 0 : 0
        item.currentPage = current
        item.pagesToGo = max(0, targetPage - current)
        item.pagesPerDay = Double(item.pagesToGo!) / days
        guard let pace = try recentPace(of: book, pages: pages, now: now) else { return item }
        item.recentPagesPerDay = pace
        item.standing = pace >= item.pagesPerDay! ? .onTrack : .behind
        return item
    }

    /// Pages a day (minutes, with an audiobook's length as `pages`) over the last `paceWindowDays` of
    /// the current reading: from a baseline (the last entry before the window, else the first entry in
    /// it) to the latest entry, over the days since.
    /// 0 with no entry in the window; `nil` when one entry is all there is to go by.
    static func recentPace(of book: Book, pages: Int, now: Date) throws -> Double? {
        guard let reading = book.currentReading, let latest = reading.progress.latest else { return 0 }
        let windowStart = now.addingTimeInterval(-paceWindowDays * 86_400)
        guard latest.time >= windowStart else { return 0 }
        let entries = try reading.progress.wholeEntries(of: book.title)
        guard
            let baseline = entries.last(where: { $0.time < windowStart })
                ?? entries.first(where: { $0.time >= windowStart }), baseline != latest
        else { return nil }
        let days = max(1, now.timeIntervalSince(max(baseline.time, windowStart)) / 86_400)
        return max(0, Double(pages) * (latest.progress - baseline.progress)) / days
    }
}
