import BookClubCore
import Foundation
import Testing

@testable import bookclub

/// `stats --html`: the figures of the year's page, its calendar and charts, and the page as written.
@Suite struct StatsHTMLTests {
    let now = Fixture.now

    func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text.count == 10 ? text + "T12:00:00Z" : text)!
    }

    func stats(_ books: [Book], zone: Zone = .utc, year: Int) -> ReadingStats {
        ReadingStats(library: Library(books: books), now: now, timeZone: zone, year: year)
    }

    /// A book read from `start` to `end`, a page entry a day between, finished (or abandoned) at the end.
    func book(
        _ title: String, _ start: String, _ end: String, outcome: Ending.Outcome = .finished, rating: Double? = nil,
        tags: [String] = [], minutes: Int? = nil, reread: Bool = false
    ) -> Book {
        let entries = [
            ReadingProgress.Entry(id: UUID(), progress: 0.25, page: 100, time: date(start), minutes: minutes),
            ReadingProgress.Entry(id: UUID(), progress: 0.5, page: 200, time: date(end), minutes: minutes),
        ]
        var reading = Reading(id: UUID(), started: date(start), progress: ReadingProgress(entries: entries))
        reading.ending = Ending(outcome: outcome, date: date(end), rating: rating)
        let earlier = reread ? [Reading(id: UUID(), started: nil, ending: Ending(outcome: .finished, date: nil))] : []
        return Book(
            id: title, title: title, author: "Someone", pages: 400, tags: tags, added: now,
            readings: earlier + [reading])
    }

    @Test func theYearsBooksTagsRereadsAbandonedAndTimeAreCounted() {
        let year = stats(
            [
                book("ノルウェイの森", "2025-01-05", "2025-01-20", rating: 4.5, tags: ["Fiction", "japan"], minutes: 30),
                book("Dune", "2025-03-01", "2025-03-02", rating: 3, tags: ["fiction"], reread: true),
                book("Gone", "2025-04-01", "2025-04-03", outcome: .abandoned),
                book("Last year", "2024-12-01", "2024-12-02"),
            ], year: 2025)
        #expect(year.finished.map(\.title) == ["ノルウェイの森", "Dune"])
        #expect(year.finished.map(\.days) == [16, 2])
        #expect(year.finished.map(\.isReread) == [false, true])
        #expect(year.abandoned == 1)
        #expect(year.minutes == 60)
        #expect(year.months[0].minutes == 60)
        let page = StatsHTML.page(year) { _ in nil }
        #expect(page.contains("<span class=\"figure\">2</span><span class=\"label\">books finished</span>"))
        #expect(page.contains("1 re-read · 1 book abandoned"))
        #expect(
            page.contains(
                "<span class=\"tag\">Fiction</span><span class=\"share\" style=\"--share: 100%\"></span> 100% (2 books)"
            ))
        #expect(page.contains("Hours read by month"))
        #expect(page.contains("Mar 1, 2025") == false, "days are written as the rest of bookclub writes them")
        #expect(page.contains("Sat 1 Mar 2025 to Sun 2 Mar 2025 · 2 days · 200 pages a day · a re-read"))
    }

    @Test(arguments: [(2024, 366, 0), (2025, 365, 2), (2026, 365, 3), (2000, 366, 5)])
    func theCalendarHasADayASquareFromItsWeekday(_ year: Int, _ days: Int, _ offset: Int) {
        let svg = StatsHTML.calendar(stats([], year: year))
        #expect(svg.components(separatedBy: "<rect ").count - 1 == days)
        // The first square sits in its weekday's row (Monday first).
        #expect(svg.contains("<rect x=\"30\" y=\"\(18 + offset * 14)\""))
        #expect(svg.contains("<title id=\"calendar-t\">Days with reading in \(year)</title>"))
    }

    @Test func aDayIsTheReadersDayAcrossADaylightSavingChange() {
        // 02:30 UTC on 9 March 2025 is still the 8th in New York (clocks go forward at 2:00 that day).
        let newYork = Fixture.zone("America/New_York")
        let late = book("Night", "2025-03-09T02:30:00Z", "2025-03-10T15:00:00Z")
        let svg = StatsHTML.calendar(stats([late], zone: newYork, year: 2025))
        #expect(svg.contains("<title>Sat 8 Mar 2025: 100 pages</title>"))
        #expect(svg.contains("<title>Sun 9 Mar 2025: no reading</title>"))
        let kolkata = StatsHTML.calendar(stats([late], zone: Fixture.zone("Asia/Kolkata"), year: 2025))
        #expect(kolkata.contains("<title>Sun 9 Mar 2025: 100 pages</title>"))
        // In Sydney the year begins in summer time (UTC+11): 13:30 UTC on 31 December is already
        // 1 January there, the first square of its year, and no square of the year before.
        let sydney = Fixture.zone("Australia/Sydney")
        let eve = book("Eve", "2024-12-31T13:30:00Z", "2025-01-02T03:00:00Z")
        #expect(
            StatsHTML.calendar(stats([eve], zone: sydney, year: 2025)).contains(
                "<title>Wed 1 Jan 2025: 100 pages</title>"))
        #expect(!StatsHTML.calendar(stats([eve], zone: sydney, year: 2024)).contains("100 pages"))
        #expect(
            StatsHTML.calendar(stats([eve], zone: .utc, year: 2024)).contains(
                "<title>Tue 31 Dec 2024: 100 pages</title>"))
    }

    @Test func barsHaveATitleADescriptionAndATable() {
        let svg = StatsHTML.bars([("Jan", 2), ("Feb", 0), ("<b>", 1)], title: "Books & more", unit: "books")
        #expect(svg.contains("<title id=\"chart-booksmore-t\">Books &amp; more</title>"))
        #expect(svg.contains("<desc id=\"chart-booksmore-d\">Jan: 2 books, Feb: 0 books, &lt;b&gt;: 1 book</desc>"))
        #expect(svg.contains("<tr><th scope=\"row\">&lt;b&gt;</th><td>1</td></tr>"))
        #expect(svg.contains("height=\"106\""), "the tallest bar fills the chart")
        #expect(!svg.contains("nan") && !svg.contains("inf"))
        #expect(!StatsHTML.bars([("Jan", 0)], title: "t", unit: "u").contains("nan"), "no division by zero")
    }

    @Test func everyValueIsEscaped() {
        #expect(
            StatsHTML.escape("<script>alert('x') & \"y\"</script>\u{1B}[2J")
                == "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;&#xFFFD;[2J")
        let hostile = book(
            "<script>alert(1)</script>", "2025-01-05", "2025-01-20", tags: ["<img src=x onerror=alert(1)>"])
        let page = StatsHTML.page(stats([hostile], year: 2025)) { _ in nil }
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img src=x"))
        #expect(page.contains("<cite>&lt;script&gt;alert(1)&lt;/script&gt;</cite>"))
    }

    /// A page printed to a terminal (`stats --html | less`) holds no raw control character: a tab and
    /// the marks that reorder text are character references, which a browser shows the same.
    @Test func aTabAndAReorderingMarkAreCharacterReferences() {
        #expect(StatsHTML.escape("a\tb\u{202E}c\u{9B}\nd") == "a&#x9;b&#x202E;c&#xFFFD;\nd")
        let page = StatsHTML.page(stats([book("Dune\t\u{202E}\u{2066}", "2025-01-05", "2025-01-20")], year: 2025)) {
            _ in nil
        }
        #expect(page.contains("<cite>Dune&#x9;&#x202E;&#x2066;</cite>"), "\(page)")
    }

    @Test func aYearWithNoReadingSaysSo() {
        let page = StatsHTML.page(stats([], year: 1999)) { _ in nil }
        #expect(page.contains("<p class=\"empty\">No reading in 1999 yet: no book finished, no page logged.</p>"))
        #expect(!page.contains("<svg"))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
    }
}

