#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A year of reading in numbers: pages and books a month, reading days, pace, streaks, when each book
/// being read will be done, and where you stand against a yearly goal.
///
/// ```swift
/// let library = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
/// let stats = ReadingStats(library: library, now: Date(), timeZone: .current, goal: 24)
/// print(stats.pages, stats.pagesPerDay, stats.currentStreak.days)
/// ```
///
/// What counts, day by day in the reader's time zone:
/// - **Pages read** in an entry: how far it goes past the furthest page reached before it in the same
///   reading. A reading starts at page 0, so its first entry counts from there (a re-read is a new
///   reading and starts at 0 again). A backwards correction reads nothing, and the pages it takes back
///   are not counted twice when read again. An entry in percent is turned into pages with the book's
///   page count; a book without one reads no pages. Finishing a reading on a known date counts as an
///   entry at the last page (or at 100%) that day, if any progress was logged in it: a reading finished
///   with none (an imported one) is a book, but its pages fall on no known day.
/// - A **reading day** has at least one entry that moved forward from the entry before it (in pages,
///   or in percent for a book without a page count), even by no new pages.
/// - **Books** are readings finished in the year, by the date they were finished; a reading finished on
///   an unknown date is in no month or year, and is counted apart, over all years
///   (`finishedWithoutDate`). Abandoned readings count their pages, never as books.
/// - The year's numbers run from 1 January to today (the whole year for a past one; nothing for a
///   future one). **Pace** is the year's pages over its reading days.
/// - **Streaks** ignore the year: the current streak is the run of reading days that ends today, or
///   yesterday when there was no reading yet today; the longest is over all history.
/// - **Time to finish**: for each book being read that has a page count, the pages left over the pace,
///   rounded up, in reading days; the date assumes you read every day from tomorrow.
/// - **Goal**: books finished in the year against the goal times the fraction of the year's days that
///   have begun (today included); the projection keeps the year's rate to its end.
public struct ReadingStats: Equatable, Sendable {
    /// One month of the year.
    public struct Month: Equatable, Sendable {
        /// 1 (January) to 12.
        public var month: Int
        public var books: Int
        public var pages: Int
        public var readingDays: Int
        /// Minutes read, as e-readers' statistics tell them; 0 when none do.
        public var minutes = 0
        /// Minutes of audiobooks listened to.
        public var listened = 0
    }

    /// A reading finished in the year, as the year's list of books shows it.
    public struct Finished: Equatable, Sendable {
        public var bookID: Book.ID
        public var title: String
        public var author: String?
        public var pages: Int?
        public var tags: [String]
        public var coverName: String?
        public var started: Day?
        public var finished: Day
        public var rating: Double?
        /// A second or later reading of the book.
        public var isReread: Bool
        /// How that reading was read, when said (its own format, else the book's).
        public var format: Book.Format? = nil

        /// Days from the start to the finish, both counted; `nil` when the start is unknown.
        public var days: Int? { started.map { max(1, finished.number - $0.number + 1) } }
    }

    /// A reading day and the pages read on it (0 for a book without a page count).
    public struct DayTotal: Equatable, Sendable {
        public var day: Day
        public var pages: Int
    }

    /// A week, Monday to Sunday: the pages read on those of its days that are in the year.
    public struct WeekTotal: Equatable, Sendable {
        /// The Monday; the first week of a year may start in the year before.
        public var start: Day
        public var pages: Int
    }

    /// Consecutive reading days.
    public struct Streak: Equatable, Sendable {
        public var days: Int
        /// The last day of the streak; `nil` when there is none.
        public var last: Day?
    }

    /// When a book being read will be done at the pace.
    public struct Finish: Equatable, Sendable {
        public var bookID: Book.ID
        public var title: String
        public var pagesLeft: Int
        /// Reading days to go; `nil` while there is no pace to go by.
        public var days: Int?
        /// Today plus `days`.
        public var date: Day?
    }

