import BookClubCore
import Foundation
import Testing

/// The one process runner: arguments reach the program as they are, a time-out kills, an output
/// limit truncates, a missing program is a clear error; and the CLI runs its programs through the
/// runner it is handed.
@Suite struct ProgramRunnerTests {
    let runner = ProgramRunner.live
    let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]

    func run(_ name: String, _ arguments: [String] = [], limit: Int = 1 << 20, input: Program.Input = .null)
        throws -> ProgramResult
    {
        try runner.run(Program(name, arguments, environment: environment, input: input, output: .capture(limit: limit)))
    }

    @Test func argumentsReachTheProgramVerbatimWithNoShell() throws {
        let arguments = [
            "with space", #"it's "quoted""#, "$HOME", "`id`", "$(id)", "*", "ノルウェイの森 📚", "", "-n", "a\nb", ";|&>",
            "\\",
        ]
        let result = try run("printf", [#"%s\0"#] + arguments)
        #expect(result.ending == .exited(0))
        #expect(
            result.output.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
                String(decoding: $0, as: UTF8.self)
            } == arguments)
    }

    @Test func theProgramGetsTheVariablesGivenAndNoOthers() throws {
        let result = try runner.run(
            Program("/usr/bin/env", environment: ["ONLY": "this one"], output: .capture(limit: 4096)))
        #expect(String(decoding: result.output, as: UTF8.self) == "ONLY=this one\n")
    }

    @Test func aTimeOutKillsTheProgramAndSaysSo() throws {
        let start = Date()
        let program = Program(
            "sleep", ["30"], environment: environment, output: .capture(limit: 100), timeout: 0.3,
            ownProcessGroup: true)
        #expect(try runner.run(program).ending == .timedOut)
        let slow = Program("/bin/sh", ["-c", "echo started; exec sleep 30"], environment: environment, timeout: 0.3)
        var captured = slow
        captured.output = .capture(limit: 100)
        let result = try runner.run(captured)
        #expect(result.ending == .timedOut && result.status == -1)
        #expect(result.output == Data("started\n".utf8), "what it printed before is kept")
        #expect(try runner.run(slow).ending == .timedOut)
        #expect(Date().timeIntervalSince(start) < 20, "none waited for its sleep")
        #expect(try run("true").ending == .exited(0), "a time-out not reached changes nothing")
    }

    @Test func outputPastTheLimitIsTruncatedAndTheProgramStopped() throws {
        let exactly = try run("head", ["-c", "1000", "/dev/zero"], limit: 1000)
        #expect(exactly.ending == .exited(0) && !exactly.truncated && exactly.output.count == 1000)
        let more = try run("head", ["-c", "10000000", "/dev/zero"], limit: 1000)
        #expect(more.truncated)
        #expect(more.output == Data(count: 1000), "the bytes up to the limit")
        #expect(more.status != 0)
    }

    @Test func aMissingProgramIsAClearError() throws {
        #expect(throws: BookClubError.cannotStart(program: "no-such-program", cause: "not found on PATH")) {
            try run("no-such-program")
        }
        #expect(throws: BookClubError.cannotStart(program: "/nowhere/program", cause: "not an executable")) {
            try run("/nowhere/program")
        }
        #expect(
            BookClubError.cannotStart(program: "sqlite3", cause: "not found on PATH").localizedDescription
                == "Cannot start sqlite3: not found on PATH.")
        #expect(BookClubError.cannotStart(program: "x", cause: "y").kind == .unavailable, "exit 69")
        #expect(runner.find("no-such-program", environment) == nil)
        #expect(runner.find("sh", environment)?.hasSuffix("/sh") == true)
    }

    @Test func exitStatusAndSignalAreTold() throws {
        #expect(try run("/bin/sh", ["-c", "exit 3"]).ending == .exited(3))
        let killed = try run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(killed.ending == .signaled(SIGTERM) && killed.status == -1)
    }

    @Test func bytesGoToStandardInputAndAProgramThatNeverReadsThemCannotBlock() throws {
        let text = Data("ノルウェイの森\nline two\n".utf8)
        #expect(try run("cat", input: .bytes(text)).output == text)
        #expect(try run("true", input: .bytes(Data(count: 4 << 20))).ending == .exited(0))
        #expect(try run("head", ["-c", "1"], input: .bytes(Data(count: 4 << 20))).output == Data(count: 1))
    }

    @Test func aShellCommandLineTakesItsArgumentsAfterIt() throws {
        var program = Program.shell("printf '%s|' first", arguments: ["a b", "$HOME", "c"], environment: environment)
        #expect(program.name == "/bin/sh" && program.input == .inherit && program.output == .inherit)
        program.output = .capture(limit: 100)
        #expect(try runner.run(program).output == Data("first|a b|$HOME|c|".utf8))
        var alone = Program.shell("echo alone", environment: environment)
        alone.output = .capture(limit: 100)
        #expect(try runner.run(alone).output == Data("alone\n".utf8))
    }
}

