import Foundation
import Testing

@testable import bookclub

/// `--json` on every command: one JSON document on standard output, and for a command that changes
/// something, the thing it changed.
@Suite struct JSONEverywhereTests {
    @Test func everyCommandTakesJSON() {
        func leaves(_ command: CommandConfiguration, _ path: [String]) -> [(String, CommandConfiguration)] {
            command.subcommands.isEmpty
                ? [(path.joined(separator: " "), command)]
                : command.subcommands.flatMap { leaves($0, path + [$0.name]) }
        }
        let commands = leaves(CLI.root, [])
        #expect(commands.count > 30)
        for (path, command) in commands {
            #expect(command.options.contains { $0.long == "json" }, "bookclub \(path) takes --json")
        }
    }

    @Test func aChangeIsPrintedAsWhatItChanged() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        func object(_ arguments: String...) throws -> [String: Any] {
            let result = try bookclub.run(arguments)
            #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
            return try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                "\(arguments): \(result.stdout)")
        }
        _ = try bookclub.add("ノルウェイの森", "--pages", "400")
        #expect(try object("remove", "ノルウェイの森", "--yes", "--json")["title"] as? String == "ノルウェイの森")

        #expect(try bookclub.run("club", "add", "Tuesday 📚").exitCode == 0)
        #expect(try object("club", "rename", "tuesday", "كتب الثلاثاء", "--json")["name"] as? String == "كتب الثلاثاء")
        #expect(try bookclub.run("club", "meeting", "كتب", "--date", "2030-01-02 19:00").exitCode == 0)
        let cancelled = try object("club", "cancel", "كتب", "next", "--json")
        #expect(cancelled["name"] as? String == "كتب الثلاثاء")
        #expect(try object("club", "remove", "كتب الثلاثاء", "--yes", "--json")["name"] as? String == "كتب الثلاثاء")

        // Settings keep their JSON types.
        let set = try object("settings", "set", "lockTimeout", "30", "--json")
        #expect(set["key"] as? String == "lockTimeout")
        #expect(set["value"] as? Double == 30 && set["defaultValue"] as? Double == 10)
        #expect(try object("settings", "set", "syncProgress", "false", "--json")["value"] as? Bool == false)
        let reset = try object("settings", "reset", "lockTimeout", "--json")
        #expect(reset["value"] as? Double == 10)
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(bookclub.run("settings", "list", "--json").stdout.utf8))
                as? [[String: Any]])
        let color = try #require(listed.first { $0["key"] as? String == "color" })
        #expect(color["value"] as? String == "auto")
        #expect(listed.first { $0["key"] as? String == "yearlyGoal" }?["value"] as? Int == 0)
        #expect(listed.first { $0["key"] as? String == "syncProgress" }?["value"] as? Bool == false)

        #expect(try object("export", "--json")["books"] is [Any])
        let mixed = try bookclub.run("export", "--json", "--format", "csv")
        #expect(mixed.exitCode == 64 && mixed.stderr.contains("--json writes JSON; leave out --format csv"))
        #expect((try object("manual", "--json")["text"] as? String)?.contains(".TH \"BOOKCLUB\" 1") == true)
        #expect(try object("completions", "bash", "--json")["name"] as? String == "bash")
    }
}
