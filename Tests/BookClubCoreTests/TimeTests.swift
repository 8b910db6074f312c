import Foundation
import Testing

@testable import BookClubCore

/// The reader's time zone read from the system's zoneinfo files and POSIX rules, checked against
/// Foundation's own time zone database (ICU), at both daylight-saving transitions, in zones with
/// 30- and 45-minute offsets.
@Suite struct ZoneTests {
    func moment(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test(arguments: [
        "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "Australia/Sydney",
        "Europe/London",
        "Asia/Tokyo", "Pacific/Chatham", "America/St_Johns",
    ])
    func offsetsAgreeWithFoundationFrom1990To2060(_ name: String) throws {
        let zone = Fixture.zone(name)
        let foundation = try #require(TimeZone(identifier: name))
        var t = moment("1990-01-01T00:00:00Z").timeIntervalSince1970
        let end = moment("2060-01-01T00:00:00Z").timeIntervalSince1970
        var disagreements: [String] = []
        while t < end {
            let date = Date(timeIntervalSince1970: t)
            if zone.offset(at: date) != foundation.secondsFromGMT(for: date) { disagreements.append("\(date)") }
            t += 3 * 3_600 + 17 * 60  // not a whole number of hours, to land near transitions now and then
        }
        #expect(disagreements.isEmpty, "\(name): \(disagreements.prefix(5))")
    }

    @Test func newYorkSpringsForwardAndFallsBack() {
        let newYork = Fixture.zone("America/New_York")
        // 2026-03-08: 02:00 EST becomes 03:00 EDT at 07:00Z.
        #expect(newYork.offset(at: moment("2026-03-08T06:59:59Z")) == -5 * 3_600)
        #expect(newYork.offset(at: moment("2026-03-08T07:00:00Z")) == -4 * 3_600)
        #expect(
            newYork.date(from: LocalDateTime(year: 2026, month: 3, day: 8, hour: 1, minute: 30))
                == moment("2026-03-08T06:30:00Z"))
        // 02:30 does not exist: read as EST, it lands at 03:30 EDT.
        #expect(
            newYork.date(from: LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30))
                == moment("2026-03-08T07:30:00Z"))
        #expect(
            newYork.date(from: LocalDateTime(year: 2026, month: 3, day: 8, hour: 3, minute: 30))
                == moment("2026-03-08T07:30:00Z"))
        // 2026-11-01: 02:00 EDT becomes 01:00 EST at 06:00Z; 01:30 happens twice, the first (EDT) is taken.
        #expect(
            newYork.date(from: LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30))
                == moment("2026-11-01T05:30:00Z"))
        #expect(
            newYork.date(from: LocalDateTime(year: 2026, month: 11, day: 1, hour: 2, minute: 30))
                == moment("2026-11-01T07:30:00Z"))
        #expect(
            newYork.local(moment("2026-11-01T06:30:00Z"))
                == LocalDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30))
        // The example: 19:00 on 20 November is midnight UTC.
        #expect(
            newYork.date(from: LocalDateTime(year: 2026, month: 11, day: 20, hour: 19, minute: 0))
                == moment("2026-11-21T00:00:00Z"))
        #expect(
            newYork.day(of: moment("2026-11-21T00:00:00Z"))
                == LocalDateTime(year: 2026, month: 11, day: 20).daysSinceEpoch)
    }

    @Test func lordHoweMovesByHalfAnHour() {
        let lordHowe = Fixture.zone("Australia/Lord_Howe")
        // 2026-10-04: 02:00 +10:30 becomes 02:30 +11.
        #expect(
            lordHowe.date(from: LocalDateTime(year: 2026, month: 10, day: 4, hour: 2, minute: 15))
                == moment("2026-10-03T15:45:00Z"))
        #expect(
            lordHowe.local(moment("2026-10-03T15:45:00Z"))
                == LocalDateTime(year: 2026, month: 10, day: 4, hour: 2, minute: 45))
        // 2026-04-05: 02:00 +11 becomes 01:30 +10:30; 01:45 happens twice.
        #expect(
            lordHowe.date(from: LocalDateTime(year: 2026, month: 4, day: 5, hour: 1, minute: 45))
                == moment("2026-04-04T14:45:00Z"))
    }

    @Test func halfAndQuarterHourZones() {
        #expect(
            Fixture.zone("Asia/Kolkata").local(moment("2026-11-20T18:40:00Z"))
                == LocalDateTime(year: 2026, month: 11, day: 21, hour: 0, minute: 10))
        #expect(
            Fixture.zone("Asia/Kathmandu").local(moment("2026-11-20T18:14:59Z"))
                == LocalDateTime(year: 2026, month: 11, day: 20, hour: 23, minute: 59, second: 59))
        #expect(
            Fixture.zone("Asia/Kathmandu").date(from: LocalDateTime(year: 2026, month: 11, day: 21))
                == moment("2026-11-20T18:15:00Z"))
    }

    @Test func londonAtBothTransitions() {
        let london = Fixture.zone("Europe/London")
        #expect(london.local(moment("2026-03-29T00:59:59Z")).hour == 0)
        #expect(london.local(moment("2026-03-29T01:00:00Z")).hour == 2)
        #expect(london.local(moment("2026-10-25T00:59:59Z")).hour == 1)
        #expect(london.local(moment("2026-10-25T01:00:00Z")).hour == 1)
        #expect(
            london.date(from: LocalDateTime(year: 2026, month: 10, day: 25, hour: 1, minute: 30))
                == moment("2026-10-25T00:30:00Z"))
    }

    @Test(arguments: [
        ("EST5EDT,M3.2.0,M11.1.0", "America/New_York"), ("EST5EDT", "America/New_York"), ("IST-5:30", "Asia/Kolkata"),
        ("<+0545>-5:45", "Asia/Kathmandu"), ("AEST-10AEDT,M10.1.0,M4.1.0/3", "Australia/Sydney"),
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "Australia/Lord_Howe"), ("GMT0BST,M3.5.0/1,M10.5.0", "Europe/London"),
    ])
    func posixRulesMatchTheirZonesSince2010(_ rule: String, _ name: String) throws {
        let posix = try #require(Zone(posix: rule))
        let zone = Fixture.zone(name)
        var t = moment("2010-01-01T00:00:00Z").timeIntervalSince1970
        var disagreements: [String] = []
        while t < moment("2045-01-01T00:00:00Z").timeIntervalSince1970 {
            let date = Date(timeIntervalSince1970: t)
            if posix.offset(at: date) != zone.offset(at: date) { disagreements.append("\(date)") }
            t += 3_600 * 5 + 60 * 13
        }
        #expect(disagreements.isEmpty, "\(rule): \(disagreements.prefix(3))")
    }

    @Test(arguments: [
        "", "EST", "5", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "EST5EDT,J0,J100", "<+05", "EST99",
        "EST5EDT,M3.2.0,M11.1.0junk",
    ])
    func notRules(_ text: String) {
        #expect(Zone(posix: text) == nil)
    }

    @Test func resolvesTZAsTheCLibraryDoes() {
        let files = [
            "/etc/localtime": Fixture.zoneData("Asia/Tokyo"),
            "/zi/America/New_York": Fixture.zoneData("America/New_York"),
        ]
        func resolve(_ tz: String?) -> (Zone, String?) { Zone.resolve(tz: tz, zoneinfo: "/zi") { files[$0] } }
        let summer = moment("2026-07-01T12:00:00Z")
        #expect(resolve(nil).0.offset(at: summer) == 9 * 3_600)
        #expect(resolve("America/New_York").0.offset(at: summer) == -4 * 3_600)
        #expect(resolve(":America/New_York").0.offset(at: summer) == -4 * 3_600)
        #expect(resolve("/etc/localtime").0.offset(at: summer) == 9 * 3_600)
        #expect(resolve("IST-5:30").0.offset(at: summer) == 19_800)
        #expect(resolve("").0 == .utc || resolve("").0.offset(at: summer) == 0)
        #expect(resolve("UTC").1 == nil)
        let (unknown, problem) = resolve("Mars/Olympus_Mons")
        #expect(unknown.offset(at: summer) == 0)
        #expect(problem?.contains("TZ='Mars/Olympus_Mons' names no time zone") == true)
        #expect(resolve("../etc/localtime").1 != nil, "no climbing out of the zone folder")
    }

    @Test func refusesFilesThatAreNotZones() {
        #expect(Zone(tzif: Data("TZif".utf8), name: "x") == nil)
        #expect(Zone(tzif: Data(), name: "x") == nil)
        var data = Fixture.zoneData("America/New_York")
        for cut in stride(from: 0, to: data.count, by: 97) {
            _ = Zone(tzif: data.prefix(cut), name: "cut")  // never traps
        }
        data[20] = 0xFF
        #expect(Zone(tzif: data, name: "x") == nil)
    }
}

