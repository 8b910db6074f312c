import Foundation
import Testing

@testable import BookClubCore
@testable import bookclub

/// The whole program against hostile input, as an attacker or a careless user gives it: seeded
/// mutations of argument lists over every registered command, of the store, its companions, the
/// settings and scene files (bit flips, cuts, zeroed ranges, garbage, huge values, wrong types,
/// symbolic links, loops, folders), of batch lines, real exports, e-readers' files and another
/// machine's log, and of the environment. Each case runs the built binary on a fresh copy of a real
/// home, whose books, clubs and devices came in part from those files with terminal escapes in every
/// text (`HostileHome`), and must end with a documented exit code, in time, with a message on a
/// failure, with no raw control character on standard error or in what it prints for people (JSON
/// and CSV exports keep the data as their format escapes it), and, when it fails, with every file
/// byte for byte as it was.
///
/// CI runs `BOOKCLUB_HOSTILE_COUNT` cases (1,000 unless set); `BOOKCLUB_HOSTILE_SEED` picks another
/// sequence.
@Suite struct HostileFuzzTests {
    static var count: Int { ProcessInfo.processInfo.environment["BOOKCLUB_HOSTILE_COUNT"].flatMap(Int.init) ?? 1_000 }
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["BOOKCLUB_HOSTILE_SEED"].flatMap(UInt64.init) ?? 2026
    }
    static let exitCodes: Set<Int32> = [0, 1, 64, 65, 74, 75]

    /// One case: what it runs, and how the home and the environment were changed first.
    struct Case: CustomStringConvertible {
        var arguments: [String]
        var input: String?
        var environment: [String: String] = [:]
        var unset: [String] = []
        var mutation = "none"
        var description: String {
            "\(mutation) | \(environment) \(unset.map { "-" + $0 }) | \(arguments.map { "\"\($0)\"" }.joined(separator: " "))"
        }
    }

    static let numbers = [
        "0", "1", "+1", "-1", "+5", "-5", "100", "412", "100000", "100001", "9223372036854775807",
        "-9223372036854775808",
        "99999999999999999999", "1e308", "nan", "inf", "50%", "0%", "100%", "100.5%", "-3%", "1/2", "0.5", "4.75",
        "5.5",
    ]
    static let dates = [
        "yesterday", "today", "friday", "next thursday 19:00", "2 days ago", "0000-01-01", "9999-12-31T23:59",
        "2026-02-30", "-2d", "+1w",
    ]
    static let texts = [
        "", " ", "\u{1B}]0;x\u{07}", "\u{9B}31m", "\u{202E}evil", "\u{7F}", "\u{0}", "a\tb", "ノルウェイの森", "مرحبا", "🦄👩‍👩‍👧",
        String(repeating: "x", count: 3_000), "--", "-", "'; rm -rf /", "%n%s", "../../etc", "\n",
    ]
    static let books = ["dune", "Dune", "ノルウェイの森", "كتاب", "emma", "nothing", "d", ""] + HostileHome.references

    static func element<T>(_ values: [T], _ random: inout SeededGenerator) -> T {
        values[Int(random.next() % UInt64(values.count))]
    }

    /// An argument list for a command, with options of that command and values of every kind.
    static func arguments(_ random: inout SeededGenerator) -> [String] {
        let command = element(CLI.commands, &random)
        var arguments = command.path.split(separator: " ").map(String.init)
        for _ in 0..<Int(random.next() % 5) {
            switch random.next() % 6 {
            case 0, 1: arguments.append(element(books, &random))
            case 2: arguments.append(element(numbers, &random))
            case 3: arguments.append(element(texts, &random))
            default:
                guard let option = command.type.configuration.options.randomElement(using: &random) else { continue }
                arguments.append("--" + option.long)
                if case .flag = option.kind {
                } else {
                    arguments.append(element(numbers + dates + texts + books, &random))
                }
            }
        }
        // Never the editor, never a prompt that waits.
        return arguments.filter { $0 != "--edit" }
    }

    /// What a file is changed into.
    static func mutate(_ data: Data, _ random: inout SeededGenerator) -> (Data, String) {
        var data = data
        guard !data.isEmpty else { return (Data("garbage".utf8), "garbage") }
        let at = Int(random.next() % UInt64(data.count))
        switch random.next() % 7 {
        case 0:
            data[at] ^= UInt8(1 << (random.next() % 8))
            return (data, "bit flip at \(at)")
        case 1: return (data.prefix(at), "cut at \(at)")
        case 2:
            let end = min(data.count, at + 1 + Int(random.next() % 64))
            data.replaceSubrange(at..<end, with: Data(count: end - at))
            return (data, "zeroed \(at)..<\(end)")
        case 3:
            return (
                data + Data((0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
                "garbage appended"
            )
        case 4:
            // A number made huge or negative, or of the wrong type.
            var text = String(decoding: data, as: UTF8.self)
            let replacements = [
                "9223372036854775807", "-1", "1e400", "\"x\"", "null", "[]", "{}", "-9223372036854775808", "0.5",
            ]
            let digits = text.indices.filter { text[$0].isNumber }
            guard let index = digits.randomElement(using: &random) else { return (data, "unchanged") }
            let replacement = element(replacements, &random)
            text.replaceSubrange(index...index, with: replacement)
            return (Data(text.utf8), "a digit became \(replacement)")
        case 5:
            var text = String(decoding: data, as: UTF8.self)
            let strings = [
                "\"title\"", "\"pages\"", "\"page\"", "\"id\"", "\"generation\"", "\"historyLength\"", "\"state\"",
                "\"date\"",
            ]
            let key = element(strings, &random)
            text = text.replacing(key, with: element(["\"\"", "\"x\"", key + key, "\"id\""], &random))
            return (Data(text.utf8), "key \(key) replaced")
        default:
            return (Data(data.reversed()), "reversed")
        }
    }

    @Test func theProgramTakesAnything() throws {
        let hostile = try HostileHome()
        defer { hostile.cleanUp() }
        let runner = hostile.laptop
        let home = runner.home
        try prepare(runner)
        let pristine = PowerCut.Disk.read(home)
        let exports =
            RealExports.isPresent
            ? try ["goodreads-2024-24col.csv", "storygraph.csv"].map { try RealExports.data($0) } : []
        var random = SeededGenerator(state: Self.seed)
        var tally: [Int32: Int] = [:]
        var problems: [String] = []
        for number in 0..<Self.count where problems.count < 20 {
            try pristine.write(to: home)
            var testCase = Case(arguments: [])
            switch random.next() % 7 {
            case 0, 1:
                testCase.arguments = Self.arguments(&random)
            case 2:
                // A file of the home changed, then a command that reads or writes it.
                let files = pristine.files.keys.sorted()
                let path = Self.element(files, &random)
                let name = String(path.dropFirst(home.count))
                switch random.next() % 8 {
                case 0:
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
                    testCase.mutation = "\(name) a link loop"
                case 1:
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                    testCase.mutation = "\(name) a folder"
                case 2:
                    try FileManager.default.removeItem(atPath: path)
                    testCase.mutation = "\(name) removed"
                default:
                    let (data, what) = Self.mutate(pristine.files[path]!, &random)
                    try data.write(to: URL(fileURLWithPath: path))
                    testCase.mutation = "\(name): \(what)"
                }
                testCase.arguments = Self.element(
                    [
                        ["list"], ["show", "dune"], ["progress", "dune", "+1"], ["finish", "emma"], ["stats"],
                        ["history"], ["undo"],
                        ["notes", "dune"], ["export"], ["agenda"], ["doctor"], ["settings", "list"], ["add", "New"],
                        ["club", "list"],
                        ["progress", "ノルウェイの森", "50%", "--note", "x"], ["edit", "dune", "--pages", "500"],
                    ] + Self.readers, &random)
            case 3:
                // The environment.
                let variable = Self.element(
                    [
                        "TZ", "COLUMNS", "EDITOR", "HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "LANG",
                        "BOOKCLUB_STORE",
                    ], &random)
                if variable == "HOME" && random.next() % 2 == 0 {
                    testCase.unset = ["HOME"]
                } else {
                    testCase.environment[variable] = Self.element(
                        [
                            "", "0", "-1", "99999999999999999999", "abc", "/etc/passwd/x",
                            home + "/.local/share/bookclub/store.json/x", "\u{1B}[2J",
                            "Mars/Olympus", "<+0545>-5:45", "EST5EDT,M3.2.0,M11.1.0", "../../..", "UTC+99",
                        ], &random)
                }
                testCase.arguments = Self.arguments(&random)
            case 4:
                // Batch lines.
                let lines = (0..<Int(1 + random.next() % 6)).map { _ in
                    Self.element(
                        [
                            #"{"book": "dune", "page": 120}"#,
                            #"{"book": "emma", "percent": 45, "note": "\u001b]0;x\u0007"}"#,
                            #"{"book": "dune", "page": 9223372036854775807}"#, #"{"book": "dune", "percent": 1e400}"#,
                            #"{"book": "dune", "page": -1, "time": "0000-01-01T00:00:00Z"}"#,
                            #"{"book": "", "page": 1}"#,
                            #"{"book": "dune", "action": "finish"}"#, #"{"book": "dune""#, "[]", "null",
                            String(repeating: "[", count: 600),
                            #"{"book": "ノルウェイの森", "page": 10, "time": "2026-11-20T19:00:00+05:30"}"#,
                        ], &random)
                }
                testCase.input = lines.joined(separator: "\n") + "\n"
                testCase.arguments = ["log", "--stdin"] + (random.next() % 3 == 0 ? ["--skip-invalid"] : [])
                testCase.mutation = "batch"
            case 5:
                // An e-reader's file or another machine's log, changed, then read.
                let (path, arguments) = Self.element(
                    [
                        ("My Clippings.txt", ["import", "kindle", "My Clippings.txt"]),
                        ("reader/Ulysses.sdr/metadata.epub.lua", ["import", "koreader", "reader"]),
                        ("shared/devices", ["sync"]),
                    ], &random)
                var file = home + "/" + path
                if path == "shared/devices" {
                    let logs = pristine.files.keys.filter { $0.hasPrefix(file) && $0.hasSuffix(".jsonl") }.sorted()
                    file = Self.element(logs, &random)
                }
                let (data, what) = Self.mutate(pristine.files[file]!, &random)
                try data.write(to: URL(fileURLWithPath: file))
                testCase.arguments =
                    arguments + (arguments[0] == "import" && random.next() % 3 == 0 ? ["--dry-run"] : [])
                testCase.mutation = "\(file.dropFirst(home.count + 1)): \(what)"
            default:
                // A real export, changed.
                guard let export = exports.isEmpty ? nil : Self.element(exports, &random) else { continue }
                let (data, what) = Self.mutate(export, &random)
                try data.write(to: URL(fileURLWithPath: home + "/export.csv"))
                testCase.arguments =
                    ["import", random.next() % 2 == 0 ? "goodreads" : "storygraph", "export.csv"]
                    + (random.next() % 2 == 0 ? ["--dry-run"] : [])
                testCase.mutation = "export: \(what)"
            }
            let before = PowerCut.Disk.read(home)
            let outcome = try run(runner, testCase)
            tally[outcome.exitCode, default: 0] += 1
            // Files, not folders: a command may make the store's folder and lock file before it fails.
            let (was, now) = (
                Self.withoutSyncBookkeeping(before), Self.withoutSyncBookkeeping(PowerCut.Disk.read(home))
            )
            let failures = check(
                outcome, testCase,
                changed: outcome.exitCode == 0
                    ? [] : Set(was.keys).union(now.keys).filter { was[$0] != now[$0] }.sorted())
            problems += failures.map { "case \(number) [\(testCase)]: \($0)" }
        }
        print("hostile fuzz: \(Self.count) cases, seed \(Self.seed), exit codes \(tally.sorted { $0.key < $1.key })")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(
            tally[0, default: 0] > 0 && tally[64, default: 0] > 0 && tally[65, default: 0] > 0,
            "the cases reach past the parser")
    }

    /// What is wrong with an outcome.
    /// - Parameter changed: the files that a failed command changed.
    func check(_ outcome: BookClubRunner.Result, _ testCase: Case, changed: [String]) -> [String] {
        var problems: [String] = []
        if outcome.signalled {
            problems.append("stopped by a signal (a crash or a trap) or by the 20-second limit: \(outcome.stderr)")
        }
        if !Self.exitCodes.contains(outcome.exitCode) {
            problems.append("undocumented exit code \(outcome.exitCode): \(outcome.stderr)")
        }
        if outcome.exitCode != 0 && outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.append("exit \(outcome.exitCode) in silence")
        }
        if Self.hasRawControl(outcome.stderr.unicodeScalars, allowing: ["\n"]) {
            problems.append("a raw control character on standard error: \(outcome.stderr.debugDescription)")
        }
        // Text for people holds no control character but its line breaks; JSON, CSV and iCalendar
        // (lines ending in CR LF) as their format escapes them.
        if !HostileHome.isLossless(testCase.arguments),
            Self.hasRawControl(outcome.stdout.unicodeScalars, allowing: ["\n"])
        {
            problems.append(
                "a raw control character on standard output: \(outcome.stdout.prefix(300).debugDescription)")
        }
        let repairs = testCase.arguments.starts(with: ["doctor"]) && testCase.arguments.contains("--fix")
        // What came in by sync is applied whatever the command then does, and `sync` applies every log
        // it can read even when one of them is broken.
        let syncs = testCase.arguments.first == "sync" || testCase.mutation.contains("/devices/")
        if !changed.isEmpty && !repairs && !syncs {
            problems.append(
                "failed with \(outcome.exitCode) and changed \(changed.joined(separator: ", ")): \(outcome.stderr)")
        }
        return problems
    }

    /// The files of a home but the sync state and the devices' logs, which syncing before any command
    /// keeps (a home put back has a store of a new modification time, which sync records again).
    static func withoutSyncBookkeeping(_ disk: PowerCut.Disk) -> [String: Data] {
        disk.files.filter { !$0.key.hasSuffix("store.json.sync") && !$0.key.contains("/shared/devices/") }
    }

    static func hasRawControl(_ scalars: String.UnicodeScalarView, allowing: Set<Unicode.Scalar>) -> Bool {
        scalars.contains { scalar in
            !allowing.contains(scalar)
                && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value))
        }
    }

    /// What reads the e-readers' files and the other machine's log, and prints what they brought.
    static let readers = [
        ["import", "kindle", "My Clippings.txt"], ["import", "koreader", "reader", "--dry-run"], ["sync"],
        ["sync", "status"], ["notes", "ulysses"], ["notes", "--club", "scifi"], ["show", "left hand"],
        ["stats", "--html"], ["export", "--format", "markdown"], ["club", "show", "scifi"],
    ]

    /// A home as a reader keeps it: books in three scripts, entries with notes, a club, settings, a scene.
    func prepare(_ runner: BookClubRunner) throws {
        for arguments in [
            ["add", "Dune", "--author", "Frank Herbert", "--pages", "412"],
            ["add", "ノルウェイの森", "--author", "村上春樹", "--pages", "296"],
            ["add", "كتاب الرمل", "--pages", "180"], ["add", "Emma", "--pages", "474"],
            ["progress", "dune", "100", "--note", "the spice 🌶"],
            ["progress", "dune", "150"], ["progress", "ノルウェイの森", "40%"], ["finish", "emma"], ["club", "add", "読書会"],
            ["club", "meeting", "読書会", "--date", "2030-01-10 19:00", "--book", "dune", "--target", "200"],
            ["select", "dune"],
            ["settings", "set", "yearlyGoal", "30"],
        ] {
            let result = try runner.run(arguments)
            try #require(result.exitCode == 0, "\(arguments): \(result.stderr)")
        }
    }

    /// Runs a case with a time limit.
    func run(_ runner: BookClubRunner, _ testCase: Case) throws -> BookClubRunner.Result {
        try runner.run(
            testCase.arguments, input: testCase.input, environment: testCase.environment, unsetting: testCase.unset,
            timeLimit: 20)
    }
}
