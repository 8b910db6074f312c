import Foundation
import Testing

@testable import bookclub

/// The completion scripts in real shells, and the manual page through man(1). A shell or man that is
/// not installed skips its test, except in CI (`CI=true`), whose `.ci/run` installs them.
@Suite struct ShellTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    /// The path of `tool`, or `nil` (noted) when it is not installed outside CI; in CI, a failure.
    static func tool(_ tool: String) -> String? {
        for folder in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)") {
            return "\(folder)/\(tool)"
        }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(tool) is not installed; .ci/run installs it")
        } else {
            print("note: \(tool) is not installed; its check was skipped")
        }
        return nil
    }

    /// Runs `executable` with `arguments` in the test home, with bookclub on the PATH.
    func shell(_ executable: String, _ arguments: [String]) throws -> BookClubRunner.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = bookclub.environment
        environment["PATH"] = BookClubRunner.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: bookclub.home)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self), exitCode: process.terminationStatus)
    }

    /// Writes the completion script for `shell` into the home and returns its path.
    func script(_ shell: String) throws -> String {
        let result = try bookclub.run("completions", shell)
        #expect(result.exitCode == 0 && result.stderr == "")
        let path = bookclub.home + "/completion." + shell
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func shelf() throws {
        for title in ["Dune", "The Left Hand of Darkness", "Evil $(touch pwned) `touch pwned`"] {
            _ = try bookclub.add(title)
        }
        try bookclub.run("club", "add", "Sci fi")
    }

    @Test(arguments: [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])])
    func eachScriptParsesInItsShell(_ name: String, _ flags: [String]) throws {
        defer { bookclub.cleanUp() }
        guard let executable = Self.tool(name) else { return }
        let checked = try shell(executable, flags + [try script(name)])
        #expect(checked.exitCode == 0, "\(name): \(checked.stderr)")
        #expect(checked.stderr == "")
    }

    @Test func bashCompletesTitlesAsOneWordEachAndNeverRunsThem() throws {
        defer { bookclub.cleanUp() }
        guard let bash = Self.tool("bash") else { return }
        try shelf()
        let path = try script("bash")
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program = "source '\(path)'; COMP_WORDS=(bookclub \(quoted)); COMP_CWORD=\(words.count); _bookclub; printf '%s\\n' \"${COMPREPLY[@]}\""
            let result = try shell(bash, ["-c", program])
            #expect(result.exitCode == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["progress", ""]) == ["Dune", #"The\ Left\ Hand\ of\ Darkness"#, #"Evil\ \$\(touch\ pwned\)\ \`touch\ pwned\`"#])
        #expect(try complete(["show", "the"]) == [#"The\ Left\ Hand\ of\ Darkness"#])
        #expect(try complete(["--st"]) == ["--store"])
        #expect(try complete(["export", "--format", ""]) == ["json", "csv", "markdown"])
        #expect(try complete(["club", "meeting", "x", "--book", "du"]) == ["Dune"])
        #expect(try complete(["select", "--club", ""]) == [#"Sci\ fi"#])
        #expect(try complete(["--store", "elsewhere.json", "show", ""]) == [], "the store on the line is the one asked")
        #expect(!FileManager.default.fileExists(atPath: bookclub.home + "/pwned"), "a title is never run")
    }

    @Test func fishCompletesTitles() throws {
        defer { bookclub.cleanUp() }
        guard let fish = Self.tool("fish") else { return }
        try shelf()
        let path = try script("fish")
        let result = try shell(fish, ["-c", "source '\(path)'; complete -C 'bookclub progress '"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let offered = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(Set(offered) == ["Dune", "The Left Hand of Darkness", "Evil $(touch pwned) `touch pwned`"])
        let clubs = try shell(fish, ["-c", "source '\(path)'; complete -C 'bookclub club show '"])
        #expect(clubs.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") } == ["Sci fi"])
        #expect(!FileManager.default.fileExists(atPath: bookclub.home + "/pwned"))
    }

    @Test func theListsForScriptsAreQuietWhateverTheStore() throws {
        defer { bookclub.cleanUp() }
        #expect(try bookclub.run("completions", "--list", "books") == .init(stdout: "", stderr: "", exitCode: 0))
        try FileManager.default.createDirectory(
            atPath: (bookclub.storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "{ not json".write(toFile: bookclub.storePath, atomically: true, encoding: .utf8)
        #expect(try bookclub.run("completions", "--list", "books") == .init(stdout: "", stderr: "", exitCode: 0))
        try FileManager.default.removeItem(atPath: bookclub.storePath)
        _ = try bookclub.add("Two\nlines\u{1B}[2J")
        #expect(try bookclub.run("completions", "--list", "books").stdout == "Two lines [2J\n")
        let missing = try bookclub.run("completions")
        #expect(missing.exitCode == 64)
        #expect(missing.stderr.hasPrefix("Error: Missing expected argument '<shell>'"))
        #expect(try bookclub.run("completions", "tcsh").exitCode == 64)
        #expect(!(try bookclub.run("completions", "--help").stdout.contains("--list")), "the scripts' option is not in help")
    }

    @Test func theManualRendersWithoutWarningsAndHasEveryCommand() throws {
        defer { bookclub.cleanUp() }
        let page = try bookclub.run("manual")
        #expect(page.exitCode == 0 && page.stderr == "")
        #expect(page.stdout.hasPrefix(".TH BOOKCLUB 1 \"2026\\-11\\-22\""))
        let path = bookclub.home + "/bookclub.1"
        try page.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        if let groff = Self.tool("groff") {
            let checked = try shell(groff, ["-man", "-ww", "-z", path])
            #expect(checked.stderr == "" && checked.exitCode == 0, "\(checked.stderr)")
        }
        guard let man = Self.tool("man") else { return }
        let process = try shell("/usr/bin/env", ["MANWIDTH=80", "LC_ALL=C.UTF-8", man, "--warnings", "-l", path])
        #expect(process.exitCode == 0)
        #expect(process.stderr == "", "man warned: \(process.stderr)")
        let text = process.stdout
        for (command, _) in CLI.commands {
            #expect(text.contains("\n   \(command)\n"), "\(command) has no section")
        }
        for word in ["--store <path>", "--no-hooks", "BOOKCLUB_STORE", "EXIT STATUS", "bookclub progress [<book>] [<value>]"] {
            #expect(text.contains(word), "\(word)")
        }
    }

    @Test func helpTextsHaveNoStrayRunsOfSpaces() {
        var texts = CLI.globalOptions.map(\.help)
        for (_, type) in CLI.commands {
            let configuration = type.configuration
            texts += [configuration.abstract, configuration.discussion] + configuration.options.map(\.help) + configuration.arguments.map(\.help)
        }
        texts += ManualCommand.description
        for text in texts {
            #expect(!text.contains("  "), "\(text)")
        }
    }
}