/// `bookclub stats --html`, run as a reader would.
@Suite struct StatsHTMLEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func thePageHasTheNumbersOfStatsJSONAndGoesWhereItIsSent() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("<script>alert(1)</script>", "--pages", "300")
        try bookclub.run("progress", "script", "120", "--date", "2025-06-01")
        try bookclub.run("finish", "script", "--date", "2025-06-10", "--rating", "4")
        _ = try bookclub.add("ノルウェイの森", "--pages", "400")
        try bookclub.run("progress", "ノルウェイ", "50%", "--date", "2025-06-11")
        try bookclub.run("settings", "set", "yearlyGoal", "12")

        let json = try #require(try bookclub.json("stats", "--year", "2025", "--json") as? [String: Any])
        let page = try bookclub.run("stats", "--year", "2025", "--html")
        #expect(page.exitCode == 0, "\(page.stderr)")
        #expect(page.stderr.isEmpty)
        let html = page.stdout
        for (figure, label) in [
            (json["books"] as? Int ?? -1, "books finished"), (json["pages"] as? Int ?? -1, "pages read"),
            (json["readingDays"] as? Int ?? -1, "days with reading"),
        ] {
            #expect(
                html.contains(
                    "<span class=\"figure\">\(figure == 1 && label == "books finished" ? "1" : String(figure))</span><span class=\"label\">\(figure == 1 && label == "books finished" ? "book finished" : label)</span>"
                ), "\(label)")
        }
        #expect(html.contains("1 of 12"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") && !html.contains("https://"), "nothing to fetch")

        let written = try bookclub.run("stats", "--year", "2025", "--html", "--output", "year.html")
        #expect(written.stderr == "Wrote year.html.\n")
        #expect(try String(contentsOfFile: bookclub.home + "/year.html", encoding: .utf8) == html)

        // --open runs xdg-open on the file; without one, says where it is.
        let bin = bookclub.home + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try writeProgram("#!/bin/sh\necho \"$1\" > \"\(bookclub.home)/opened\"\n", to: bin + "/xdg-open")
        let opened = try bookclub.run(["stats", "--year", "2025", "--html", "--open"], environment: ["PATH": bin])
        #expect(opened.exitCode == 0, "\(opened.stderr)")
        let cached = bookclub.home + "/.cache/bookclub/stats-2025.html"
        #expect(try String(contentsOfFile: bookclub.home + "/opened", encoding: .utf8) == cached + "\n")
        let nowhere = try bookclub.run(
            ["stats", "--year", "2025", "--html", "--open"], environment: ["PATH": bookclub.home + "/none"])
        #expect(nowhere.stderr.hasSuffix("No program to open it with (xdg-open or open): the page is \(cached).\n"))

        #expect(try bookclub.run("stats", "--html", "--json").exitCode == 64)
        #expect(try bookclub.run("stats", "--output", "x.html").exitCode == 64)
    }
}