/// The CLI runs every program through the runner its services hold: a fake one stands in for
/// sqlite3, a hook and the editor, and sees what each was given.
@Suite struct FakeProgramRunnerTests {
    /// A runner that answers `answer` and keeps every program it was asked to run.
    final class Fake {
        var programs: [Program] = []
        var answer: (Program) throws -> ProgramResult = { _ in ProgramResult(ending: .exited(0)) }
        var runner: ProgramRunner {
            ProgramRunner(
                find: { name, _ in name },
                run: { [unowned self] program in
                    programs.append(program)
                    return try answer(program)
                })
        }
    }

    @Test func koreaderStatisticsAreQueriedThroughTheRunner() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let database = bookclub.home + "/statistics #1.sqlite3"
        try Data("SQLite format 3\0 and the rest".utf8).write(to: URL(fileURLWithPath: database))
        let fake = Fake()
        fake.answer = { _ in ProgramResult(ending: .exited(0), output: Data(KOReaderStatisticsTests.rows.utf8)) }
        let result = InProcess.run(["import", "koreader", database], home: bookclub.home, runner: fake.runner)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 book (1 new to bookclub)"))
        let sqlite3 = try #require(fake.programs.first)
        #expect(fake.programs.count == 1)
        #expect(sqlite3.name == "sqlite3" && sqlite3.input == .null && !sqlite3.showsErrors)
        #expect(
            sqlite3.arguments.prefix(3) == [
                "-readonly", "-json", "file:\(bookclub.home)/statistics %231.sqlite3?immutable=1",
            ])
        #expect(sqlite3.output == .capture(limit: SQLiteFile.largestOutput))

        fake.answer = { _ in ProgramResult(ending: .exited(1)) }
        let failed = InProcess.run(["import", "koreader", database], home: bookclub.home, runner: fake.runner)
        #expect(failed.code == 65)
        #expect(
            failed.stderr.contains("sqlite3 could not read KOReader's statistics from it (it exited with status 1)"))
    }

    @Test func aHookGetsItsPayloadOnStandardInputInAGroupOfItsOwnWithTheTimeOut() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let hooks = bookclub.home + "/.config/bookclub/hooks"
        try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: hooks + "/on-add", contents: Data(), attributes: [.posixPermissions: 0o755])
        let fake = Fake()
        fake.answer = { _ in ProgramResult(ending: .timedOut) }
        let result = InProcess.run(["add", "Dune"], home: bookclub.home, runner: fake.runner)
        #expect(result.code == 0)
        #expect(result.stderr.contains("Hook on-add ran past the hookTimeout of 10 s and was stopped"))
        let hook = try #require(fake.programs.first)
        #expect(hook.name == hooks + "/on-add" && hook.arguments.isEmpty)
        #expect(hook.output == .standardError && hook.showsErrors && hook.ownProcessGroup && hook.timeout == 10)
        let payload: Data? = if case .bytes(let bytes) = hook.input { bytes } else { nil }
        #expect(String(decoding: try #require(payload), as: UTF8.self).contains(#""event":"add""#))
        #expect(hook.environment["BOOKCLUB_NO_HOOKS"] == "1")
    }

    @Test func theEditorIsTheShellCommandLineWithTheDraftAfterIt() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let fake = Fake()
        fake.answer = { program in
            try Data("120\nthe spice\n".utf8).write(to: URL(fileURLWithPath: program.arguments.last!))
            return ProgramResult(ending: .exited(0))
        }
        let result = InProcess.run(
            ["progress", "dune", "--edit"], home: bookclub.home, variables: ["EDITOR": "my editor --wait"],
            runner: fake.runner)
        #expect(result.code == 0, "\(result.stderr)")
        let editor = try #require(fake.programs.first)
        #expect(editor.name == "/bin/sh" && editor.input == .inherit && editor.output == .inherit)
        #expect(editor.arguments.prefix(3) == ["-c", #"my editor --wait "$@""#, "my editor --wait"])
        let book = try bookclub.json("show", "dune", "--json") as? [String: Any]
        #expect(book?["page"] as? Int == 120)

        fake.answer = { _ in ProgramResult(ending: .signaled(9)) }
        let stopped = InProcess.run(
            ["progress", "dune", "--edit"], home: bookclub.home, variables: ["EDITOR": "vi"], runner: fake.runner)
        #expect(stopped.code == 1)
        #expect(stopped.stderr.hasPrefix("Error: The editor 'vi' was stopped by signal 9; nothing was logged."))
    }
}