    /// Where you stand against the yearly goal.
    public struct Goal: Equatable, Sendable {
        /// Books to finish in the year.
        public var target: Int
        public var finished: Int
        /// The goal times the fraction of the year gone by.
        public var expected: Double
        /// Books finished over `expected` rounded to whole books; negative when behind.
        public var ahead: Int
        /// Books finished by the year's end at the rate so far.
        public var projected: Int
    }

    public var year: Int
    public var today: Day
    /// 1 January and 31 December.
    public var firstDay: Day
    public var lastDay: Day
    /// The last day counted: today in the current year, 31 December in a past one, and the day before
    /// `firstDay` in a future one.
    public var throughDay: Day
    /// All twelve months, January first.
    public var months: [Month]
    /// The year's reading days, in order.
    public var days: [DayTotal]
    /// The weeks from the one holding 1 January to the one holding `throughDay`.
    public var weeks: [WeekTotal]
    public var pages: Int
    /// Readings finished in the year.
    public var books: Int
    /// Readings finished on an unknown date, in any year.
    public var finishedWithoutDate: Int
    /// The ratings of the readings finished in the year (a reading's own, else, for a book's latest
    /// reading, the book's), in the order met.
    public var ratings: [Double] = []
    /// Pages a reading day in the year; 0 when there is none.
    public var pagesPerDay: Double
    /// Minutes read in the year, as e-readers' statistics tell them; 0 when none do.
    public var minutes: Int
    /// Minutes of audiobooks listened to in the year: how far each entry moved past the furthest
    /// place before it (a correction backwards counts nothing, nor does hearing it again).
    public var listened = 0
    /// Minutes listened a day the reader listened on; 0 when there is none: the pace of the ear.
    public var listenedPerDay: Double = 0
    /// The readings finished in the year, in the order they were finished.
    public var finished: [Finished]
    /// Readings abandoned in the year.
    public var abandoned: Int
    public var currentStreak: Streak
    public var longestStreak: Streak
    /// Books being read that have a page count, soonest done first.
    public var timeToFinish: [Finish]
    /// `nil` when there is no goal.
    public var goal: Goal?

    public var readingDays: Int { days.count }

    /// Works the statistics out in one pass over every entry.
    ///
    /// - Parameters:
    ///   - library: with every book's full history loaded.
    ///   - now: the clock; "today" is its day in `timeZone`.
    ///   - timeZone: where days begin and end.
    ///   - year: the year to report; `nil` for the current one.
    ///   - goal: books to finish in the year; 0 for no goal.
    public init(library: Library, now: Date, timeZone: Zone, year: Int? = nil, goal: Int = 0) {
        var counter = Counter(now: now, timeZone: timeZone, year: year)
        for book in library.books { counter.count(book) }
        self.init(counter, library: library, goal: goal)
    }

    /// The entries of books counted one at a time, each with its full history, so that a library too
    /// large to hold with every entry is counted a few books at a time.
    public struct Counter: Sendable {
        let today: Day
        let year: Int
        let timeZone: Zone
        /// The days of the year counted: to today.
        let counted: Range<Int>
        /// Every reading day ever (for the streaks) with its pages.
        var pagesByDay: [Int: DayCount] = [:]
        var booksByMonth = Array(repeating: 0, count: 12)
        var finishedWithoutDate = 0
        var ratings: [Double] = []
        var minutesByMonth = Array(repeating: 0, count: 12)
        /// Minutes listened, by day.
        var listenedByDay: [Int: Int] = [:]
        var finished: [Finished] = []
        var abandoned = 0

        /// - Parameters: as `ReadingStats.init(library:now:timeZone:year:goal:)`'s.
        public init(now: Date, timeZone: Zone, year: Int? = nil) {
            today = Day(now, in: timeZone)
            self.year = year ?? today.year
            self.timeZone = timeZone
            let firstDay = Day(year: self.year, month: 1, day: 1)
            let throughDay = min(Day(year: self.year, month: 12, day: 31), max(firstDay.adding(-1), today))
            counted = firstDay.number..<throughDay.number + 1
        }

