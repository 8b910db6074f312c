import Foundation
import Testing

/// A week in two clubs, as a new user would live it, run through the built binary.
@Suite struct ClubEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    /// `2026-11-20` for a day `offset` days from today, in the runner's zone.
    func day(_ offset: Int) -> String { BookClubRunner.isoDay(offset) }

    func setUpTwoClubs() throws {
        _ = try bookclub.add("Dune", "--author", "Frank Herbert", "--pages", "412")
        _ = try bookclub.add("Kindred", "--author", "Octavia E. Butler", "--pages", "264")
        #expect(try bookclub.run("club", "add", "Sci-Fi Club", "--description", "Monthly, on Thursdays").exitCode == 0)
        #expect(try bookclub.run("club", "add", "Octavia Readers").exitCode == 0)
        for (club, offset, book, target) in [
            ("scifi", -7, "dune", "80"), ("scifi", 5, "dune", "250"), ("scifi", 19, "dune", "100%"),
            ("octavia", 3, "kindred", "50%"),
        ] {
            let planned = try bookclub.run(
                "club", "meeting", club, "--date", "\(day(offset))T19:00", "--book", book, "--target", target,
                "--where", "Ana's place, 3rd floor")
            #expect(planned.exitCode == 0, "\(planned.stderr)")
            #expect(planned.stdout.range(of: #"^[0-9a-f]{8}\n$"#, options: .regularExpression) != nil)
        }
        try bookclub.run("progress", "dune", "100", "--note", "the gom jabbar", "--date", day(-10))
        try bookclub.run("progress", "dune", "150", "--note", "Paul and the Reverend Mother", "--date", day(-3))
        try bookclub.run("progress", "dune", "206", "--note", "Arrakis at night", "--date", day(-1))
    }

    @Test func agendaNotesAndCalendarTellWhatToReadByWhenAndWhatToBring() throws {
        defer { bookclub.cleanUp() }
        try setUpTwoClubs()

        // A pipe with no COLUMNS gets whole lines.
        let agenda = try bookclub.run(["agenda"], environment: ["COLUMNS": ""])
        #expect(agenda.exitCode == 0)
        #expect(agenda.stderr == "")
        let lines = agenda.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains("Octavia Readers  Kindred to 50%: you are on p. 0, 132 pages to go"))
        #expect(lines[0].contains("behind"))
        #expect(lines[1].contains("Sci-Fi Club  Dune to p. 250: you are on p. 206, 44 pages to go"))
        #expect(!lines[1].contains("behind"), "106 pages in 10 days keeps pace with 44 pages in 5 days")
        // At 60 columns, each line wraps under its text, past the date: "Tue 1 Dec 2026 19:00" and two
        // spaces, or a column more on a day of two digits (the meeting is three days from today).
        let narrow = try bookclub.run(["agenda"], environment: ["COLUMNS": "60"]).stdout.split(separator: "\n")
        #expect(narrow.count > 3 && narrow.allSatisfy { $0.count <= 60 }, "\(narrow)")
        let text = try #require(narrow[0].range(of: "Octavia Readers")).lowerBound
        let column = narrow[0].distance(from: narrow[0].startIndex, to: text)
        #expect((22...23).contains(column), "\(narrow)")
        #expect(
            narrow[1].hasPrefix(String(repeating: " ", count: column))
                && !narrow[1].hasPrefix(String(repeating: " ", count: column + 1)), "\(narrow)")

        let json = try #require(try bookclub.json("agenda", "--json") as? [[String: Any]])
        let scifi = try #require(json.first { ($0["meeting"] as? [String: Any])?["club"] as? String == "Sci-Fi Club" })
        #expect(scifi["pagesToGo"] as? Int == 44)
        #expect(scifi["currentPage"] as? Int == 206)
        #expect(scifi["targetPage"] as? Int == 250)
        #expect(scifi["onTrack"] as? Bool == true)
        let daysLeft = try #require(scifi["daysLeft"] as? Double)
        #expect(daysLeft > 4 && daysLeft < 6, "the meeting is 5 days ahead, at 19:00")
        #expect(
            (scifi["pagesPerDay"] as? Double).map { abs($0 - 44 / daysLeft) < 0.25 } == true,
            "44 pages over the days left (both rounded to tenths)")

        let notes = try bookclub.run("notes", "--club", "sci-fi")
        #expect(notes.exitCode == 0)
        #expect(
            notes.stdout.contains(
                "**Dune** by Frank Herbert, to p. 250\nYou are at p. 206 of 412 (50%).\nWhere: Ana's place, 3rd floor\n"
            ))
        #expect(notes.stdout.contains("- p. 150, "))
        #expect(notes.stdout.contains(": Arrakis at night\n"))
        #expect(!notes.stdout.contains("gom jabbar"), "that note came before the previous meeting")

        let file = bookclub.home + "/notes.md"
        let written = try bookclub.run("notes", "--club", "scifi", "--output", "notes.md")
        #expect(written == .init(stdout: "", stderr: "Wrote notes.md.\n", exitCode: 0))
        #expect(try String(contentsOfFile: file, encoding: .utf8) + "" == notes.stdout)

        let ics = try bookclub.run("club", "meetings", "scifi", "--ics")
        #expect(ics.exitCode == 0)
        #expect(ics.stdout.components(separatedBy: "BEGIN:VEVENT").count == 4)
        #expect(ics.stdout.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(ics.stdout.hasSuffix("\r\nEND:VCALENDAR\r\n"), "the file ends with a whole END:VCALENDAR line")
        #expect(
            ics.stdout.replacing("\r\n", with: "").allSatisfy { $0 != "\n" && $0 != "\r" }, "every line ends in CRLF")
        func uids(_ text: String) -> [Substring] { text.split(separator: "\r\n").filter { $0.hasPrefix("UID:") } }
        #expect(
            uids(try bookclub.run("club", "meetings", "scifi", "--ics").stdout) == uids(ics.stdout),
            "importing twice does not duplicate")
        try checkWithICalendarParser(ics.stdout)
    }

    /// Parses the calendar with the `icalendar` package from PyPI, which `.ci/run` installs.
    func checkWithICalendarParser(_ text: String) throws {
        let path = bookclub.home + "/club.ics"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let script = """
            import sys
            try:
                import icalendar
            except ImportError:
                sys.exit(3)
            from zoneinfo import ZoneInfo
            raw = open(sys.argv[1], 'rb').read()
            assert raw.endswith(b'\\r\\nEND:VCALENDAR\\r\\n'), raw[-30:]
            assert raw.replace(b'\\r\\n', b'').find(b'\\n') == -1, 'a line that does not end in CRLF'
            calendar = icalendar.Calendar.from_ical(raw)
            events = [e for e in calendar.walk('VEVENT')]
            assert len(events) == 3, len(events)
            assert len({str(e['UID']) for e in events}) == 3
            for e in events:
                assert e.decoded('DTSTART').tzinfo is not None
                local = e.decoded('DTSTART').astimezone(ZoneInfo(sys.argv[2]))
                assert (local.hour, local.minute) == (19, 0), local
                assert str(e['LOCATION']) == "Ana's place, 3rd floor", e['LOCATION']
                assert str(e['SUMMARY']).startswith('Sci-Fi Club: Dune to '), e['SUMMARY']
            print('ok')
            """
        try Self.runICalendarCheck(script, [path, BookClubRunner.timeZoneName])
    }

    /// Runs a Python `script` that checks a calendar with the `icalendar` package from PyPI (which
    /// `.ci/run` installs) and prints `ok`; it exits 3 without the package, which only CI refuses.
    static func runICalendarCheck(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 && ProcessInfo.processInfo.environment["CI"] != "true" {
            print(
                "note: python3's icalendar is not installed (pip install icalendar); the calendar was checked without it"
            )
            return
        }
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed == "ok\n")
    }

    @Test func aSelectedClubSuppliesTheBookAndTheClub() throws {
        defer { bookclub.cleanUp() }
        try setUpTwoClubs()
        #expect(
            try bookclub.run("select", "--club", "octavia").stderr
                == "Selected the club 'Octavia Readers' in scene 'default'.\n")
        #expect(try bookclub.run("progress", "40").stderr == "'Kindred': p. 40 of 264 (15%).\n")
        #expect(try bookclub.run(["agenda"], environment: ["COLUMNS": ""]).stdout.split(separator: "\n").count == 1)
        #expect(try bookclub.run("notes").stdout.hasPrefix("# Octavia Readers: "))
        #expect(try bookclub.run("select").stdout.hasSuffix("  Octavia Readers (club)\n"))
        try bookclub.run("select", "dune")
        #expect(try bookclub.run("progress", "+4").stderr == "'Dune': p. 210 of 412 (51%).\n")
    }

    @Test func clubCommandsRenameCancelRemove() throws {
        defer { bookclub.cleanUp() }
        try setUpTwoClubs()
        #expect(
            try bookclub.run("club", "rename", "octavia", "Butler Readers")
                == .init(stdout: "", stderr: "Renamed 'Octavia Readers' to 'Butler Readers'.\n", exitCode: 0))
        #expect(
            try bookclub.run("club", "rename", "butler", " butler readers ")
                == .init(stdout: "", stderr: "Renamed 'Butler Readers' to 'butler readers'.\n", exitCode: 0))
        #expect(
            try bookclub.run("club", "rename", "butler", "butler readers")
                == .init(
                    stdout: "", stderr: "The club is already called 'butler readers'; nothing changed.\n", exitCode: 0))
        #expect(try bookclub.run("club", "rename", "butler", "Butler Readers").exitCode == 0)
        #expect(try bookclub.run("club", "cancel", "butler", "next").exitCode == 0)
        #expect(
            try bookclub.run("club", "meetings", "butler")
                == .init(stdout: "", stderr: "No upcoming meetings; --past shows the earlier ones.\n", exitCode: 0))
        let clubs = try #require(try bookclub.json("club", "list", "--json") as? [[String: Any]])
        #expect(clubs.map { $0["name"] as? String } == ["Sci-Fi Club", "Butler Readers"])
        #expect(clubs.first?["currentBook"] as? String != nil)
        #expect(try bookclub.run("club", "remove", "butler", "--yes").exitCode == 1, "remove takes only exact names")
        #expect(try bookclub.run("club", "remove", "Butler Readers", "--yes").exitCode == 0)
        #expect(try bookclub.run("remove", "Dune", "--yes").exitCode == 0)
        let meetings = try #require(try bookclub.json("club", "meetings", "--json") as? [[String: Any]])
        #expect(meetings.count == 2)
        #expect(meetings.allSatisfy { $0["book"] == nil }, "a removed book leaves the meetings without one")
    }

    @Test(arguments: [
        (["club", "meeting", "scifi", "--book", "dune"], 64, "Error: Missing value for '--date <when>'"),
        (
            ["club", "meeting", "scifi", "--date", "someday"], 64,
            "Error: The value 'someday' is invalid for '--date <when>'"
        ),
        (
            ["club", "meeting", "scifi", "--date", "friday", "--target", "lots"], 64,
            "Error: The value 'lots' is invalid for '--target <target>'"
        ),
        (
            ["club", "meeting", "scifi", "--date", "friday", "--book", "dune", "--target", "500"], 1,
            "Error: Page 500 is past the end of 'Dune' (412 pages)."
        ),
        (["club", "show", "poetry"], 1, "Error: No club matches 'poetry'. See `bookclub club list`."),
        (["club", "add", "Sci-Fi Club"], 1, "Error: A club named 'Sci-Fi Club' is already there."),
        (
            ["notes", "--club", "scifi", "--meeting", "2001-01-01"], 1,
            "Error: Sci-Fi Club has no meeting '2001-01-01'."
        ),
        (["club", "meetings", "--ics"], 1, "Error: No club given and none selected."),
    ])
    func clubErrors(_ arguments: [String], _ code: Int32, _ message: String) throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("club", "add", "Sci-Fi Club")
        let result = try bookclub.run(arguments)
        #expect(result.exitCode == code)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }
}
