import BookClubCore
import Foundation
import Testing

/// `ReadingStats` on hand-built libraries, with the clock fixed at Wednesday 2026-11-18 11:06:40 UTC.
@Suite struct ReadingStatsTests {
    let now = Fixture.now
    let utc = Fixture.utc

    func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text.count == 10 ? text + "T12:00:00Z" : text)!
    }

    func entry(_ when: String, page: Int? = nil, percent: Double? = nil, of pages: Int? = 400) -> ReadingProgress.Entry
    {
        let fraction = percent.map { $0 / 100 } ?? Double(page!) / Double(pages!)
        return ReadingProgress.Entry(progress: fraction, page: page, time: date(when))
    }

    func book(
        _ title: String, pages: Int? = 400, _ entries: [ReadingProgress.Entry], finished: String?? = .none,
        earlier: [Reading] = []
    ) -> Book {
        var reading = Reading(started: entries.first?.time, progress: ReadingProgress(entries: entries))
        if case .some(let day) = finished { reading.ending = Ending(outcome: .finished, date: day.map(date)) }
        return Book(id: title.lowercased(), title: title, pages: pages, added: now, readings: earlier + [reading])
    }

    func stats(_ books: [Book], zone: Zone? = nil, year: Int? = nil, goal: Int = 0, now: Date? = nil) -> ReadingStats {
        ReadingStats(
            library: Library(books: books), now: now ?? self.now, timeZone: zone ?? utc, year: year, goal: goal)
    }

    func pagesByDay(_ stats: ReadingStats) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: stats.days.map { ($0.day.description, $0.pages) })
    }

    /// Books, pages and reading days of a month.
    func month(_ stats: ReadingStats, _ number: Int) -> [Int] {
        let month = stats.months[number - 1]
        return [month.books, month.pages, month.readingDays]
    }

    func streak(_ streak: ReadingStats.Streak) -> String {
        "\(streak.days)" + (streak.last.map { " to \($0)" } ?? "")
    }

    func goal(_ goal: ReadingStats.Goal) -> String {
        "\(goal.finished) of \(goal.target), \(goal.expected) expected, \(goal.ahead) ahead, \(goal.projected) projected"
    }

    @Test func pagesGoForwardFromPageZeroAndACorrectionIsNotReadTwice() {
        let dune = book(
            "Dune",
            [
                entry("2026-11-01", page: 40),
                entry("2026-11-02", page: 100),
                entry("2026-11-03", page: 80),  // a correction backwards: no reading
                entry("2026-11-04", page: 90),  // forward again, but over pages read already: a reading day of 0 pages
                entry("2026-11-05", page: 130),  // 30 pages past the furthest, 100
            ])
        let stats = stats([dune])
        #expect(pagesByDay(stats) == ["2026-11-01": 40, "2026-11-02": 60, "2026-11-04": 0, "2026-11-05": 30])
        #expect(stats.pages == 130)
        #expect(stats.readingDays == 4)
        #expect(stats.pagesPerDay == 32.5)
        #expect(month(stats, 11) == [0, 130, 4])
        #expect(stats.months.filter { $0.month != 11 }.allSatisfy { $0.pages == 0 && $0.books == 0 })
    }

    @Test func percentEntriesGoThroughThePageCountAndABookWithoutOneReadsNoPages() {
        let kindred = book("Kindred", pages: 200, [entry("2026-11-10", percent: 25), entry("2026-11-11", percent: 40)])
        let poems = book(
            "Poems", pages: nil,
            [entry("2026-11-11", percent: 10), entry("2026-11-12", percent: 30), entry("2026-11-13", percent: 30)])
        let stats = stats([kindred, poems])
        #expect(pagesByDay(stats) == ["2026-11-10": 50, "2026-11-11": 30, "2026-11-12": 0])
        #expect(stats.readingDays == 3)
        #expect(stats.timeToFinish.map(\.title) == ["Kindred"], "only books with a page count")
    }

    @Test func aRereadStartsFromZeroAndFinishingReachesTheLastPage() {
        let first = Reading(
            started: date("2026-03-01"), progress: ReadingProgress(entries: [entry("2026-03-01", page: 100, of: 300)]),
            ending: Ending(outcome: .finished, date: date("2026-03-10")))
        let dune = book("Dune", pages: 300, [entry("2026-11-10", page: 50, of: 300)], earlier: [first])
        let imported = book("Imported", [], finished: .some(nil))
        let abandoned = Book(
            id: "abandoned", title: "Abandoned", pages: 100, added: now,
            readings: [
                Reading(
                    started: nil, progress: ReadingProgress(entries: [entry("2026-04-01", page: 20, of: 100)]),
                    ending: Ending(outcome: .abandoned, date: date("2026-04-02")))
            ])
        let stats = stats([dune, imported, abandoned])
        #expect(pagesByDay(stats) == ["2026-03-01": 100, "2026-03-10": 200, "2026-04-01": 20, "2026-11-10": 50])
        #expect(stats.months[2].books == 1)
        #expect(stats.books == 1)
        #expect(stats.finishedWithoutDate == 1)
        #expect(month(stats, 4) == [0, 20, 1], "abandoned: pages, never a book")
    }

    @Test func streaksFollowTheReadersDaysAcrossMidnight() throws {
        let tokyo = Fixture.zone("Asia/Tokyo")
        let dune = book(
            "Dune",
            [
                entry("2026-10-01", page: 10), entry("2026-10-02", page: 20), entry("2026-10-03", page: 30),
                entry("2026-10-04", page: 40),
                entry("2026-11-16T14:30:00Z", page: 50),  // 23:30 on the 16th in Tokyo
                entry("2026-11-16T15:30:00Z", page: 60),  // 00:30 on the 17th in Tokyo
                entry("2026-11-18T01:00:00Z", page: 70),  // 10:00 on the 18th; now is 20:06 there
            ])
        let inTokyo = stats([dune], zone: tokyo)
        #expect(inTokyo.today.description == "2026-11-18")
        #expect(streak(inTokyo.currentStreak) == "3 to 2026-11-18")
        #expect(streak(inTokyo.longestStreak) == "4 to 2026-10-04")
        // In UTC both late entries fall on the 16th: the 17th is a gap.
        let inUTC = stats([dune])
        #expect(inUTC.currentStreak.days == 1)
        #expect(pagesByDay(inUTC)["2026-11-16"] == 20)
        // A streak still counts the day after its last day, before that day's reading; not the day after that.
        let tomorrow = stats([dune], zone: tokyo, now: now.addingTimeInterval(86_400))
        #expect(streak(tomorrow.currentStreak) == "3 to 2026-11-18")
        #expect(streak(stats([dune], zone: tokyo, now: now.addingTimeInterval(2 * 86_400)).currentStreak) == "0")
    }

    func finishedBooks(_ count: Int) -> [Book] {
        (0..<count).map { book("Book \($0)", [], finished: .some("2026-\(String(format: "%02d", 1 + $0 % 10))-15")) }
    }

    @Test func theGoalSaysAheadOrBehindAndProjectsTheYear() {
        // 18 November is day 322 of 365.
        let behind = stats(finishedBooks(19), goal: 24).goal
        #expect(behind?.finished == 19)
        #expect(abs((behind?.expected ?? 0) - 24.0 * 322 / 365) < 1e-9)  // 21.17
        #expect(behind?.ahead == -2)
        #expect(behind?.projected == 22)  // 19 * 365 / 322 = 21.5
        let ahead = stats(finishedBooks(19), goal: 12).goal
        #expect(ahead?.ahead == 8)  // 19 against 10.6
        #expect(stats(finishedBooks(19), goal: 0).goal == nil)
        // A year gone by is measured whole; a year to come has nothing expected yet.
        let past = stats(finishedBooks(19), year: 2025, goal: 10).goal
        #expect(past.map(goal) == "0 of 10, 10.0 expected, -10 ahead, 0 projected")
        let future = stats(finishedBooks(19), year: 2027, goal: 10)
        #expect(future.goal.map(goal) == "0 of 10, 0.0 expected, 0 ahead, 0 projected")
        #expect(future.weeks.isEmpty && future.days.isEmpty)
    }

    @Test func timeToFinishAtThePace() {
        // 65 pages a reading day
        let dune = book("Dune", [entry("2026-11-16", page: 60), entry("2026-11-17", page: 130)])
        let kindred = book("Kindred", pages: 264, [entry("2026-11-17", page: 250, of: 264)])  // 250 pages that day
        let stats = stats([dune, kindred])
        #expect(stats.pagesPerDay == 190)  // 380 pages over 2 reading days
        #expect(
            stats.timeToFinish.map {
                "\($0.bookID) \($0.title) \($0.pagesLeft) \($0.days ?? -1) \($0.date?.description ?? "-")"
            } == [
                "kindred Kindred 14 1 2026-11-19",
                "dune Dune 270 2 2026-11-20",
            ])
    }

    /// Books as far from their end go by title, whatever its case, and those of one title by the
    /// library's order.
    @Test func timeToFinishTiesGoByTitleThenTheLibrary() {
        let books = ["bee", "Ant", "ant", "BEE"].enumerated().map { index, title in
            let reading = Reading(started: nil, progress: ReadingProgress(entries: [entry("2026-11-17", page: 100)]))
            return Book(id: "b\(index)", title: title, pages: 400, added: now, readings: [reading])
        }
        #expect(stats(books).timeToFinish.map(\.bookID) == ["b1", "b2", "b0", "b3"])
    }

    @Test func anEmptyLibraryAndAYearWithNothingAreZerosNotNaN() {
        let empty = stats([])
        #expect(empty.pages == 0 && empty.books == 0 && empty.readingDays == 0)
        #expect(empty.pagesPerDay == 0)
        #expect(streak(empty.currentStreak) == "0" && streak(empty.longestStreak) == "0")
        #expect(empty.months.count == 12)
        #expect(empty.weeks.first?.start.description == "2025-12-29")  // the Monday before Thursday 1 January
        #expect(empty.weeks.last?.start.description == "2026-11-16")
        #expect(empty.weeks.count == 47)
        #expect(empty.timeToFinish.isEmpty && empty.goal == nil)

        let dune = book("Dune", [entry("2026-11-16", page: 60)])
        let lastYear = stats([dune], year: 2025)
        #expect(lastYear.pages == 0 && lastYear.pagesPerDay == 0 && lastYear.days.isEmpty)
        #expect(lastYear.throughDay.description == "2025-12-31")
        #expect(lastYear.weeks.count == 53)
        #expect(lastYear.weeks.allSatisfy { $0.pages == 0 })
        #expect(lastYear.longestStreak.days == 1, "streaks are over all history")
        #expect(lastYear.timeToFinish.first?.days == nil, "no pace in that year to go by")
    }

    @Test func weeksCountOnlyTheYearsDays() {
        let dune = book(
            "Dune", [entry("2025-12-30", page: 30), entry("2026-01-02", page: 50), entry("2026-01-05", page: 60)])
        let stats = stats([dune])
        #expect(stats.weeks.prefix(2).map { "\($0.start) \($0.pages)" } == ["2025-12-29 20", "2026-01-05 10"])
        #expect(stats.pages == 30)
    }

    @Test func daysOnTheReadersCalendar() {
        let day = ReadingStats.Day(year: 2026, month: 11, day: 18)
        #expect(day.description == "2026-11-18")
        #expect(day.weekday == 3)  // Wednesday
        #expect((day.year, day.month, day.day) == (2026, 11, 18))
        #expect(day.adding(14).description == "2026-12-02")
        #expect(ReadingStats.Day(now, in: Fixture.zone("Pacific/Kiritimati")).description == "2026-11-19")
        #expect(ReadingStats.Day(year: 1900, month: 1, day: 1).weekday == 1)
    }
}