        /// Counts a book, with its full history loaded.
        public mutating func count(_ book: Book) {
            for reading in book.readings {
                var tally = ReadingTally(book, reading)
                for entry in reading.progress.entries { add(entry, to: &tally) }
                end(reading, of: book, tally)
            }
        }

        /// Counts every book of `walk`, reading its history once (`HistoryWalk.forEachEntry`), or else a
        /// few books at a time.
        public mutating func count(_ walk: HistoryWalk) throws {
            let books = walk.library.books
            let tallies = books.flatMap { book in book.readings.map { ReadingTally(book, $0) } }
            var empty = self
            (empty.pagesByDay, empty.listenedByDay, empty.minutesByMonth) = ([:], [:], Array(repeating: 0, count: 12))
            let parts = try walk.forEachEntry((counter: empty, tallies: tallies)) { part, place, entry in
                part.counter.add(entry, to: &part.tallies[place])
            } takingBack: { part, place, entries in
                // What the entries added, counted again from the reading's start, is taken away.
                var added = empty
                var tally = tallies[place]
                for entry in entries { added.add(entry, to: &tally) }
                part.counter.takeAway(added)
                part.tallies[place] = tallies[place]
            }
            guard let parts else { return try walk.forEachBook { count($0) } }
            for part in parts {
                pagesByDay.merge(part.counter.pagesByDay) { $0.adding($1) }
                listenedByDay.merge(part.counter.listenedByDay, uniquingKeysWith: +)
                for month in minutesByMonth.indices { minutesByMonth[month] += part.counter.minutesByMonth[month] }
            }
            // Each reading's tally is its own part's, the one that counted an entry of it.
            var place = 0
            for book in books {
                for reading in book.readings {
                    end(
                        reading, of: book,
                        parts.lazy.map { $0.tallies[place] }.first { $0.entries > 0 } ?? tallies[place])
                    place += 1
                }
            }
        }

        /// Counts an entry of the reading `tally` follows.
        private mutating func add(_ entry: ReadingProgress.Entry, to tally: inout ReadingTally) {
            let day = timeZone.day(of: entry.time)
            if let length = tally.heardLength {
                let place = entry.listened ?? Int((entry.progress * Double(length)).rounded())
                if place > tally.furthestPlace, counted.contains(day) {
                    listenedByDay[day, default: 0] += place - tally.furthestPlace
                }
                tally.furthestPlace = max(tally.furthestPlace, place)
            }
            if let read = tally.advance(fraction: entry.progress, page: entry.page) {
                pagesByDay[day, default: DayCount()].add(read)
            }
            if let spent = entry.minutes, counted.contains(day) {
                minutesByMonth[Day(number: day).month - 1] += spent
            }
            tally.entries += 1
        }

        /// Takes away the days and minutes another counter counted, which this one counted too.
        private mutating func takeAway(_ other: Counter) {
            for (day, count) in other.pagesByDay {
                let left = pagesByDay[day, default: DayCount()].adding(
                    DayCount(pages: -count.pages, entries: -count.entries))
                pagesByDay[day] = left.entries > 0 ? left : nil
            }
            for (day, listened) in other.listenedByDay {
                let left = listenedByDay[day, default: 0] - listened
                listenedByDay[day] = left > 0 ? left : nil
            }
            for month in minutesByMonth.indices { minutesByMonth[month] -= other.minutesByMonth[month] }
        }

        /// Counts how a reading ended, once its entries are.
        private mutating func end(_ reading: Reading, of book: Book, _ tally: ReadingTally) {
            var tally = tally
            if let ending = reading.ending, ending.outcome == .abandoned, let date = ending.date,
                counted.contains(timeZone.day(of: date))
            {
                abandoned += 1
            }
            guard let ending = reading.ending, ending.outcome == .finished else { return }
            guard let date = ending.date else {
                finishedWithoutDate += 1
                return
            }
            let day = timeZone.day(of: date)
            // A reading with no progress logged (an import, say) is a book, but when its pages
            // were read is unknown: they make no reading day, and no pace.
            if tally.entries > 0, let read = tally.advance(fraction: 1, page: book.pages) {
                pagesByDay[day, default: DayCount()].add(read)
            }
            if counted.contains(day) {
                booksByMonth[Day(number: day).month - 1] += 1
                let isLatest = reading.id == book.readings.last?.id
                let rating = ending.rating ?? (isLatest ? book.rating : nil)
                if let rating { ratings.append(rating) }
                finished.append(
                    Finished(
                        bookID: book.id, title: book.title, author: book.author, pages: book.pages,
                        tags: book.tags, coverName: book.coverName,
                        started: reading.started.map { Day(number: timeZone.day(of: $0)) },
                        finished: Day(number: day), rating: rating,
                        isReread: reading.id != book.readings.first?.id, format: reading.format ?? book.format))
            }
        }
    }

