import BookClubCore
import Foundation
import Testing

/// Edits that leave the data saying something true, run through the built binary.
@Suite struct EditsStayTrueTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func aNewPageCountDerivesEveryPercentAgain() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "100", "--date", "yesterday").exitCode == 0)
        #expect(try bookclub.run("progress", "dune", "150").exitCode == 0)
        #expect(try bookclub.run("edit", "dune", "--pages", "896").exitCode == 0)
        let show = try bookclub.run("show", "dune").stdout
        #expect(show.contains("p. 150 of 896 (17%)"), "\(show)")
        #expect(!show.contains("36%") && !show.contains("24%"), "no percent of the old count is left: \(show)")
        let json = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        let entries = try #require((json["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["progress"] as? Double } == [100.0 / 896, 150.0 / 896])
        #expect(json["progress"] as? Double == 150.0 / 896)
        #expect(try bookclub.run("list").stdout.contains(" 17%  p. 150/896"))
        // The same after the journal is folded into store.json.
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0)
        #expect(try bookclub.run("show", "dune").stdout.contains("p. 150 of 896 (17%)"))
    }

    @Test func aBookLoggedInPercentShowsItsPercent() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Emma")
        #expect(try bookclub.run("progress", "emma", "45%").exitCode == 0)
        let list = try bookclub.run("list").stdout
        #expect(list.contains(" 45%") && !list.contains("no progress yet"), "\(list)")
        _ = try bookclub.add("Kindred")
        #expect(try bookclub.run("list").stdout.contains("not started"))
    }

    @Test func scenesBelongToTheirStore() throws {
        defer { bookclub.cleanUp() }
        let other = bookclub.home + "/other/store.json"
        _ = try bookclub.add("Dune")
        #expect(try bookclub.run("--store", other, "add", "Emma").exitCode == 0)
        #expect(try bookclub.run("select", "dune").exitCode == 0)
        #expect(try bookclub.run("--store", other, "select", "emma").exitCode == 0)
        #expect(try bookclub.run("select").stdout.hasSuffix("  Dune\n"))
        #expect(try bookclub.run("--store", other, "select").stdout.hasSuffix("  Emma\n"))
        // doctor --fix on one store keeps the other's selection.
        #expect(try bookclub.run("--store", other, "doctor", "--fix").exitCode == 0)
        #expect(try bookclub.run("select").stdout.hasSuffix("  Dune\n"))
        // The same store named by a relative path is the same store.
        let relative = try bookclub.run("--store", "other/store.json", "select")
        #expect(relative.stdout.hasSuffix("  Emma\n"), "\(relative)")
    }

    @Test func aKeptDraftIsOfferedAgain() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let writeThenFail = #"f() { printf '200\nthe sleeper must awaken\n' > "$1"; exit 1; }; f"#
        let failed = try bookclub.run("progress", "dune", "--edit", environment: ["EDITOR": writeThenFail])
        #expect(failed.exitCode == 1)
        #expect(failed.stderr.contains("Your draft is kept at "))
        let resumed = try bookclub.run("progress", "dune", "--edit", environment: ["EDITOR": "true"])
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("Resuming your draft kept at "))
        #expect(resumed.stderr.hasSuffix("'Dune': p. 200 of 412 (49%).\n"))
        #expect(try bookclub.run("notes", "dune").stdout.contains("the sleeper must awaken"))
        // Once used, the draft is gone: the next edit starts afresh.
        let fresh = try bookclub.run("progress", "dune", "--edit", environment: ["EDITOR": "true"])
        #expect(!fresh.stderr.contains("Resuming"))
    }
}

