import Foundation
import Testing

@testable import BookClubCore

/// Highlights: passages kept for the meeting, by hand here (the e-reader importers have tests of
/// their own), through every command that shows, exports, imports or reverts them.
@Suite struct HighlightTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func aHighlightByHandIsShownQuotedExportedAndUndone() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("ノルウェイの森", "--author", "村上春樹", "--pages", "300")
        let first = try bookclub.run(
            "highlight", "ノルウェイ", "僕は三十七歳で、そのときボーイング747のシートに座っていた。", "--page", "3", "--note",
            "the opening 🛫", "--date", "2026-11-20")
        #expect(first == .init(stdout: "", stderr: "'ノルウェイの森': highlight 1 kept (p. 3).\n", exitCode: 0))
        try bookclub.run("select", "ノルウェイ")
        // One argument is the passage, of the selected book.
        let second = try bookclub.run("highlight", "مرحبا بالعالم", "--json")
        #expect(second.exitCode == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect(json["text"] as? String == "مرحبا بالعالم")
        #expect(json["source"] as? String == "typed")

        // The book was not started: the highlight started its reading.
        let shown = try bookclub.run(["show"], environment: ["COLUMNS": ""])
        #expect(shown.stdout.contains("  p. 3  “僕は三十七歳で、そのときボーイング747のシートに座っていた。”\n    note: the opening 🛫\n"))
        #expect(shown.stdout.contains("\n  “مرحبا بالعالم”\n"))
        let book = try #require(try bookclub.json("show", "--json") as? [String: Any])
        #expect(book["status"] as? String == "reading")
        let readings = try #require(book["readings"] as? [[String: Any]])
        let highlights = try #require(readings.first?["highlights"] as? [[String: Any]])
        #expect(highlights.count == 2)
        #expect(
            Set(highlights[0].keys) == ["id", "text", "note", "page", "time", "source"],
            "location and chapter appear when a source gives them")
        #expect(highlights[0]["time"] as? String == BookClubRunner.noon("2026-11-20"))

        let notes = try bookclub.run("notes").stdout
        #expect(
            notes.hasSuffix(
                "## Highlights\n\n> 僕は三十七歳で、そのときボーイング747のシートに座っていた。\n> — p. 3\n\nthe opening 🛫\n\n> مرحبا بالعالم\n"))
        #expect(try bookclub.run("export", "--format", "markdown").stdout.contains("#### Highlights\n\n> 僕は三十七歳で"))

        // Export and import carry them whole; a second import adds nothing.
        let exported = try bookclub.run("export", "--format", "json", "--output", "library.json")
        #expect(exported.exitCode == 0)
        let other = try BookClubRunner()
        defer { other.cleanUp() }
        try FileManager.default.copyItem(atPath: bookclub.home + "/library.json", toPath: other.home + "/library.json")
        #expect(try other.run("import", "json", "library.json").exitCode == 0)
        let imported = try #require(try other.json("show", "ノルウェイ", "--json") as? [String: Any])
        #expect(
            NSDictionary(dictionary: imported)
                == NSDictionary(
                    dictionary: try #require(try bookclub.json("show", "ノルウェイ", "--json") as? [String: Any])))
        #expect(try other.run("import", "json", "library.json").stderr.contains("Imported 0 books"))

        // Undo takes back the latest; history says what it was.
        let history = try #require(try bookclub.json("history", "--json") as? [[String: Any]])
        #expect(history.first?["summary"] as? String == "'ノルウェイの森': a highlight")
        #expect(try bookclub.run("undo").exitCode == 0)
        let after = try #require(try bookclub.json("show", "--json") as? [String: Any])
        let kept = (after["readings"] as? [[String: Any]])?.first?["highlights"] as? [[String: Any]]
        #expect(kept?.map { $0["text"] as? String } == ["僕は三十七歳で、そのときボーイング747のシートに座っていた。"])
    }

    @Test func aClubMeetingQuotesTheHighlightsMadeSinceTheLastOne() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        try bookclub.run("club", "add", "Sci-Fi Club")
        let past = BookClubRunner.isoDay(-7)
        let next = BookClubRunner.isoDay(7)
        for day in [past, next] {
            #expect(
                try bookclub.run("club", "meeting", "sci", "--date", "\(day)T19:00", "--book", "dune").exitCode == 0)
        }
        try bookclub.run("highlight", "dune", "Before the last meeting.", "--date", BookClubRunner.isoDay(-10))
        try bookclub.run("highlight", "dune", "Fear is the mind-killer.", "--page", "8", "--note", "the litany")
        let notes = try bookclub.run("notes", "--club", "sci")
        #expect(notes.exitCode == 0, "\(notes.stderr)")
        #expect(notes.stdout.contains("## Highlights\n\n> Fear is the mind-killer.\n> — p. 8\n\nthe litany\n"))
        #expect(!notes.stdout.contains("Before the last meeting."))
        let json = try #require(try bookclub.json("notes", "--club", "sci", "--json") as? [String: Any])
        #expect((json["highlights"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Fear is the mind-killer."])
    }

    @Test func whatAHighlightNeedsIsAskedFor() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        for (arguments, code, message) in [
            (["highlight", "dune", "  "], 64, "Error: Missing expected argument '<text>'"),
            (["highlight", "dune", "text", "--page", "-1"], 64, "Error: "),
            (["highlight", "nothing", "text"], 1, "Error: No book matches 'nothing'"),
        ] as [([String], Int32, String)] {
            let result = try bookclub.run(arguments)
            #expect(result.exitCode == code, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count <= 4, "an error line, then the usage")
        }
        // A passage with a terminal escape is kept as typed and shown with it made visible.
        try bookclub.run("highlight", "dune", "evil \u{1B}]0;owned\u{07} text")
        let shown = try bookclub.run("show", "dune").stdout
        #expect(!shown.contains("\u{1B}]0"))
        #expect(shown.contains("evil \\u{1B}]0;owned\\u{7} text"))
    }
}

/// The rule of `Library.addHighlights`: ids decide what is new, what replaces and what is held.
@Suite struct HighlightRuleTests {
    @Test func anImportAgainAddsNothingAndAnExtendedHighlightReplaces() throws {
        var library = Library(books: [Fixture.book("Dune", id: "aaaa1111")])
        let ids = IDSource { UUID(uuidString: "00000000-0000-0000-0000-000000000001")! }
        let short = Highlight(id: "kindle-1", text: "Fear is", location: "120-121", time: Fixture.now, source: .kindle)
        let other = Highlight(id: "kindle-2", text: "I must not fear.", page: 8, source: .kindle)
        var outcome = try library.addHighlights([short, other], bookID: "aaaa1111", reference: "dune", ids: ids)
        #expect(outcome == .init(added: 2, replaced: 0, unchanged: 0))
        #expect(library.books[0].readings.count == 1)
        #expect(library.books[0].readings[0].started == Fixture.now)

        var extended = short
        extended.text = "Fear is the mind-killer."
        outcome = try library.addHighlights([extended, other], bookID: "aaaa1111", reference: "dune", ids: ids)
        #expect(outcome == .init(added: 0, replaced: 1, unchanged: 1))
        #expect(
            library.books[0].readings[0].highlights?.map(\.text) == ["Fear is the mind-killer.", "I must not fear."])
        #expect(throws: BookClubError.bookNotFound("x")) {
            try library.addHighlights([short], bookID: "nope", reference: "x", ids: ids)
        }
    }
}
