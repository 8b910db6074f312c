import BookClubCore
import Foundation
import Testing

/// Input an attacker or a careless user gives: refused in words, never a trap, a hang or a raw
/// control character on the terminal.
@Suite struct HostileInputTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test(arguments: ["\u{1B}]0;x\u{07}", "\u{9B}31m", "--\u{202E}x", "\u{7F}"])
    func controlCharactersInArgumentsAreShownNotSent(_ argument: String) throws {
        defer { bookclub.cleanUp() }
        let result = try bookclub.run("list", argument)
        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(!result.stderr.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
    }

    @Test func aPageCountNoCommandWouldTakeIsRefusedByName() throws {
        defer { bookclub.cleanUp() }
        let document = """
            {"format": "bookclub-export", "version": 1, "books": [{"id": "d1", "title": "Dune", "pages": 9223372036854775807,
             "added": "2026-01-01T00:00:00Z", "tags": [], "readings": []}], "clubs": []}
            """
        try document.write(toFile: bookclub.home + "/huge.json", atomically: true, encoding: .utf8)
        let result = try bookclub.run("import", "json", "huge.json")
        #expect(result.exitCode == 65)
        #expect(result.stderr.contains("huge.json") && result.stderr.contains("'Dune'") && result.stderr.contains("pages"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bookclub.storePath))
    }

    @Test func anEntryPastAnyPageInTheHistoryIsRefused() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        #expect(try bookclub.run("progress", "dune", "100").exitCode == 0)
        let history = bookclub.storePath + ".history"
        let text = try String(contentsOfFile: history, encoding: .utf8)
        try text.replacing("\"page\":100", with: "\"page\":9223372036854775807").write(toFile: history, atomically: true, encoding: .utf8)
        for command in [["show", "dune"], ["stats"], ["export"]] {
            let result = try bookclub.run(command)
            #expect(result.exitCode == 65, "\(command): \(result)")
            #expect(result.stderr.contains("store.json.history"), "\(command): \(result.stderr)")
        }
    }

    /// Rows as long as the longest note once cost every row; a generous bound catches that again
    /// (it took 20 s) without timing anything finer.
    @Test func showIsLinearInTheLongestNote() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "10000")
        let lines = (1...5_000).map { page in
            #"{"book": "dune", "page": \#(page)"# + (page == 2_500 ? #", "note": "\#(String(repeating: "spice ", count: 34_000))""# : "") + "}"
        }
        #expect(try bookclub.run(["log", "--stdin"], input: lines.joined(separator: "\n") + "\n").exitCode == 0)
        let started = Date()
        let show = try bookclub.run(["show", "dune"], environment: ["COLUMNS": ""])
        #expect(show.exitCode == 0)
        #expect(show.stdout.split(separator: "\n").count > 5_000)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func oneFileNeverPlaysTwoRoles() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune")
        let store = try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath))
        let settings = try bookclub.run(["doctor", "--fix"], environment: ["BOOKCLUB_SETTINGS": bookclub.storePath])
        #expect(settings.exitCode == 64)
        #expect(settings.stderr.hasPrefix("Error: the store and the settings file are the same file ("), "\(settings.stderr)")
        let output = try bookclub.run("notes", "dune", "--output", ".local/share/bookclub/../bookclub/store.json.journal")
        #expect(output.exitCode == 64)
        #expect(output.stderr.hasPrefix("Error: the store's journal and --output are the same file ("))
        #expect(try Data(contentsOf: URL(fileURLWithPath: bookclub.storePath)) == store, "nothing was written")
        #expect(try bookclub.run("notes", "dune", "--output", "dune.md").exitCode == 0)
    }
}