/// Ratings and reviews from the command line: each reading has its own, the book shows the latest.
@Suite struct RatingTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    func book() throws -> [String: Any] {
        try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
    }

    @Test func aRatingAndReviewShowUpInShowExportAndStats() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "100", "--date", "yesterday").exitCode == 0)
        let finished = try bookclub.run("finish", "dune", "--rating", "4.5", "--review", "Spice, politics and ecology.")
        #expect(finished.exitCode == 0, "\(finished.stderr)")
        #expect(try bookclub.run("show", "dune").stdout.contains("rated ★★★★½ 4.5/5"))
        #expect(try bookclub.run("show", "dune").stdout.contains("Review\n  Spice, politics and ecology."))
        let json = try book()
        #expect(json["rating"] as? Double == 4.5)
        #expect(json["review"] as? String == "Spice, politics and ecology.")
        #expect((json["readings"] as? [[String: Any]])?.first?["rating"] as? Double == 4.5)
        let export = try bookclub.run("export", "--format", "json").stdout
        #expect(export.contains(#""rating" : 4.5"#) && export.contains(#""review" : "Spice, politics and ecology.""#))
        let stats = try #require(try bookclub.json("stats", "--json") as? [String: Any])
        #expect(stats["rated"] as? Int == 1)
        #expect(stats["averageRating"] as? Double == 4.5)
        #expect(try bookclub.run("list", "--all", "--stars").stdout.hasSuffix("  ★★★★½\n"))

        // A re-read has its own; the book shows the latest; the first keeps its own.
        #expect(try bookclub.run("reread", "dune").exitCode == 0)
        #expect(try bookclub.run("finish", "dune", "--rating", "3").exitCode == 0)
        let again = try book()
        #expect(again["rating"] as? Double == 3)
        #expect(again["review"] as? String == "Spice, politics and ecology.", "the latest review there is")
        #expect((again["readings"] as? [[String: Any]])?.map { $0["rating"] as? Double } == [4.5, 3])

        // The JSON export carries both through an import into an empty store.
        let path = bookclub.home + "/export.json"
        #expect(try bookclub.run("export", "--format", "json", "--output", path).exitCode == 0)
        let other = bookclub.home + "/other.json"
        #expect(try bookclub.run("--store", other, "import", "json", path).exitCode == 0)
        #expect(
            try bookclub.run("--store", other, "export", "--format", "json").stdout
                == (try String(contentsOfFile: path, encoding: .utf8)))
    }

    @Test func editRatesTheLatestReadingAndAnEmptyValueClears() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("edit", "dune", "--rating", "2.25").exitCode == 0, "an unread book may be rated")
        #expect(try book()["rating"] as? Double == 2.25)
        #expect(try bookclub.run("finish", "dune").exitCode == 0)
        #expect(
            try bookclub.run("edit", "dune", "--rating", "4.75", "--review", "Better the second time I thought of it.")
                .exitCode == 0)
        #expect(try book()["rating"] as? Double == 4.75)
        #expect(try bookclub.run("edit", "dune", "--rating", "", "--review", "").exitCode == 0)
        let cleared = try book()
        #expect(cleared["rating"] as? Double == 2.25, "the book's own rating shows once the reading's is cleared")
        #expect(cleared["review"] == nil)
    }

    @Test(arguments: ["4.3", "5.25", "-1", "nan", "four", "1e400"])
    func aRatingOutOfStepIsAUsageError(_ value: String) throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let result = try bookclub.run("finish", "dune", "--rating", value)
        #expect(result.exitCode == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: The value '\(value)' is invalid for '--rating <stars>': expected 0 to 5 in steps of 0.25"))
        #expect(try book()["status"] as? String == "unstarted")
    }
}

/// What `history`, `undo`, `unfinish` and `notes --club` say is what happened.
@Suite struct TrueAccountsTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func historyAndUndoDescribeABackdatedEntryByItsOwnPage() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "150").exitCode == 0)
        #expect(try bookclub.run("progress", "dune", "100", "--date", "2 days ago").exitCode == 0)
        let history = try #require(try bookclub.json("history", "--json") as? [[String: Any]])
        #expect(history.first?["summary"] as? String == "'Dune': p. 100, backdated")
        #expect(try bookclub.run("undo").stderr.hasSuffix("'Dune': p. 100, backdated.\n"))
    }

    @Test func unfinishKeepsTheEndingWithItsNote() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "150", "--date", "yesterday").exitCode == 0)
        #expect(try bookclub.run("finish", "dune", "--note", "skimmed the appendices").exitCode == 0)
        #expect(try bookclub.run("unfinish", "dune").exitCode == 0)
        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        let reading = try #require((book["readings"] as? [[String: Any]])?.last)
        #expect((reading["entries"] as? [[String: Any]])?.count == 1, "no progress entry is made of the note")
        #expect((reading["resumed"] as? [[String: Any]])?.first?["note"] as? String == "skimmed the appendices")
        #expect(book["status"] as? String == "reading")
        #expect(try bookclub.run("show", "dune").stdout.contains(", then resumed: skimmed the appendices"))
        #expect(try bookclub.run("progress", "dune", "200").exitCode == 0, "the reading goes on")
    }

    @Test func clubNotesReachBackPastAnotherBooksMeeting() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        _ = try bookclub.add("Kindred", "--pages", "264")
        #expect(try bookclub.run("club", "add", "Sci-Fi Club").exitCode == 0)
        #expect(
            try bookclub.run(
                "club", "meeting", "sci-fi", "--date", BookClubRunner.isoDay(-3) + "T19:00", "--book", "kindred"
            ).exitCode == 0)
        #expect(
            try bookclub.run(
                "club", "meeting", "sci-fi", "--date", BookClubRunner.isoDay(5) + "T19:00", "--book", "dune"
            ).exitCode == 0)
        #expect(
            try bookclub.run(
                "progress", "dune", "100", "--note", "the gom jabbar", "--date", BookClubRunner.isoDay(-10)
            ).exitCode == 0)
        #expect(
            try bookclub.run(
                "progress", "dune", "150", "--note", "Arrakis at night", "--date", BookClubRunner.isoDay(-1)
            ).exitCode == 0)
        let notes = try bookclub.run("notes", "--club", "sci-fi").stdout
        #expect(notes.contains("the gom jabbar") && notes.contains("Arrakis at night"), "\(notes)")

        // A meeting about Dune in between starts the notes afresh.
        #expect(
            try bookclub.run(
                "club", "meeting", "sci-fi", "--date", BookClubRunner.isoDay(-5) + "T19:00", "--book", "dune"
            ).exitCode == 0)
        let since = try bookclub.run("notes", "--club", "sci-fi").stdout
        #expect(!since.contains("the gom jabbar") && since.contains("Arrakis at night"), "\(since)")
    }
}