@Suite struct LocalDateTimeTests {
    @Test func civilDaysRoundTrip() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (year, month, day) = LocalDateTime.civil(fromDays: days)
            #expect(LocalDateTime.days(year: year, month: month, day: day) == days)
        }
        #expect(LocalDateTime(year: 2026, month: 11, day: 20).weekday == 6)  // a Friday
        #expect(LocalDateTime(year: 1969, month: 12, day: 31).daysSinceEpoch == -1)
        #expect(!LocalDateTime(year: 2026, month: 2, day: 29).isValid)
        #expect(LocalDateTime(year: 2028, month: 2, day: 29).isValid)
    }
}

/// `WHEN` as people say it, in New York, in Kolkata and in UTC.
@Suite struct WhenGrammarTests {
    /// Wednesday 2026-11-18 06:06:40 in New York (11:06:40Z).
    let now = Fixture.now
    let newYork = Fixture.zone("America/New_York")

    func moment(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test(arguments: [
        ("today", "2026-11-18T11:06:40Z"), ("now", "2026-11-18T11:06:40Z"), ("yesterday", "2026-11-17T17:00:00Z"),
        ("wednesday", "2026-11-18T11:06:40Z"), ("friday", "2026-11-13T17:00:00Z"),
        ("fri 19:00", "2026-11-14T00:00:00Z"),
        ("last friday", "2026-11-13T17:00:00Z"), ("last wednesday", "2026-11-11T17:00:00Z"),
        ("next thursday 19:00", "2026-11-20T00:00:00Z"),
        ("2 days ago", "2026-11-16T17:00:00Z"), ("3 weeks ago", "2026-10-28T16:00:00Z"),
        ("a month ago", "2026-10-18T16:00:00Z"),
        ("-2d", "2026-11-16T17:00:00Z"), ("-1w 8:30", "2026-11-11T13:30:00Z"), ("20 nov", "2025-11-20T17:00:00Z"),
        ("nov 10", "2026-11-10T17:00:00Z"), ("20 November 2026", "2026-11-20T17:00:00Z"),
        ("November 20, 2026", "2026-11-20T17:00:00Z"),
        ("2026-11-20", "2026-11-20T17:00:00Z"), ("2026/11/20 7pm", "2026-11-21T00:00:00Z"),
        ("2026-11-20T19:00", "2026-11-21T00:00:00Z"),
        ("2026-11-20T19:00Z", "2026-11-20T19:00:00Z"), ("yesterday at 7:30pm", "2026-11-18T00:30:00Z"),
        ("7:05", "2026-11-18T12:05:00Z"),
        ("2 days ago noon", "2026-11-16T17:00:00Z"), ("1st nov", "2026-11-01T17:00:00Z"),
        // Around the change back to EST on 1 November: noon is EST, the evening before EDT.
        ("2026-10-31 19:00", "2026-10-31T23:00:00Z"), ("2026-11-01 19:00", "2026-11-02T00:00:00Z"),
        // An offset wins over the zone, with or without its colon; seconds are kept.
        ("2026-11-20T22:10:00+05:30", "2026-11-20T16:40:00Z"), ("2026-11-20t22:10+0530", "2026-11-20T16:40:00Z"),
        ("2026-11-20 19:00:30-08:00", "2026-11-21T03:00:30Z"), ("2026-11-20T19:00:00z", "2026-11-20T19:00:00Z"),
        ("2026-1-5", "2026-01-05T17:00:00Z"), ("12am", "2026-11-18T05:00:00Z"), ("+1w", "2026-11-25T17:00:00Z"),
    ])
    func happenedInNewYork(_ text: String, _ expected: String) {
        #expect(When.parse(text, now: now, timeZone: newYork) == moment(expected), "\(text)")
    }

    @Test(arguments: [
        ("thursday", "2026-11-19T17:00:00Z"), ("wednesday 19:00", "2026-11-26T00:00:00Z"),
        ("next thursday 19:00", "2026-11-20T00:00:00Z"),
        ("in 2 weeks", "2026-12-02T17:00:00Z"), ("+3d", "2026-11-21T17:00:00Z"), ("20 nov", "2026-11-20T17:00:00Z"),
        ("10 nov", "2027-11-10T17:00:00Z"), ("dec 3 7pm", "2026-12-04T00:00:00Z"),
    ])
    func plannedInNewYork(_ text: String, _ expected: String) {
        #expect(When.parse(text, now: now, timeZone: newYork, looking: .ahead) == moment(expected), "\(text)")
    }

    @Test func kolkataDaysSplitAtItsOwnMidnight() {
        let kolkata = Fixture.zone("Asia/Kolkata")
        // 20:00Z on the 18th is already the 19th in Kolkata (01:30).
        let late = moment("2026-11-18T20:00:00Z")
        #expect(When.parse("yesterday", now: late, timeZone: kolkata) == moment("2026-11-18T06:30:00Z"))
        #expect(When.parse("today 9:00", now: late, timeZone: kolkata) == moment("2026-11-19T03:30:00Z"))
    }

    @Test(arguments: [
        "someday", "last", "next", "friday friday", "32 nov", "nov", "2 days", "in 2 lightyears", "29 feb 2026",
        "25:00", "-2x", "at", "12pm13",
        // Each number of the ISO and clock forms has its digits, no fewer and no more.
        "2026-11-20T19:00:0", "2026-11-20T19:00+5:30", "2026-11-20T19:00+05:3", "2026-11-20T19:00+19:00",
        "2026-11-20T19:00Z+01:00", "2026-11-20T1:00", "2026-11-2T19:00", "20261-11-20T19:00", "2026-02-30T19:00",
        "2026-11-20T24:00", "7:3", "123:00", "7:30:5", "13pm", "0am", "+12345d", "2026-111-20", "２０２６-11-20T19:00",
        "2026-11-20T19:00\u{301}Z",
    ])
    func refused(_ text: String) {
        #expect(When.parse(text, now: now, timeZone: newYork) == nil, "\(text)")
    }

    @Test func twentyNinthOfFebruaryLooksForALeapYear() {
        #expect(When.parse("29 feb", now: now, timeZone: .utc) == moment("2024-02-29T12:00:00Z"))
        #expect(When.parse("29 feb", now: now, timeZone: .utc, looking: .ahead) == moment("2028-02-29T12:00:00Z"))
    }
}
