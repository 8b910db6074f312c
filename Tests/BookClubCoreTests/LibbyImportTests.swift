import Foundation
import Testing

@testable import BookClubCore

/// Libby's loans, written in the shapes Libby exports: the timeline (JSON, newest first, and CSV in
/// the reader's local time) and a title's reading journey.
@Suite(.serialized) struct LibbyImportTests {
    /// 2024-02-28 05:17 UTC and later, in milliseconds.
    static let borrowed: Int64 = 1_709_097_420_000
    static let day: Int64 = 86_400_000

    static func activity(
        _ title: String, id: String, author: String, isbn: String, format: String, at time: Int64, _ activity: String
    ) -> String {
        """
        {"title":{"text":"\(title)","titleId":"\(id)","url":"https://libbyapp.com/library/x/\(id)"},"author":"\(author)",\
        "publisher":"Ballantine","isbn":"\(isbn)","timestamp":\(time),"activity":"\(activity)","details":"","library":\
        {"text":"New York Public Library","key":"nypl"},"cover":{"format":"\(format)","url":"https://img/\(id).jpg"}}
        """
    }

    /// Newest first, as Libby writes it: an e-book borrowed, renewed and returned; an audiobook whose
    /// author field names its narrator, with the audio edition's ISBN; a title only held.
    static var timeline: String {
        let hail = ("Project Hail Mary", "1", "Andy Weir, Ray Porter", "9781603935470", "audiobook")
        let norwegian = ("ノルウェイの森", "2", "村上春樹", "9784062748681", "ebook")
        let held = ("ليلة القدر", "3", "الطاهر بن جلون", "", "ebook")
        let rows = [
            activity(
                norwegian.0, id: norwegian.1, author: norwegian.2, isbn: norwegian.3, format: norwegian.4,
                at: borrowed + 20 * day, "Returned"),
            activity(
                hail.0, id: hail.1, author: hail.2, isbn: hail.3, format: hail.4, at: borrowed + 15 * day, "BORROWED"),
            activity(
                norwegian.0, id: norwegian.1, author: norwegian.2, isbn: norwegian.3, format: norwegian.4,
                at: borrowed + 14 * day, "renew"),
            activity(
                held.0, id: held.1, author: held.2, isbn: held.3, format: held.4, at: borrowed + 2 * day,
                "Placed on hold"),
            activity(
                norwegian.0, id: norwegian.1, author: norwegian.2, isbn: norwegian.3, format: norwegian.4, at: borrowed,
                "Borrowed"),
        ]
        return #"{"version":1,"timeline":["# + rows.joined(separator: ",") + "]}"
    }

    static func book(_ bookclub: BookClubRunner, _ title: String) throws -> [String: Any] {
        let shown = try bookclub.run("show", title, "--json")
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    }

