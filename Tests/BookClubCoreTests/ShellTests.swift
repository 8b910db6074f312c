import Foundation
import Testing

@testable import bookclub

/// The shells, man and groff that check the completion scripts and the manual page. Under `CI=true`
/// they are required (`.ci/run` installs them); elsewhere a test whose tool is missing is skipped,
/// with the reason in the test report.
enum ExternalTool {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The tool's path on `PATH`, or nil.
    static func path(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a test needing these tools runs: when they are all there, and always on CI, where a
    /// missing one fails the test.
    static func available(_ names: String...) -> Bool {
        isCI || names.allSatisfy { path($0) != nil }
    }

    /// Runs a tool that must exist (the test fails clearly when it does not).
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String], directory: String
    ) throws -> BookClubRunner.Result {
        let executable = try #require(
            path(name), "\(name) is not installed: apt-get install zsh fish man-db groff-base")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The tools print little: reading one pipe after the other cannot fill either.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            exitCode: process.terminationStatus)
    }
}

/// The completion scripts, each run by its own shell against a temporary store, and the hidden
/// listings they ask bookclub for.
@Suite struct ShellTests {
    let bookclub: BookClubRunner
    static let skipReason: Comment = "the shell is not installed (apt-get install zsh fish); CI=true requires it"

    init() throws {
        var runner = try BookClubRunner()
        let folder = BookClubRunner.executable.deletingLastPathComponent().path
        runner.environment["PATH"] = folder + ":" + (runner.environment["PATH"] ?? "/usr/bin:/bin")
        bookclub = runner
    }