enum Browser {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}

/// The page in a real browser: headless Chromium (Debian's `chromium`, which CI installs) renders it
/// with the network sent to a listener that counts every connection, and with its console on.
@Suite(.enabled(if: Browser.chromium != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
struct StatsHTMLBrowserTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    /// A proxy that answers nothing: it writes the first line of each request to `log`.
    static let listener = """
        import socket, sys
        log, port_file = sys.argv[1], sys.argv[2]
        server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(16)
        open(port_file, "w").write(str(server.getsockname()[1]))
        while True:
            connection, _ = server.accept(); connection.settimeout(2)
            try: first = connection.recv(2000).split(b"\\r\\n")[0].decode("latin-1")
            except Exception: first = "(nothing)"
            open(log, "a").write(first + "\\n"); connection.close()
        """

    func chromium(_ arguments: [String], proxy: String) throws -> (stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Browser.chromium, "install chromium"))
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--enable-logging=stderr", "--v=0",
                "--proxy-server=http://" + proxy, "--proxy-bypass-list=<-loopback>",
                "--user-data-dir=" + bookclub.home + "/chromium",
            ] + arguments
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        process.environment = ["HOME": bookclub.home, "PATH": "/usr/bin:/bin"]
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test func chromiumRendersTheNumbersOfStatsJSONWithNoRequestAndNoError() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("<script>alert(1)</script>", "--pages", "300", "--tag", "sci-fi")
        try bookclub.run("progress", "script", "120", "--date", "2025-06-01")
        try bookclub.run("finish", "script", "--date", "2025-06-10", "--rating", "4")
        _ = try bookclub.add("Kindred", "--pages", "264")
        try bookclub.run("progress", "kindred", "100", "--date", "2025-07-01")
        try bookclub.run("progress", "kindred", "264", "--date", "2025-07-04")
        try bookclub.run("finish", "kindred", "--date", "2025-07-04")
        #expect(try bookclub.run("stats", "--year", "2025", "--html", "--output", "year.html").exitCode == 0)
        let json = try #require(try bookclub.json("stats", "--year", "2025", "--json") as? [String: Any])

        let log = bookclub.home + "/connections.log"
        let portFile = bookclub.home + "/listener.port"
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        listener.arguments = ["python3", "-c", Self.listener, log, portFile]
        try listener.run()
        defer {
            kill(listener.processIdentifier, SIGKILL)
            listener.waitUntilExit()
        }
        var port = ""
        for _ in 0..<500 where port.isEmpty {
            usleep(10_000)
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)) ?? ""
        }
        let page = "file://" + bookclub.home + "/year.html"
        let dom = try chromium(["--dump-dom", page], proxy: "127.0.0.1:" + port)
        // What a reader sees: the figures of `stats --json`, the hostile title as text.
        #expect(
            dom.stdout.contains(
                "<span class=\"figure\">\(json["books"] as? Int ?? -1)</span><span class=\"label\">books finished</span>"
            ))
        #expect(
            dom.stdout.contains(
                "<span class=\"figure\">\(json["pages"] as? Int ?? -1)</span><span class=\"label\">pages read</span>"))
        #expect(dom.stdout.contains("<span class=\"figure\">\(json["readingDays"] as? Int ?? -1)</span>"))
        #expect(dom.stdout.contains("<cite>&lt;script&gt;alert(1)&lt;/script&gt;</cite>"))
        #expect(!dom.stdout.contains("<script"))
        #expect(!dom.stderr.contains("CONSOLE"), "\(dom.stderr)")
        #expect(!dom.stderr.contains("Refused to"), "the page's own policy let everything in it load: \(dom.stderr)")

        let shot = bookclub.home + "/year.png"
        _ = try chromium(
            ["--window-size=1000,2000", "--hide-scrollbars", "--screenshot=" + shot, page], proxy: "127.0.0.1:" + port)
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The real Goodreads import renders too, with the numbers of `stats --json`.
        if RealExports.isPresent {
            let reader = try BookClubRunner()
            defer { reader.cleanUp() }
            try reader.run("import", "goodreads", RealExports.shared("imports/goodreads-2024-24col.csv"))
            for year in ["2021", "2022", "2023"] {
                try reader.run("stats", "--year", year, "--html", "--output", reader.home + "/\(year).html")
                let figures = try #require(try reader.json("stats", "--year", year, "--json") as? [String: Any])
                let rendered = try chromium(
                    ["--dump-dom", "file://" + reader.home + "/\(year).html"], proxy: "127.0.0.1:" + port)
                let books = figures["books"] as? Int ?? -1
                #expect(
                    rendered.stdout.contains(
                        "<span class=\"figure\">\(books)</span><span class=\"label\">\(books == 1 ? "book" : "books") finished</span>"
                    ),
                    "\(year)")
                #expect(!rendered.stderr.contains("CONSOLE"))
            }
        }

        // Chromium asks its own hosts (updates, the time); the page asks nothing of anyone.
        let requests = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        let own = [".google.com", ".googleapis.com", ".gstatic.com"]
        #expect(
            requests.filter { line in !own.contains { line.contains($0 + ":") || line.contains($0 + "/") } }.isEmpty,
            "\(requests)")
    }
}