/// A CSV export read back by bookclub loses nothing the CSV carries.
@Suite struct CSVRoundTripTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func readingsAbandonDatesNotesAndRatingsComeBack() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--author", "Frank Herbert", "--pages", "412", "--tag", "sf")
        #expect(
            try bookclub.run("progress", "dune", "100", "--note", "the gom jabbar", "--date", "2026-01-10").exitCode
                == 0)
        #expect(
            try bookclub.run("finish", "dune", "--date", "2026-02-01", "--rating", "4.5", "--review", "Spice.").exitCode
                == 0)
        #expect(try bookclub.run("reread", "dune").exitCode == 0)
        #expect(try bookclub.run("progress", "dune", "50%", "--note", "second time").exitCode == 0)
        #expect(try bookclub.run("abandon", "dune", "--note", "life got busy").exitCode == 0)
        _ = try bookclub.add("ノルウェイの森", "--author", "村上春樹")

        let csv = try bookclub.run("export", "--format", "csv")
        #expect(
            csv.stdout.hasPrefix(
                "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,"))
        #expect(csv.stdout.split(separator: "\n").first?.hasSuffix(",Read Count,Owned Copies,bookclub") == true)
        try csv.stdout.write(toFile: bookclub.home + "/export.csv", atomically: true, encoding: .utf8)

        let other = bookclub.home + "/other/store.json"
        let imported = try bookclub.run("--store", other, "import", "goodreads", "export.csv")
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let original = try bookclub.run("export", "--format", "json").stdout
        #expect(try bookclub.run("--store", other, "export", "--format", "json").stdout == original)
        let dune = try #require(try bookclub.json("--store", other, "show", "dune", "--json") as? [String: Any])
        let readings = try #require(dune["readings"] as? [[String: Any]])
        #expect(readings.map { $0["status"] as? String } == ["finished", "abandoned"])
        #expect(readings.last?["ended"] != nil, "the abandon date is back")
        // Imported again, into the store it came from: nothing changes.
        let again = try bookclub.run("import", "goodreads", "export.csv")
        #expect(again.stderr == "Imported 0 books; 2 already in the store.\n")
    }

    @Test func aBookclubColumnThatHoldsNoBookIsRefused() throws {
        defer { bookclub.cleanUp() }
        let csv =
            GoodreadsCSV.columns.joined(separator: ",")
            + "\n1,Dune,Frank Herbert,,,,,0,,,,,,,,2026/01/01,,,to-read,,,,0,0,{\"not\": \"a book\"}\n"
        try csv.write(toFile: bookclub.home + "/bad.csv", atomically: true, encoding: .utf8)
        let result = try bookclub.run("import", "goodreads", "bad.csv")
        #expect(result.exitCode == 65)
        #expect(
            result.stderr == "Error: bad.csv: line 2: `bookclub` holds no book bookclub wrote; nothing was imported.\n")
    }
}
