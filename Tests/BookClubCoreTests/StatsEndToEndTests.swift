import Foundation
import Testing

/// `bookclub stats`, run as a user would: a past year from backdated entries, checked number by number,
/// and this year against the real clock, in the runner's zone.
@Suite struct StatsEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    var calendar: Calendar { BookClubRunner.calendar }

    /// `2026-11-18`, in the runner's zone, `days` from today.
    func isoDay(_ days: Int = 0) -> String { BookClubRunner.isoDay(days) }

    func object(_ arguments: String...) throws -> [String: Any] {
        let result = try bookclub.run(arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func aPastYearFromBackdatedProgressOnTwoBooks() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let kindred = try bookclub.add("Kindred", "--pages", "264")
        for (arguments, date) in [
            (["dune", "100"], "2025-03-03"), (["dune", "180"], "2025-03-04T21:00"),
            (["kindred", "25%"], "2025-03-04T08:00"),
            (["dune", "150"], "2025-03-05"),  // a correction backwards: not reading
            (["kindred", "+34"], "2025-03-05"), (["dune", "250"], "2025-03-10"),
        ] {
            #expect(try bookclub.run(["progress"] + arguments + ["--date", date]).exitCode == 0)
        }
        #expect(try bookclub.run("finish", "dune", "--date", "2025-03-20").exitCode == 0)  // the last 162 pages
        try bookclub.run("settings", "set", "yearlyGoal", "24")

        let stats = try object("stats", "--year", "2025", "--json")
        #expect(stats["year"] as? Int == 2025)
        #expect(stats["from"] as? String == "2025-01-01")
        #expect(stats["through"] as? String == "2025-12-31")
        #expect(stats["pages"] as? Int == 512)
        #expect(stats["books"] as? Int == 1)
        #expect(stats["readingDays"] as? Int == 5)
        #expect(stats["pagesPerDay"] as? Double == 102.4)
        #expect(stats["finishedWithoutDate"] as? Int == 0)
        let days = try #require(stats["days"] as? [[String: Any]])
        #expect(
            days.map { "\($0["date"]!) \($0["pages"]!)" } == [
                "2025-03-03 100", "2025-03-04 146", "2025-03-05 34", "2025-03-10 70", "2025-03-20 162",
            ])
        let months = try #require(stats["months"] as? [[String: Any]])
        #expect(months.count == 12)
        #expect(months.map { $0["month"] as? String } == (1...12).map { String(format: "2025-%02d", $0) })
        #expect(
            months[2]["books"] as? Int == 1 && months[2]["pages"] as? Int == 512
                && months[2]["readingDays"] as? Int == 5)
        #expect(months.enumerated().allSatisfy { $0.offset == 2 || $0.element["pages"] as? Int == 0 })
        let weeks = try #require(stats["weeks"] as? [[String: Any]])
        #expect(weeks.count == 53)
        #expect(weeks.first?["start"] as? String == "2024-12-30")
        #expect(
            weeks.filter { $0["pages"] as? Int != 0 }.map { "\($0["start"]!) \($0["pages"]!)" } == [
                "2025-03-03 280", "2025-03-10 70", "2025-03-17 162",
            ])
        let longest = try #require(stats["longestStreak"] as? [String: Any])
        #expect(longest["days"] as? Int == 3 && longest["last"] as? String == "2025-03-05")
        let current = try #require(stats["currentStreak"] as? [String: Any])
        #expect(current["days"] as? Int == 0 && current["last"] is NSNull)
        // Kindred: p. 100 of 264 at 102.4 pages a reading day.
        let finish = try #require(stats["timeToFinish"] as? [[String: Any]])
        #expect(finish.count == 1)
        #expect(finish.first?["id"] as? String == kindred && finish.first?["title"] as? String == "Kindred")
        #expect(finish.first?["pagesLeft"] as? Int == 164 && finish.first?["days"] as? Int == 2)
        #expect(finish.first?["date"] as? String == isoDay(2))
        let goal = try #require(stats["goal"] as? [String: Any])
        #expect(goal["target"] as? Int == 24 && goal["finished"] as? Int == 1 && goal["expected"] as? Double == 24)
        #expect(goal["ahead"] as? Int == -23 && goal["projected"] as? Int == 1)

        let text = try bookclub.run("stats", "--year", "2025")
        #expect(text.exitCode == 0)
        #expect(text.stderr == "")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(6)) == [
                "Reading in 2025",
                "Pages    512 on 5 reading days, 102.4 a day",
                "Books    1 finished",
                "Streaks  none now; longest 3 days, to Wed 5 Mar 2025",
                "Goal     1 of 24 books: 23 short",
                "",
            ])
        #expect(lines.contains("Mar        1    512     5"))
        #expect(lines.contains("Dec        0      0     0"))
        #expect(lines.contains("Time to finish at 102.4 pages a day, your pace in 2025"))
        #expect(lines.contains { $0.hasPrefix("Kindred  164 pages left  2 days  ") })
        #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("▁"), "no charts and no colour in a pipe")
    }

    @Test func thisYearsStreakAndGoalAgainstTheClock() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Kindred", "--pages", "264")
        try bookclub.run("progress", "dune", "50", "--date", isoDay(-1) + "T10:00")
        try bookclub.run("progress", "dune", "120")
        try bookclub.run("finish", "kindred")

        let noGoal = try bookclub.run("stats")
        #expect(noGoal.exitCode == 0)
        #expect(noGoal.stderr == "Set a yearly goal with `bookclub settings set yearlyGoal 24`.\n")
        #expect(
            try bookclub.run("stats", "--quiet") == .init(stdout: noGoal.stdout, stderr: "", exitCode: 0),
            "--quiet keeps all the data")
        #expect(try bookclub.json("stats", "--json") as? [String: Any] != nil)
        #expect((try object("stats", "--json"))["goal"] is NSNull)

        #expect(try bookclub.run("settings", "set", "yearlyGoal", "24").exitCode == 0)
        #expect(try bookclub.run("settings", "get", "yearlyGoal").stdout == "24\n")
        let stats = try object("stats", "--json")
        let today = isoDay()
        let current = try #require(stats["currentStreak"] as? [String: Any])
        #expect(current["days"] as? Int == 2 && current["last"] as? String == today)
        let days = try #require(stats["days"] as? [[String: Any]])
        #expect(days.last?["date"] as? String == today)
        #expect(days.last?["pages"] as? Int == 70)  // Kindred, finished with no progress logged, is a book but no pages
        let dayOfYear = Double(calendar.ordinality(of: .day, in: .year, for: Date())!)
        let daysInYear = Double(calendar.range(of: .day, in: .year, for: Date())!.count)
        let expected = 24 * dayOfYear / daysInYear
        let goal = try #require(stats["goal"] as? [String: Any])
        #expect(goal["target"] as? Int == 24 && goal["finished"] as? Int == 1)
        #expect(goal["expected"] as? Double == (expected * 100).rounded() / 100)
        #expect(goal["ahead"] as? Int == 1 - Int(expected.rounded()))
        #expect(goal["projected"] as? Int == Int((daysInYear / dayOfYear).rounded()))

        let text = try bookclub.run("stats")
        #expect(text.stderr == "")
        let year = String(today.prefix(4))
        #expect(text.stdout.hasPrefix("Reading in \(year)"))
        #expect(text.stdout.contains("\nStreaks  2 days now; longest 2 days, to "))
        #expect(
            text.stdout.contains(
                "\nGoal     1 of 24 books; \(StatsEndToEndTests.oneDecimal(expected)) expected by today: "))
        #expect(text.stdout.contains("\nDune  292 pages left  "))

        // Charts when asked for colour (as on a terminal): a sparkline and seven rows of days.
        let charts = try bookclub.run("stats", "--color", "always")
        #expect(charts.stdout.contains("pages \u{1B}[32m"))
        for weekday in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] {
            #expect(charts.stdout.contains("\n\(weekday)   "), "\(weekday)")
        }
        #expect(charts.stdout.contains("pages a week, up to "))
        let narrow = try bookclub.run("stats", "--color", "always", environment: ["COLUMNS": "40"])
        let row = try #require(narrow.stdout.split(separator: "\n").first { $0.hasPrefix("Mon") })
        #expect(row.replacing(/\x1B\[[0-9;]*m/, with: "").count <= 40, "old weeks give way to the width")
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    @Test func anEmptyStoreAndBadYears() throws {
        defer { bookclub.cleanUp() }
        let empty = try object("stats", "--json")
        #expect(empty["pages"] as? Int == 0 && empty["readingDays"] as? Int == 0)
        #expect(empty["pagesPerDay"] as? Double == 0)
        #expect((empty["months"] as? [Any])?.count == 12)
        #expect((empty["timeToFinish"] as? [Any])?.isEmpty == true)
        let text = try bookclub.run("stats")
        #expect(text.exitCode == 0)
        #expect(text.stdout.contains("Pages    0 on 0 reading days, 0 a day\n"))
        #expect(text.stderr.contains("Log your page with `bookclub progress BOOK PAGE`."))
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath), "stats only reads")
        for year in ["abc", "1899", "10000", "2025.5", ""] {
            let bad = try bookclub.run("stats", "--year", year)
            #expect(
                bad
                    == .init(
                        stdout: "",
                        stderr: """
                            Error: The value '\(year)' is invalid for '--year <year>': expected a whole number from 1900 to 9999
                            Usage: bookclub stats [--year <year>] [--html] [--output <file>] [--open] [--no-covers] [--json]
                              See 'bookclub stats --help' for more information.

                            """, exitCode: 64), "\(year)")
        }
        let future = try object("stats", "--year", "9999", "--json")
        #expect(future["through"] is NSNull && (future["weeks"] as? [Any])?.isEmpty == true)
        #expect(try bookclub.run("settings", "set", "yearlyGoal", "-3").exitCode == 64)
    }
}