    /// The statistics of the books counted.
    ///
    /// - Parameters:
    ///   - library: every book, with its latest entries at least (for the time to finish).
    ///   - goal: books to finish in the year; 0 for no goal.
    public init(_ counter: Counter, library: Library, goal: Int = 0) {
        today = counter.today
        year = counter.year
        firstDay = Day(year: year, month: 1, day: 1)
        lastDay = Day(year: year, month: 12, day: 31)
        throughDay = Day(number: counter.counted.upperBound - 1)
        let counted = counter.counted
        let pagesByDay = counter.pagesByDay.mapValues(\.pages)
        let booksByMonth = counter.booksByMonth
        finishedWithoutDate = counter.finishedWithoutDate
        ratings = counter.ratings
        minutes = counter.minutesByMonth.reduce(0, +)
        listened = counter.listenedByDay.values.reduce(0, +)
        listenedPerDay = counter.listenedByDay.isEmpty ? 0 : Double(listened) / Double(counter.listenedByDay.count)
        finished = counter.finished.enumerated().sorted {
            ($0.element.finished, $0.offset) < ($1.element.finished, $1.offset)
        }.map(\.element)
        abandoned = counter.abandoned

        days = pagesByDay.filter { counted.contains($0.key) }.map {
            DayTotal(day: Day(number: $0.key), pages: $0.value)
        }
        .sorted { $0.day < $1.day }
        months = (1...12).map {
            Month(
                month: $0, books: booksByMonth[$0 - 1], pages: 0, readingDays: 0,
                minutes: counter.minutesByMonth[$0 - 1])
        }
        for (day, minutes) in counter.listenedByDay { months[Day(number: day).month - 1].listened += minutes }
        for total in days {
            months[total.day.month - 1].pages += total.pages
            months[total.day.month - 1].readingDays += 1
        }
        pages = days.reduce(0) { $0 + $1.pages }
        books = booksByMonth.reduce(0, +)
        pagesPerDay = days.isEmpty ? 0 : Double(pages) / Double(days.count)

        weeks = []
        if throughDay >= firstDay {
            var monday = firstDay.adding(1 - firstDay.weekday)
            while monday <= throughDay {
                let week = max(monday.number, firstDay.number)...min(monday.number + 6, throughDay.number)
                weeks.append(WeekTotal(start: monday, pages: week.reduce(0) { $0 + (pagesByDay[$1] ?? 0) }))
                monday = monday.adding(7)
            }
        }

        var streakEnd = pagesByDay[today.number] == nil ? today.number - 1 : today.number
        var streak = 0
        while pagesByDay[streakEnd - streak] != nil { streak += 1 }
        currentStreak = Streak(days: streak, last: streak > 0 ? Day(number: streakEnd) : nil)
        longestStreak = Streak(days: 0, last: nil)
        streak = 0
        streakEnd = Int.min
        for day in pagesByDay.keys.sorted() {
            streak = day == streakEnd + 1 ? streak + 1 : 1
            streakEnd = day
            // The latest of equally long streaks.
            if streak >= longestStreak.days { longestStreak = Streak(days: streak, last: Day(number: day)) }
        }

        let pace = pagesPerDay
        let today = today
        let finishes = library.books.compactMap { book -> Finish? in
            guard book.status == .reading, let pages = book.pages else { return nil }
            let left = max(0, pages - (book.currentPage ?? 0))
            let days = pace > 0 ? Int((Double(left) / pace).rounded(.up)) : nil
            return Finish(
                bookID: book.id, title: book.title, pagesLeft: left, days: days, date: days.map { today.adding($0) })
        }
        // Each title lowered once, not once a comparison (thousands of books being read).
        let keys = finishes.map { ($0.days ?? .max, $0.title.lowercased()) }
        timeToFinish = keys.indices.sorted { keys[$0] < keys[$1] }.map { finishes[$0] }

        self.goal = nil
        if goal > 0 {
            let daysInYear = lastDay.number - firstDay.number + 1
            let elapsed = throughDay.number - firstDay.number + 1
            let expected = Double(goal) * Double(elapsed) / Double(daysInYear)
            let projected = elapsed > 0 ? Int((Double(books) * Double(daysInYear) / Double(elapsed)).rounded()) : 0
            self.goal = Goal(
                target: goal, finished: books, expected: expected, ahead: books - Int(expected.rounded()),
                projected: projected)
        }
    }
}

