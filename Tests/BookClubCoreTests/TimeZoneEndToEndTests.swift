import Foundation
import Testing

/// The built binary in the reader's own zone (set here, whatever zone the suite runs under): what is
/// logged, shown and exported on both sides of a daylight-saving change, in New York (as a zone name
/// and as a POSIX rule) and in Kolkata.
@Suite struct TimeZoneEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    func entries(_ tz: String) throws -> [[String: Any]] {
        let result = try bookclub.run(["show", "dune", "--json"], environment: ["TZ": tz])
        let book = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require((book["readings"] as? [[String: Any]])?.last?["entries"] as? [[String: Any]])
    }

    @Test(arguments: ["America/New_York", "EST5EDT,M3.2.0,M11.1.0", ":America/New_York"])
    func newYorkTimesAreStoredInUTCAndShownInNewYork(_ tz: String) throws {
        defer { bookclub.cleanUp() }
        let env = ["TZ": tz]
        _ = try bookclub.run(["add", "Dune", "--pages", "412"], environment: env)
        #expect(
            try bookclub.run(["progress", "dune", "10", "--date", "2026-10-31T19:00"], environment: env).exitCode == 0)
        #expect(
            try bookclub.run(
                ["progress", "dune", "20", "--date", "2026-11-20T19:00", "--note", "after the change"], environment: env
            ).exitCode == 0)
        #expect(try entries(tz).map { $0["time"] as? String } == ["2026-10-31T23:00:00Z", "2026-11-21T00:00:00Z"])
        let show = try bookclub.run(["show", "dune"], environment: env)
        #expect(show.stdout.contains("Sat 31 Oct 2026 19:00"), "\(show.stdout)")
        #expect(show.stdout.contains("Fri 20 Nov 2026 19:00"), "\(show.stdout)")
        #expect(show.stdout.contains("started Sat 31 Oct 2026"))
        // Read in UTC, the same moments.
        #expect(
            try bookclub.run(["show", "dune"], environment: ["TZ": "UTC"]).stdout.contains("Sat 21 Nov 2026 00:00"))
        // A finish in the evening is that evening's day in the Goodreads CSV.
        #expect(try bookclub.run(["finish", "dune", "--date", "2026-11-21 21:30"], environment: env).exitCode == 0)
        let csv = try bookclub.run(["export", "--format", "csv"], environment: env).stdout
        #expect(csv.contains(",2026/11/21,"), "\(csv)")
    }

    @Test func kolkataSplitsDaysAtItsOwnMidnight() throws {
        defer { bookclub.cleanUp() }
        let env = ["TZ": "Asia/Kolkata"]
        _ = try bookclub.run(["add", "Dune", "--pages", "412"], environment: env)
        #expect(
            try bookclub.run(["progress", "dune", "10", "--date", "2026-11-20T23:45"], environment: env).exitCode == 0)
        #expect(try bookclub.run(["progress", "dune", "20", "--date", "2026-11-21"], environment: env).exitCode == 0)
        #expect(
            try entries("Asia/Kolkata").map { $0["time"] as? String } == [
                "2026-11-20T18:15:00Z", "2026-11-21T06:30:00Z",
            ])
        let show = try bookclub.run(["show", "dune"], environment: env).stdout
        #expect(show.contains("Fri 20 Nov 2026 23:45") && show.contains("Sat 21 Nov 2026 12:00"), "\(show)")
    }

    /// `last friday` and `2 days ago` land on the days a person means, at noon there.
    @Test(arguments: ["America/New_York", "Asia/Kolkata", "UTC"])
    func datesAsPeopleSayThem(_ tz: String) throws {
        defer { bookclub.cleanUp() }
        let env = ["TZ": tz]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: tz)!
        func noon(_ date: Date) -> String {
            let day = calendar.dateComponents([.year, .month, .day], from: date)
            return ISO8601DateFormatter().string(
                from: calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!)
        }
        let today = Date()
        let weekday = calendar.component(.weekday, from: today)  // 6: Friday
        let lastFriday = calendar.date(byAdding: .day, value: -((weekday - 6 + 6) % 7 + 1), to: today)!
        let twoDaysAgo = calendar.date(byAdding: .day, value: -2, to: today)!
        _ = try bookclub.run(["add", "Dune", "--pages", "412"], environment: env)
        #expect(try bookclub.run(["progress", "dune", "40", "--date", "last friday"], environment: env).exitCode == 0)
        #expect(try bookclub.run(["progress", "dune", "50", "--date", "2 days ago"], environment: env).exitCode == 0)
        #expect(try bookclub.run(["progress", "dune", "60", "--date=-1d"], environment: env).exitCode == 0)
        let times = try entries(tz).map { $0["time"] as? String }
        #expect(
            Set(times)
                == Set([noon(lastFriday), noon(twoDaysAgo), noon(calendar.date(byAdding: .day, value: -1, to: today)!)])
        )
        let future = try bookclub.run(["progress", "dune", "70", "--date", "tomorrow"], environment: env)
        #expect(future.exitCode == 64 && future.stderr.contains("that is in the future"))
        let unread = try bookclub.run(["progress", "dune", "70", "--date", "the other day"], environment: env)
        #expect(unread.exitCode == 64)
        #expect(
            unread.stderr.hasPrefix(
                "Error: The value 'the other day' is invalid for '--date <when>': expected a date such as today, yesterday, friday, last friday"
            ))
    }

    @Test func anEndBeforeTheStartIsRefusedAndABackdatedEntryMovesTheStart() throws {
        defer { bookclub.cleanUp() }
        let env = ["TZ": "America/New_York"]
        _ = try bookclub.run(["add", "Dune", "--pages", "412"], environment: env)
        #expect(try bookclub.run(["progress", "dune", "50", "--date", "2026-11-10"], environment: env).exitCode == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let refused = try bookclub.run(["finish", "dune", "--date", "2026-11-09 18:00"], environment: env)
        #expect(refused.exitCode == 1)
        #expect(refused.stdout == "")
        #expect(
            refused.stderr
                == "Error: 'Dune' cannot be finished on Mon 9 Nov 2026 18:00: this reading started on Tue 10 Nov 2026 12:00. Give a --date after the start.\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == before)
        #expect(try bookclub.run(["abandon", "dune", "--date", "2026-11-01"], environment: env).exitCode == 1)

        #expect(try bookclub.run(["progress", "dune", "20", "--date", "2026-11-02"], environment: env).exitCode == 0)
        #expect(try bookclub.run(["show", "dune"], environment: env).stdout.contains("started Mon 2 Nov 2026"))
        #expect(try bookclub.run(["finish", "dune", "--date", "2026-11-09 18:00"], environment: env).exitCode == 0)
    }

    @Test func aMeetingInThePastIsKeptWithAWarning() throws {
        defer { bookclub.cleanUp() }
        #expect(try bookclub.run("club", "add", "Sci-Fi Club").exitCode == 0)
        let past = try bookclub.run("club", "meeting", "sci-fi", "--date", "2020-01-09T19:00")
        #expect(past.exitCode == 0)
        #expect(
            past.stderr.hasSuffix(
                "Warning: That meeting is in the past (Thu 9 Jan 2020 19:00); it is kept, for the record.\n"),
            "\(past.stderr)")
    }

    @Test func anUnknownZoneIsUTCWithAWarning() throws {
        defer { bookclub.cleanUp() }
        let result = try bookclub.run(["list"], environment: ["TZ": "Mars/Olympus_Mons"])
        #expect(result.exitCode == 0)
        #expect(result.stderr.hasPrefix("Warning: TZ='Mars/Olympus_Mons' names no time zone known here"))
    }
}
