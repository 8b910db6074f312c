import Foundation
import Testing

/// Output taller than the terminal goes through the pager, on a real pseudo-terminal (`script(1)`
/// gives bookclub one): never for a pipe, for `--json` or with `--no-pager`; a missing pager or one
/// that quits early neither fails nor hangs.
@Suite(.enabled(if: ExternalTool.available("script"), "needs script(1), from util-linux"))
struct PagerTests {
    let bookclub: BookClubRunner
    var paged: String { bookclub.home + "/paged.txt" }

    init() throws {
        bookclub = try BookClubRunner()
        for number in 1...30 { _ = try bookclub.add("第\(number)巻 ノルウェイの森", "--pages", "300") }
        // A pager that keeps what it was given, and how it was started.
        try writeProgram(
            "#!/bin/sh\necho \"LESS=$LESS\" > '\(paged)'\ncat >> '\(paged)'\n", to: bookclub.home + "/pager")
    }

    /// Runs bookclub on a terminal of `lines` lines, through `script`.
    func onTerminal(
        _ arguments: [String], pager: String?, lines: Int = 10, extra: [String: String] = [:]
    ) throws -> BookClubRunner.Result {
        let line = ([BookClubRunner.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var environment = bookclub.environment
        environment["LINES"] = String(lines)
        environment["COLUMNS"] = "100"
        environment["PAGER"] = pager
        environment.merge(extra) { $1 }
        return try ExternalTool.run(
            "script", ["-qec", line, "/dev/null"], environment: environment, directory: bookclub.home)
    }

    func pagerRan() -> String? {
        defer { try? FileManager.default.removeItem(atPath: paged) }
        return try? String(contentsOfFile: paged, encoding: .utf8)
    }

    @Test func aTallListGoesThroughThePagerAndNothingElseDoes() throws {
        defer { bookclub.cleanUp() }
        let tall = try onTerminal(["list"], pager: bookclub.home + "/pager")
        #expect(tall.exitCode == 0)
        let text = try #require(pagerRan(), "the pager ran")
        #expect(text.hasPrefix("LESS=FRX\n"), "as git sets it")
        #expect(text.components(separatedBy: "ノルウェイの森").count == 31, "every book reached the pager")
        #expect(!tall.stdout.contains("ノルウェイの森"), "and none the terminal directly")

        for (arguments, lines) in [(["list", "--no-pager"], 10), (["list", "--json"], 10), (["list"], 200)] {
            let result = try onTerminal(arguments, pager: bookclub.home + "/pager", lines: lines)
            #expect(result.exitCode == 0)
            #expect(pagerRan() == nil, "\(arguments) on \(lines) lines: no pager")
            #expect(result.stdout.contains("ノルウェイの森"))
        }
        // Help taller than the terminal too.
        #expect(try onTerminal(["--help"], pager: bookclub.home + "/pager").exitCode == 0)
        #expect(pagerRan()?.contains("READING SUBCOMMANDS:") == true)
        #expect(try onTerminal(["--help", "--no-pager"], pager: bookclub.home + "/pager").stdout.contains("READING"))
        #expect(pagerRan() == nil)
        // In a pipe: never.
        let piped = try bookclub.run(["list"], environment: ["PAGER": bookclub.home + "/pager", "LINES": "10"])
        #expect(pagerRan() == nil && piped.stdout.components(separatedBy: "\n").count == 31)
        // BOOKCLUB_PAGER comes before PAGER; "cat" means none.
        let cat = try onTerminal(["list"], pager: bookclub.home + "/pager", extra: ["BOOKCLUB_PAGER": "cat"])
        #expect(pagerRan() == nil && cat.stdout.contains("ノルウェイの森"))
        _ = try onTerminal(["list"], pager: "cat", extra: ["BOOKCLUB_PAGER": bookclub.home + "/pager"])
        #expect(pagerRan() != nil)
    }

    @Test func aMissingPagerOrOneThatQuitsEarlyNeitherFailsNorHangs() throws {
        defer { bookclub.cleanUp() }
        let missing = try onTerminal(["list"], pager: "/nowhere/less -R")
        #expect(missing.exitCode == 0)
        #expect(missing.stdout.components(separatedBy: "ノルウェイの森").count == 31, "printed as it is")

        let quits = try onTerminal(["list"], pager: "head -n 1")
        #expect(quits.exitCode == 0, "\(quits.stderr)")
        #expect(quits.stdout.components(separatedBy: "ノルウェイの森").count == 2, "the pager showed one line")
    }
}