extension ReadingStats {
    /// A day on the reader's calendar, as the number of days since 1 January 1970 on that calendar.
    public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
        public let number: Int

        public init(number: Int) {
            self.number = number
        }

        /// The day `date` falls on in `timeZone`.
        public init(_ date: Date, in timeZone: Zone) {
            number = timeZone.day(of: date)
        }

        /// The day of a (proleptic Gregorian) date; a month or day past its end runs on into the next.
        public init(year: Int, month: Int, day: Int) {
            number = LocalDateTime.days(year: year, month: month, day: day)
        }

        private var components: (year: Int, month: Int, day: Int) { LocalDateTime.civil(fromDays: number) }

        public var year: Int { components.year }
        /// 1 (January) to 12.
        public var month: Int { components.month }
        /// 1 to 31.
        public var day: Int { components.day }
        /// 1 (Monday) to 7 (Sunday).
        public var weekday: Int { ((number + 3) % 7 + 7) % 7 + 1 }  // 1 January 1970 was a Thursday

        public func adding(_ days: Int) -> Day { Day(number: number + days) }

        /// `2026-11-18`
        public var description: String {
            let parts = components
            return LocalDateTime(year: parts.year, month: parts.month, day: parts.day).isoDay
        }

        public static func < (lhs: Day, rhs: Day) -> Bool { lhs.number < rhs.number }
    }
}

/// How far one reading has gone, entry by entry, and what each entry adds to its day.
private struct ReadingTally {
    let pages: Int?
    /// The book's length, when the reading is heard.
    let heardLength: Int?
    private var previousPage = 0
    private var furthestPage = 0
    private var previousFraction = 0.0
    /// The furthest place listened to, in minutes.
    var furthestPlace = 0
    /// The entries counted.
    var entries = 0

    init(_ book: Book, _ reading: Reading) {
        pages = book.pages
        heardLength = book.isHeard(reading) ? book.length : nil
    }

    /// Moves to an entry's place: the pages it read when it moved forward (0 for a book without a page
    /// count), `nil` when it did not.
    mutating func advance(fraction: Double, page: Int?) -> Int? {
        let advanced: Bool
        var read = 0
        if let pages {
            let position = min(page ?? Int((fraction * Double(pages)).rounded()), pages)
            advanced = position > previousPage
            read = max(0, position - furthestPage)
            furthestPage = max(furthestPage, position)
            previousPage = position
        } else {
            advanced = fraction > previousFraction
        }
        previousFraction = fraction
        return advanced ? read : nil
    }
}

/// A reading day's pages, and the entries that moved forward on it: an entry taken away takes the
/// day with it when it was the day's only one.
struct DayCount: Equatable, Sendable {
    var pages = 0
    var entries = 0

    mutating func add(_ read: Int) {
        pages += read
        entries += 1
    }

    func adding(_ other: DayCount) -> DayCount {
        DayCount(pages: pages + other.pages, entries: entries + other.entries)
    }
}