    /// Writes the script for `shell` into the temporary home and returns its path.
    func script(_ shell: String) throws -> String {
        let result = try bookclub.run("completions", shell)
        #expect(result.exitCode == 0 && result.stderr == "", "\(result.stderr)")
        let path = bookclub.home + "/bookclub.\(shell)"
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func shell(_ name: String, _ arguments: [String]) throws -> BookClubRunner.Result {
        try ExternalTool.run(name, arguments, environment: bookclub.environment, directory: bookclub.home)
    }

    /// Dune and The Left Hand of Darkness in the default store, Solaris alone in `other.json`.
    func addBooks() throws -> String {
        _ = try bookclub.add("Dune")
        _ = try bookclub.add("The Left Hand of Darkness")
        let other = bookclub.home + "/other.json"
        #expect(try bookclub.run("add", "Solaris", "--store", other).exitCode == 0)
        return other
    }

    // MARK: Each script parses in its shell

    @Test(.enabled(if: ExternalTool.available("bash"), skipReason)) func bashParsesItsScript() throws {
        defer { bookclub.cleanUp() }
        let result = try shell("bash", ["-n", try script("bash")])
        #expect(result == .init(stdout: "", stderr: "", exitCode: 0))
    }

    @Test(.enabled(if: ExternalTool.available("zsh"), skipReason)) func zshParsesItsScript() throws {
        defer { bookclub.cleanUp() }
        let result = try shell("zsh", ["-n", try script("zsh")])
        #expect(result == .init(stdout: "", stderr: "", exitCode: 0))
    }

    @Test(.enabled(if: ExternalTool.available("fish"), skipReason)) func fishParsesItsScript() throws {
        defer { bookclub.cleanUp() }
        let result = try shell("fish", ["--no-execute", try script("fish")])
        #expect(result == .init(stdout: "", stderr: "", exitCode: 0))
    }

    // MARK: What they complete

    /// COMPREPLY after `_bookclub` runs on `words`, set up as bash itself splits a line (at spaces,
    /// and at `:` and `=`); the cursor is at the end of the last word.
    func bashCompletes(_ words: [String], line: String, script: String) throws -> [String] {
        let program = """
            source "$1"; shift
            COMP_LINE=$1; shift
            COMP_POINT=${#COMP_LINE}
            COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
            _bookclub bookclub "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '<%s>\\n' "${COMPREPLY[@]}"
            """
        let result = try shell("bash", ["-c", program, "bash", script, line] + words)
        #expect(result.stderr == "" && result.exitCode == 0, "\(words): \(result.stderr)")
        return result.stdout.split(separator: "\n").filter { $0 != "<>" }.map { String($0.dropFirst().dropLast()) }
    }

    @Test(.enabled(if: ExternalTool.available("bash"), skipReason)) func bashCompletesTitlesAsSingleWords() throws {
        defer { bookclub.cleanUp() }
        let other = try addBooks()
        _ = try bookclub.add("Sapiens: A Brief History")
        let script = try script("bash")
        #expect(
            try bashCompletes(["bookclub", "progress", ""], line: "bookclub progress ", script: script)
                == ["Dune", "Sapiens: A Brief History", "The Left Hand of Darkness"])
        #expect(
            try bashCompletes(["bookclub", "progress", "th"], line: "bookclub progress th", script: script)
                == ["The Left Hand of Darkness"])
        #expect(
            try bashCompletes(["bookclub", "progress", "'The L"], line: "bookclub progress 'The L", script: script)
                == ["The Left Hand of Darkness"])
        // Bash splits at the colon and readline replaces what follows it.
        #expect(
            try bashCompletes(
                ["bookclub", "show", "Sapiens", ":", "\\ A"], line: "bookclub show Sapiens:\\ A", script: script)
                == [" A Brief History"])
        #expect(
            try bashCompletes(
                ["bookclub", "club", "meeting", "x", "--book", "D"], line: "bookclub club meeting x --book D",
                script: script)
                == ["Dune"])
        #expect(
            try bashCompletes(
                ["bookclub", "--store", other, "select", ""], line: "bookclub --store \(other) select ", script: script)
                == ["Solaris"])
        #expect(
            try bashCompletes(
                ["bookclub", "--store", "=", other, "select", ""], line: "bookclub --store=\(other) select ",
                script: script)
                == ["Solaris"])
        #expect(
            try bashCompletes(
                ["bookclub", "--store", "/nonexistent/store.json", "show", ""],
                line: "bookclub --store /nonexistent/store.json show ", script: script) == [])
        // A title is data: offered, never run.
        _ = try bookclub.add("Evil $(touch pwned) `touch pwned`")
        #expect(
            try bashCompletes(["bookclub", "show", "Ev"], line: "bookclub show Ev", script: script) == [
                "Evil $(touch pwned) `touch pwned`"
            ])
        #expect(!FileManager.default.fileExists(atPath: bookclub.home + "/pwned"))
    }

    @Test(.enabled(if: ExternalTool.available("bash"), skipReason)) func bashCompletesCommandsOptionsAndValues() throws
    {
        defer { bookclub.cleanUp() }
        let script = try script("bash")
        #expect(try bashCompletes(["bookclub", "--st"], line: "bookclub --st", script: script) == ["--store"])
        #expect(try bashCompletes(["bookclub", "prog"], line: "bookclub prog", script: script) == ["progress"])
        #expect(
            try bashCompletes(["bookclub", "club", "ren"], line: "bookclub club ren", script: script) == ["rename"])
        #expect(
            try bashCompletes(["bookclub", "list", "--color", "a"], line: "bookclub list --color a", script: script)
                == ["auto", "always"])
        #expect(
            try bashCompletes(["bookclub", "--color", "="], line: "bookclub --color=", script: script)
                == ["auto", "always", "never"])
        #expect(
            try bashCompletes(["bookclub", "completions", ""], line: "bookclub completions ", script: script)
                == ["bash", "fish", "zsh"])
        #expect(
            try bashCompletes(
                ["bookclub", "add", "x", "--author", ""], line: "bookclub add x --author ", script: script) == [])
    }

    /// What `complete -C LINE` prints in fish, without the descriptions.
    func fishCompletes(_ line: String, script: String) throws -> [String] {
        let result = try shell("fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, line])
        #expect(result.stderr == "" && result.exitCode == 0, "\(line): \(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    @Test(.enabled(if: ExternalTool.available("fish"), skipReason)) func fishCompletesTitlesCommandsAndOptions() throws
    {
        defer { bookclub.cleanUp() }
        let other = try addBooks()
        #expect(try bookclub.run("club", "add", "Sci-Fi Club").exitCode == 0)
        let script = try script("fish")
        #expect(try fishCompletes("bookclub progress ", script: script) == ["Dune", "The Left Hand of Darkness"])
        #expect(try fishCompletes("bookclub --store \(other) progress ", script: script) == ["Solaris"])
        #expect(try fishCompletes("bookclub --store=\(other) progress ", script: script) == ["Solaris"])
        #expect(try fishCompletes("bookclub --store /nonexistent/store.json progress ", script: script) == [])
        #expect(try fishCompletes("bookclub progress Dune ", script: script) == [])
        #expect(try fishCompletes("bookclub club show ", script: script) == ["Sci-Fi Club"])
        #expect(try fishCompletes("bookclub notes --club ", script: script) == ["Sci-Fi Club"])
        #expect(try fishCompletes("bookclub --st", script: script) == ["--store"])
        #expect(try fishCompletes("bookclub list --color ", script: script) == ["always", "auto", "never"])
        #expect(try fishCompletes("bookclub completions ", script: script) == ["bash", "fish", "zsh"])
        #expect(try fishCompletes("bookclub add x --author ", script: script) == [])
        #expect(try fishCompletes("bookclub prog", script: script) == ["progress"])
    }

    /// What the zsh function adds, run outside the line editor: `compadd`, `compset`, `_describe`
    /// and `_files` are stand-ins that print what they are given (zsh itself then matches it
    /// against the prefix and quotes it).
    func zshCompletes(_ words: [String], script: String) throws -> [String] {
        let program = """
            compadd() {
                local -a given; local name=
                while (( $# )); do
                    case $1 in
                        (-a) name=$2; shift 2 ;;
                        (-M) shift 2 ;;
                        (--) shift; given+=("$@"); break ;;
                        (*) given+=("$1"); shift ;;
                    esac
                done
                [[ -n $name ]] && given+=("${(@P)name}")
                printf '<%s>\\n' "${given[@]}"
            }
            compset() { PREFIX=${PREFIX#*=}; }
            _describe() { printf '<%s>\\n' "${(@P)4%%:*}"; }
            _files() { print '<files>'; }
            script=$1; shift
            words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}
            source $script
            """
        let result = try shell("zsh", ["-f", "-c", program, "zsh", script] + words)
        #expect(result.stderr == "" && result.exitCode == 0, "\(words): \(result.stderr)")
        return result.stdout.split(separator: "\n").filter { $0 != "<>" }.map { String($0.dropFirst().dropLast()) }
    }

    @Test(.enabled(if: ExternalTool.available("zsh"), skipReason)) func zshAddsTitlesCommandsAndValues() throws {
        defer { bookclub.cleanUp() }
        let other = try addBooks()
        let script = try script("zsh")
        #expect(
            try zshCompletes(["bookclub", "progress", ""], script: script) == ["Dune", "The Left Hand of Darkness"])
        #expect(try zshCompletes(["bookclub", "--store", other, "show", ""], script: script) == ["Solaris"])
        #expect(try zshCompletes(["bookclub", "--store=\(other)", "show", ""], script: script) == ["Solaris"])
        #expect(try zshCompletes(["bookclub", "--store", "/nonexistent/store.json", "show", ""], script: script) == [])
        #expect(try zshCompletes(["bookclub", "--color=a"], script: script) == ["auto", "always", "never"])
        #expect(try zshCompletes(["bookclub", "completions", ""], script: script) == ["bash", "fish", "zsh"])
        #expect(try zshCompletes(["bookclub", "--st"], script: script).contains("--store"))
        #expect(try zshCompletes(["bookclub", ""], script: script).contains("progress"))
    }

    /// Setting keys and their fixed values, meetings, dates, and a book by any word of its title, in
    /// each shell.
    @Test(.enabled(if: ExternalTool.available("bash", "zsh", "fish"), skipReason))
    func settingsMeetingsDatesAndTitleWordsComplete() throws {
        defer { bookclub.cleanUp() }
        _ = try addBooks()
        #expect(try bookclub.run("club", "add", "Sci-Fi Club").exitCode == 0)
        #expect(try bookclub.run("club", "meeting", "sci", "--date", "2030-01-02 19:00").exitCode == 0)
        let bashScript = try script("bash")
        func bash(_ line: String) throws -> [String] {
            var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.last == nil { words.append("") }
            return try bashCompletes(words, line: line, script: bashScript)
        }
        #expect(try bash("bookclub progress left") == ["The Left Hand of Darkness"], "any word of the title")
        #expect(try bash("bookclub progress LEF") == ["The Left Hand of Darkness"])
        #expect(try bash("bookclub settings get lock") == ["lockTimeout"])
        #expect(try bash("bookclub settings set color ") == ["auto", "always", "never"])
        #expect(try bash("bookclub settings set syncProgress f") == ["false"])
        #expect(try bash("bookclub settings set lockTimeout ").allSatisfy { $0.hasPrefix("--") }, "a number: no values")
        #expect(try bash("bookclub settings reset ").contains("yearlyGoal"))
        #expect(try bash("bookclub progress dune 10 --date ye") == ["yesterday"])
        #expect(try bash("bookclub club cancel sci ") == ["2030-01-02", "next"])

        let fish = try script("fish")
        #expect(try fishCompletes("bookclub progress left", script: fish) == ["The Left Hand of Darkness"])
        #expect(try fishCompletes("bookclub settings set color ", script: fish) == ["always", "auto", "never"])
        #expect(try fishCompletes("bookclub settings set updateArtwork ", script: fish) == ["false", "true"])
        #expect(try fishCompletes("bookclub settings get lock", script: fish) == ["lockTimeout"])
        #expect(try fishCompletes("bookclub finish dune --date tod", script: fish) == ["today"])
        #expect(try fishCompletes("bookclub club cancel sci ", script: fish) == ["2030-01-02", "next"])

        let zsh = try script("zsh")
        #expect(
            try zshCompletes(["bookclub", "settings", "set", "color", ""], script: zsh) == ["auto", "always", "never"])
        #expect(try zshCompletes(["bookclub", "settings", "get", ""], script: zsh).contains("syncFolder"))
        #expect(try zshCompletes(["bookclub", "highlight", "dune", "x", "--date", ""], script: zsh).contains("monday"))
        // zsh's fallback to a title's words keeps the typed word on the line while several match.
        let zshText = try String(contentsOfFile: zsh, encoding: .utf8)
        #expect(zshText.contains("compadd -U -a candidates") && zshText.contains("compstate[insert]="))
    }

    // MARK: The listings the scripts ask for

    @Test func titlesAndClubsAreListedOneALine() throws {
        defer { bookclub.cleanUp() }
        _ = try addBooks()
        #expect(try bookclub.run("club", "add", "Sci-Fi Club").exitCode == 0)
        #expect(
            try bookclub.run("completions", "--titles")
                == .init(stdout: "Dune\nThe Left Hand of Darkness\n", stderr: "", exitCode: 0))
        #expect(try bookclub.run("completions", "--clubs") == .init(stdout: "Sci-Fi Club\n", stderr: "", exitCode: 0))
        #expect(
            try bookclub.run("completions", "--titles", "--store", bookclub.home + "/other.json").stdout == "Solaris\n")
        #expect(
            try bookclub.run("completions", "--titles", environment: ["BOOKCLUB_STORE": bookclub.home + "/other.json"])
                .stdout == "Solaris\n")
    }

    @Test func anAbsentOrBrokenStoreListsNothing() throws {
        defer { bookclub.cleanUp() }
        #expect(try bookclub.run("completions", "--titles") == .init(stdout: "", stderr: "", exitCode: 0))
        #expect(!FileManager.default.fileExists(atPath: bookclub.home + "/.local"), "listing creates nothing")
        for content in ["{not json", #"{"schemaVersion": 99, "historyLength": 0, "books": []}"#, ""] {
            try FileManager.default.createDirectory(
                atPath: bookclub.home + "/.local/share/bookclub", withIntermediateDirectories: true)
            try content.write(toFile: bookclub.storePath, atomically: true, encoding: .utf8)
            #expect(try bookclub.run("completions", "--titles") == .init(stdout: "", stderr: "", exitCode: 0))
            #expect(try bookclub.run("completions", "--clubs") == .init(stdout: "", stderr: "", exitCode: 0))
            #expect(try String(contentsOfFile: bookclub.storePath, encoding: .utf8) == content)
        }
        #expect(
            try bookclub.run("completions", "--titles", "--store", bookclub.home)
                == .init(stdout: "", stderr: "", exitCode: 0))
    }

    @Test func listingOnlyReadsAndCleansTitles() throws {
        defer { bookclub.cleanUp() }
        let store = """
            {"schemaVersion": 2, "historyLength": 0, "clubs": [],
             "books": [
               {"id": "b1", "title": "Red\\u001b[31m Alert\\nagain", "tags": [], "added": "2026-11-01T10:00:00Z", "readings": []},
               {"id": "b2", "title": "Dune", "tags": [], "added": "2026-11-01T10:00:00Z", "readings": []},
               {"id": "b3", "title": "Dune", "tags": [], "added": "2026-11-01T10:00:00Z", "readings": []}]}
            """
        let folder = bookclub.home + "/store"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try store.write(toFile: folder + "/store.json", atomically: true, encoding: .utf8)
        let listed = try bookclub.run("completions", "--titles", "--store", folder + "/store.json")
        #expect(listed == .init(stdout: "Dune\nRed[31m Alertagain\n", stderr: "", exitCode: 0))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder) == ["store.json"],
            "no lock, no history, no undo log")
    }

    // MARK: The command

    @Test func completionsNamesItsShells() throws {
        defer { bookclub.cleanUp() }
        let help = try bookclub.run(["completions", "--help"], environment: ["COLUMNS": "200"])
        #expect(help.stdout.contains("(values: bash, fish, zsh)"))
        #expect(!help.stdout.contains("--titles") && !help.stdout.contains("--clubs"))
        #expect(try bookclub.run("help").stdout.contains("  completions "))
        for shell in ["bash", "zsh", "fish"] {
            let script = try bookclub.run("completions", shell)
            #expect(script.exitCode == 0)
            #expect(
                script.stdout == (try bookclub.run("--generate-completion-script", shell)).stdout,
                "the hidden flag gives the same script")
            #expect(
                script.stdout.contains("--titles") && script.stdout.contains("--clubs"),
                "titles and clubs come from bookclub")
        }
        #expect(
            try bookclub.run("completions", environment: ["SHELL": "/usr/bin/fish"]).stdout.contains(
                "complete -c bookclub"))
        #expect(
            try bookclub.run("completions", environment: ["SHELL": "/bin/tcsh"]).stdout.contains(
                "complete -F _bookclub bookclub"))

        let unknown = try bookclub.run("completions", "tcsh")
        #expect(unknown.exitCode == 64)
        #expect(
            unknown.stderr.hasPrefix(
                "Error: The value 'tcsh' is invalid for '<shell>'. Please provide one of 'bash', 'fish' or 'zsh'.\n"))
        #expect(try bookclub.run("completions", "--titles", "bash").exitCode == 64)
        #expect(
            try bookclub.run("completions", "--titles", "--clubs").stderr.hasPrefix(
                "Error: Value to be set with flag '--clubs'"))
    }
}

@Suite struct HelpTextTests {
    /// A text with a run of spaces is a line continuation gone wrong; help, usage and the manual show it.
    @Test func helpTextsHaveNoStrayRunsOfSpaces() {
        var texts = CLI.globalOptions.map(\.spec.help)
        for (_, type) in CLI.commands {
            let configuration = type.configuration
            texts +=
                [configuration.abstract, configuration.discussion] + configuration.options.map(\.help)
                + configuration.arguments.map(\.help)
        }
        for text in texts {
            // Indented lines are meant; a long run inside a line is not.
            let lines = text.split(separator: "\n").map { $0.drop { $0 == " " } }
            #expect(!lines.contains { $0.contains("   ") }, "\(text)")
        }
    }
}