    @Test func aTimelineBecomesReadingsLoansAndHolds() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        // The reader has the e-book of Project Hail Mary: the audiobook's ISBN is the audio edition's.
        #expect(
            try bookclub.run("add", "Project Hail Mary", "--author", "Andy Weir", "--isbn", "9780593135204").exitCode
                == 0)
        let file = bookclub.home + "/libbytimeline-activities.json"
        try Self.timeline.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try bookclub.run("import", "libby", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("of 3 books (2 new to bookclub)"), "\(imported.stderr)")
        #expect(imported.stderr.contains("2 readings begun"), "\(imported.stderr)")

        let norwegian = try Self.book(bookclub, "ノルウェイの森")
        let readings = try #require(norwegian["readings"] as? [[String: Any]])
        #expect(readings.count == 1, "a renewal starts nothing: \(readings)")
        #expect(readings.first?["started"] as? String == "2024-02-28T05:17:00Z")
        #expect(norwegian["status"] as? String == "reading", "a return ends the loan, not the book")
        #expect(norwegian["isbn"] as? String == "9784062748681" && norwegian["format"] as? String == "ebook")
        let details = try #require(norwegian["details"] as? [String: [String]])
        #expect(details["libby:borrowed"] == ["2024-02-28"] && details["libby:returned"] == ["2024-03-19"])
        #expect(details["libby:format"] == ["ebook"] && details["libby:library"] == ["New York Public Library"])

        // The audiobook went to the reader's own book, by title and author, its narrator left out.
        let hail = try Self.book(bookclub, "hail mary")
        #expect(hail["isbn"] as? String == "9780593135204" && hail["format"] as? String == "audiobook")
        #expect((hail["details"] as? [String: [String]])?["libby:isbn"] == ["9781603935470"])
        #expect((hail["details"] as? [String: [String]])?["libby:format"] == ["audiobook"])

        // Held only: a book not started.
        #expect(try Self.book(bookclub, "ليلة")["status"] as? String == "unstarted")

        // The same export again, and a later one that returns and borrows again: nothing new starts.
        let store = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let again = try bookclub.run("import", "libby", file)
        #expect(again.exitCode == 0 && !again.stderr.contains("begun"), "\(again.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == store, "a second import changed the store"
        )
        let later =
            #"{"version":1,"timeline":["#
            + Self.activity(
                "ノルウェイの森", id: "2", author: "村上春樹", isbn: "9784062748681", format: "ebook",
                at: Self.borrowed + 30 * Self.day, "Borrowed") + "," + Self.timeline.dropFirst(25)
        try later.write(toFile: file, atomically: true, encoding: .utf8)
        let newer = try bookclub.run("import", "libby", file)
        #expect(newer.exitCode == 0 && !newer.stderr.contains("begun"), "\(newer.stderr)")
        let borrowedAgain = try #require(try Self.book(bookclub, "ノルウェイの森")["details"] as? [String: [String]])
        #expect(borrowedAgain["libby:borrowed"] == ["2024-02-28", "2024-03-29"])
        #expect((try Self.book(bookclub, "ノルウェイの森")["readings"] as? [Any])?.count == 1)
    }

    @Test func aCSVTimelineIsReadInTheReadersZone() throws {
        var bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        bookclub.environment["TZ"] = "Asia/Kolkata"
        let csv = """
            cover,title,author,publisher,isbn,timestamp,activity,details,library
            https://img/1.jpg,"Piranesi","Susanna Clarke",Bloomsbury,9781635575637,"February 28, 2024 00:47",Borrowed,"",Queens Public Library
            https://img/2.jpg,"The Dispossessed","Ursula K. Le Guin",Harper,,"March 3, 2024 9:05 PM",Placed on hold,"",Queens Public Library
            ,,,,,,,,
            """
        let file = bookclub.home + "/libbytimeline-activities.csv"
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try bookclub.run("import", "libby", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("line 4: an activity without a title"), "\(imported.stderr)")
        let piranesi = try Self.book(bookclub, "piranesi")
        // 00:47 in Kolkata is 19:17 the day before in UTC.
        #expect((piranesi["readings"] as? [[String: Any]])?.first?["started"] as? String == "2024-02-27T19:17:00Z")
        #expect(try Self.book(bookclub, "dispossessed")["status"] as? String == "unstarted")
    }

    @Test func aJourneyBringsProgressHighlightsAndNotes() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let journey = """
            {"version":1,"readingJourney":{"cover":{"format":"ebook"},"title":{"text":"Piranesi","titleId":"42"},\
            "author":"Susanna Clarke","publisher":"Bloomsbury","isbn":"9781635575637","percent":0.53},\
            "circulation":[{"activity":"Borrowed","timestamp":\(Self.borrowed),"library":{"text":"Queens"}}],\
            "highlights":[{"timestamp":\(Self.borrowed + Self.day),"chapter":"Part 1","percent":0.12,\
            "quote":"  The Beauty of the House is immeasurable.  ","note":"the first line"},\
            {"timestamp":\(Self.borrowed + 2 * Self.day),"percent":0.3,"quote":"Its Kindness infinite."}],\
            "bookmarks":[{"timestamp":\(Self.borrowed + 3 * Self.day),"chapter":"Part 2","percent":0.4,"note":"the statues"},\
            {"timestamp":\(Self.borrowed + 4 * Self.day),"chapter":"Part 3","percent":0.5}]}
            """
        let file = bookclub.home + "/piranesi-journey.json"
        try journey.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try bookclub.run("import", "libby", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("Imported 3 highlights of 1 book"), "\(imported.stderr)")
        #expect(imported.stderr.contains("1 bookmark skipped") && imported.stderr.contains("1 reading begun"))
        let book = try Self.book(bookclub, "piranesi")
        #expect(abs((book["progress"] as? Double ?? 0) - 0.53) < 1e-9, "\(book)")
        let reading = try #require((book["readings"] as? [[String: Any]])?.first)
        #expect(reading["started"] as? String == "2024-02-28T05:17:00Z")
        let highlights = try #require(reading["highlights"] as? [[String: Any]])
        #expect(
            highlights.map { $0["text"] as? String } == [
                "The Beauty of the House is immeasurable.", "Its Kindness infinite.", "",
            ])
        #expect(highlights.map { $0["note"] as? String } == ["the first line", nil, "the statues"])
        #expect(highlights.map { $0["chapter"] as? String } == ["Part 1", "30 %", "Part 2"])
        let again = try bookclub.run("import", "libby", file)
        #expect(
            again.stderr.contains("Imported 0 highlights of 1 book (0 new to bookclub); 3 already there"),
            "\(again.stderr)")
    }

    @Test func whatIsNotLibbysIsRefusedAndImportsNothing() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let cases: [(String, String)] = [
            ("{}", "neither a Libby timeline nor a reading journey"),
            (#"{"timeline":"no"}"#, "neither a Libby timeline nor a reading journey"),
            (#"{"version":1,"timeline":[{"title":7,"timestamp":"soon"}]}"#, "no Libby activity in it"),
            (String(repeating: "[", count: 10_000), "not a Libby timeline"),
            ("{" + String(repeating: #""a":{"#, count: 5_000), "JSON nested too deeply"),
            ("title,when\nDune,today\n", "not a Libby timeline"),
            ("", "empty; expected a header line"),
        ]
        for (text, reason) in cases {
            let file = bookclub.home + "/bad.json"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try bookclub.run("import", "libby", file)
            #expect(result.exitCode == 65, "\(text.prefix(40)): \(result.exitCode) \(result.stderr)")
            #expect(result.stderr.contains(reason), "\(text.prefix(40)): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
        }
    }

    /// The timeline, bit-flipped and cut at random: every run ends at once in success or exit 65,
    /// and a failed one leaves the store as it was.
    @Test func aDamagedExportNeverHarmsTheStore() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        #expect(try bookclub.run("add", "Dune").exitCode == 0)
        var random = SplitMix(seed: 37)
        let original = Array(Self.timeline.utf8)
        for round in 0..<24 {
            var bytes = original
            if round % 2 == 0 {
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            } else {
                for _ in 0..<(1 + Int(random.next() % 8)) {
                    bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(1 << (random.next() % 8))
                }
            }
            let file = bookclub.home + "/fuzzed.json"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let before = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
            let result = try bookclub.run(["import", "libby", file], timeLimit: 20)
            #expect([0, 65].contains(result.exitCode), "round \(round): \(result.exitCode) \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "round \(round): \(result.stderr)")
            if result.exitCode != 0 {
                #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == before, "round \(round)")
            }
        }
    }

    @Test func localTimesAsLibbyWritesThem() throws {
        let utc = Zone.utc
        func iso(_ text: String) -> String? {
            LibbyImport.localTime(text, utc).map { ISO8601DateFormatter().string(from: $0) }
        }
        #expect(iso("February 28, 2024 00:47") == "2024-02-28T00:47:00Z")
        #expect(iso("March 3, 2024 9:05 PM") == "2024-03-03T21:05:00Z")
        #expect(iso("December 1, 2023 12:10 AM") == "2023-12-01T00:10:00Z")
        #expect(iso("Sept 9, 2023") == "2023-09-09T12:00:00Z")
        for bad in [
            "", "February", "Feb 30x, 2024", "February 28, 99999 00:47", "February 28, 2024 25:00", "1709097420000",
        ] {
            #expect(iso(bad) == nil, "\(bad)")
        }
    }
}
