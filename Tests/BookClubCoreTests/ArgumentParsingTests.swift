import BookClubCore
import Foundation
import Testing

@testable import bookclub

// MARK: - Example tree

private let exampleRoot = CommandConfiguration(
    name: "bookclub",
    abstract: "Keep track of the books you read.",
    version: "1.2.3",
    options: [
        OptionSpec(long: "store", kind: .value("path"), help: "The library file to use.", isInherited: true),
        OptionSpec(long: "quiet", short: "q", kind: .flag, help: "Print less output.", isInherited: true),
    ],
    subcommands: [
        CommandConfiguration(
            name: "add", aliases: ["new"], abstract: "Add a book to the library.",
            arguments: [ArgumentSpec(name: "title", help: "The title of the book.")],
            options: [
                OptionSpec(long: "author", short: "a", kind: .value("author"), help: "The book's author."),
                OptionSpec(long: "tag", kind: .repeatingValue("tag"), help: "A tag; repeat for several."),
                OptionSpec(long: "pages", kind: .value("pages"), help: "The number of pages."),
                OptionSpec(
                    long: "color", kind: .value("color"), help: "When to use colour.",
                    allowedValues: ["auto", "always", "never"], defaultValue: "auto"),
                OptionSpec(long: "debug-dump", kind: .flag, help: "Internal.", isHidden: true),
            ]),
        CommandConfiguration(
            name: "progress", abstract: "Record reading progress.",
            arguments: [
                ArgumentSpec(name: "book", help: "The book; defaults to the current one.", isOptional: true),
                ArgumentSpec(name: "value", help: "A page, a percentage or +pages."),
            ],
            options: [OptionSpec(long: "note", short: "n", kind: .value("note"), help: "A note to attach.")]),
        CommandConfiguration(
            name: "list", abstract: "List books.",
            options: [
                OptionSpec(long: "reading", kind: .flag, help: "Only books being read."),
                OptionSpec(long: "finished", kind: .flag, help: "Only finished books."),
                OptionSpec(long: "json", kind: .flag, help: "Print JSON."),
            ]),
        CommandConfiguration(
            name: "settings", abstract: "Read and change settings.",
            subcommands: [
                CommandConfiguration(
                    name: "get", abstract: "Print a setting.",
                    arguments: [ArgumentSpec(name: "key", help: "The setting name.")]),
                CommandConfiguration(
                    name: "set", abstract: "Change a setting.",
                    arguments: [
                        ArgumentSpec(name: "key", help: "The setting name."),
                        ArgumentSpec(name: "value", help: "The new value."),
                    ]),
            ]),
    ])

private func parse(_ line: String, environment: [String: String] = [:]) -> ParseOutcome {
    let words = line.split(separator: " ").map(String.init)
    return CommandParser.parse(words, root: exampleRoot, environment: environment)
}

private func parsed(_ line: String) -> ParsedArguments? {
    if case .run(_, let arguments) = parse(line) { return arguments }
    return nil
}

private func helpPath(_ line: String) -> String? {
    if case .help(let path) = parse(line) { return path.commandLine }
    return nil
}

private func errorText(_ line: String) -> String? {
    if case .failure(let error, let path) = parse(line) { return UsageGenerator.errorReport(error, path: path) }
    return nil
}

private func path(_ names: String...) -> [CommandConfiguration] {
    var result = [exampleRoot]
    for name in names {
        result.append(result[result.count - 1].subcommand(named: name)!)
    }
    return result
}

// MARK: - Splitting

@Test func splitterClassifiesTokens() {
    let tokens = ArgumentSplitter.split(["--a=1", "--b", "-xyz", "-", "-5", "-2.5", "+20", "45%", "--", "--c", "-d"])
    #expect(
        tokens == [
            .long(name: "a", value: "1"), .long(name: "b", value: nil), .short("xyz"),
            .positional("-"), .positional("-5"), .positional("-2.5"), .positional("+20"), .positional("45%"),
            .terminator, .positional("--c"), .positional("-d"),
        ])
}

@Test(arguments: [
    "add Dune --author Herbert", "add Dune --author=Herbert", "add Dune -a Herbert", "add Dune -aHerbert",
])
func valueOptionForms(_ line: String) throws {
    #expect(try parsed(line)?[AddCommand.author] == "Herbert")
    #expect(try parsed(line)?[AddCommand.title] == "Dune")
}

@Test func groupedShortFlagsAndLastValueWins() throws {
    let arguments = try #require(parsed("add Dune -qa Frank --author Herbert --tag a --tag=b"))
    #expect(arguments[CLI.quiet])
    #expect(try arguments[AddCommand.author] == "Herbert")
    #expect(try arguments[every: AddCommand.tag] == ["a", "b"])
    #expect(try arguments[CLI.color] == .auto)
    #expect(try arguments[AddCommand.pages] == nil)
    #expect(arguments.commandPath == ["bookclub", "add"])
}

@Test func terminatorAndDashValues() throws {
    #expect(try parsed("add -- --weird")?[AddCommand.title] == "--weird")
    #expect(try parsed("add -")?[AddCommand.title] == "-")
    #expect(try parsed("progress -5")?[ProgressCommand.value] == "-5")
    #expect(try parsed("progress Dune +20 --note=-x")?[CommonOptions.note] == "-x")
    #expect(try parsed("progress 45%")?[ProgressCommand.value] == "45%")
    #expect(parsed("new Dune")?.commandPath == ["bookclub", "add"])
}

// MARK: - Positionals

@Test func optionalBeforeRequiredPositional() throws {
    let one = try #require(parsed("progress 120"))
    #expect(try one[CommonOptions.book] == nil)
    #expect(try one[ProgressCommand.value] == "120")
    let two = try #require(parsed("progress Dune 120"))
    #expect(try two[CommonOptions.book] == "Dune")
    #expect(try two[ProgressCommand.value] == "120")
}

@Test func repeatingPositionalTakesTheRest() throws {
    let specs = [ArgumentSpec(name: "first", help: ""), ArgumentSpec(name: "rest", help: "", isRepeating: true)]
    let bound = try PositionalBinding.bind(["a", "b", "c"], to: specs).get()
    #expect(bound["first"] == ["a"])
    #expect(bound["rest"] == ["b", "c"])
}

// MARK: - Subcommands and inherited options

@Test(arguments: [
    "--store lib.json settings set theme dark",
    "settings --store lib.json set theme dark",
    "settings set theme dark --store=lib.json",
])
func inheritedOptionsOnEitherSide(_ line: String) throws {
    let arguments = try #require(parsed(line))
    #expect(arguments.commandPath == ["bookclub", "settings", "set"])
    #expect(try arguments[CLI.store] == "lib.json")
    #expect(try arguments[SettingsSetCommand.key] == "theme")
    #expect(try arguments[SettingsSetCommand.value] == "dark")
}

@Test func inheritedFlagBeforeAndAfter() {
    #expect(parsed("-q list")?[CLI.quiet] == true)
    #expect(parsed("list --quiet --json")?[CommonOptions.json] == true)
}

// MARK: - Help, version, completion

@Test(arguments: [
    ("--help", "bookclub"), ("-h", "bookclub"), ("help", "bookclub"), ("", "bookclub"),
    ("settings", "bookclub settings"), ("help settings set", "bookclub settings set"),
    ("settings help set", "bookclub settings set"), ("settings set -h", "bookclub settings set"),
    ("add --help -h", "bookclub add"), ("help add --help", "bookclub add"), ("add --bogus -h", "bookclub add"),
])
func helpRequests(_ line: String, _ expected: String) {
    #expect(helpPath(line) == expected)
}

@Test func versionRequests() {
    guard case .version(let version) = parse("settings --version") else {
        Issue.record("expected version")
        return
    }
    #expect(version == "1.2.3")
}

@Test(arguments: [
    ("--generate-completion-script zsh", [:], "zsh"),
    ("--generate-completion-script=fish", [:], "fish"),
    ("--generate-completion-script", ["SHELL": "/usr/bin/zsh"], "zsh"),
    ("--generate-completion-script", ["SHELL": "/bin/tcsh"], "bash"),
    ("--generate-completion-script", [:], "bash"),
])
func completionRequests(_ line: String, _ environment: [String: String], _ expected: String) {
    guard case .completionScript(let shell) = parse(line, environment: environment) else {
        Issue.record("expected completion script")
        return
    }
    #expect(shell == expected)
}

@Test func completionScriptsExistForKnownShells() throws {
    for shell in ["bash", "zsh", "fish"] {
        let script = try #require(CompletionScript.script(for: shell, root: exampleRoot))
        #expect(script.split(separator: "\n").count < 150)
        #expect(script.contains("settings"))
        #expect(!script.contains("debug-dump"))
    }
    #expect(CompletionScript.script(for: "tcsh", root: exampleRoot) == nil)
    #expect(CompletionScript.script(for: "zsh", root: exampleRoot)?.hasPrefix("#compdef bookclub\n") == true)
    #expect(CompletionScript.script(for: "bash", root: exampleRoot)?.contains("complete -F _bookclub bookclub") == true)
}

// MARK: - Error messages

@Test(arguments: [
    ("list --frobnicate", "Unknown option '--frobnicate'"),
    ("list --jsn", "Unknown option '--jsn'. Did you mean '--json'?"),
    ("list --stor x", "Unknown option '--stor'. Did you mean '--store'?"),
    ("list -x", "Unknown option '-x'"),
    ("progress 1 --note", "Missing value for '--note <note>'"),
    ("progress 1 --note --quiet", "Missing value for '--note <note>'"),
    ("progress 1 -n", "Missing value for '-n <note>'"),
    ("progress", "Missing expected argument '<value>'"),
    ("add a b", "Unexpected argument 'b'"),
    ("add a b baz", "2 unexpected arguments: 'b', 'baz'"),
    ("lst", "Unexpected argument 'lst'. Did you mean 'list'?"),
    ("zzzzz", "Unexpected argument 'zzzzz'"),
    ("list --json=yes", "The option '--json' does not take any value, but 'yes' was specified."),
    (
        "add a --color ZZZ",
        "The value 'ZZZ' is invalid for '--color <color>'. Please provide one of 'auto', 'always' or 'never'."
    ),
    (
        "--generate-completion-script tcsh",
        "Can't generate completion scripts for 'tcsh'.\nPlease use --generate-completion-script=<shell> with one of:\n    zsh bash fish"
    ),
])
func errorMessages(_ line: String, _ expected: String) {
    guard case .failure(let error, _) = parse(line) else {
        Issue.record("expected a failure for \(line)")
        return
    }
    #expect(error.message == expected)
}

@Test(arguments: [
    (
        ParseError.invalidValue(value: "abc", label: "<value>", reason: "not a page number"),
        "The value 'abc' is invalid for '<value>': not a page number"
    ),
    (
        ParseError.invalidValue(value: "abc", label: "--pages <pages>", reason: nil),
        "The value 'abc' is invalid for '--pages <pages>'"
    ),
    (
        ParseError.exclusiveFlags(duplicate: "--finished", previous: "--reading"),
        "Value to be set with flag '--finished' had already been set with flag '--reading'"
    ),
    (ParseError.message("Something else."), "Something else."),
])
func thrownErrorMessages(_ error: ParseError, _ expected: String) {
    #expect(error.message == expected)
}

@Test func errorReportWithHelpLine() {
    #expect(
        errorText("add a --color ZZZ") == """
            Error: The value 'ZZZ' is invalid for '--color <color>'. Please provide one of 'auto', 'always' or 'never'.
            Help:  --color <color>  When to use colour.
            Usage: bookclub add <title> [--author <author>] [--tag <tag> ...] [--pages <pages>] [--color <color>]
              See 'bookclub add --help' for more information.

            """)
    #expect(
        errorText("progress 1 --note") == """
            Error: Missing value for '--note <note>'
            Help:  --note <note>  A note to attach.
            Usage: bookclub progress [<book>] <value> [--note <note>]
              See 'bookclub progress --help' for more information.

            """)
}

@Test func errorReportWithoutHelpLine() {
    #expect(
        errorText("settings get a b") == """
            Error: Unexpected argument 'b'
            Usage: bookclub settings get <key>
              See 'bookclub settings get --help' for more information.

            """)
    #expect(
        errorText("settings st") == """
            Error: Unexpected argument 'st'. Did you mean 'set'?
            Usage: bookclub settings <subcommand>
              See 'bookclub settings --help' for more information.

            """)
}

// MARK: - Usage

@Test func usageAbbreviatesManyOptions() {
    let many = (1...13).map { OptionSpec(long: "o\($0)", kind: .flag, help: "") }
    let command = CommandConfiguration(
        name: "big", abstract: "", arguments: [ArgumentSpec(name: "file", help: "")], options: many)
    #expect(UsageGenerator.usage(path: [command]) == "big [<options>] <file>")
    let noArguments = CommandConfiguration(name: "big", abstract: "", options: many)
    #expect(UsageGenerator.usage(path: [noArguments]) == "big <options>")
}

// MARK: - Help layout

@Test func helpForLeafCommand() {
    #expect(
        HelpGenerator.render(path: path("progress"), width: 80) == """
            OVERVIEW: Record reading progress.

            USAGE: bookclub progress [<book>] <value> [--note <note>]

            ARGUMENTS:
              <book>                  The book; defaults to the current one.
              <value>                 A page, a percentage or +pages.

            OPTIONS:
              -n, --note <note>       A note to attach.
              -h, --help              Show help information.

            GLOBAL OPTIONS:
              --store, --quiet
              See 'bookclub --help' for what they do.

            """)
}

@Test func helpForParentCommand() {
    #expect(
        HelpGenerator.render(path: [exampleRoot], width: 80) == """
            OVERVIEW: Keep track of the books you read.

            USAGE: bookclub [--store <path>] [--quiet] <subcommand>

            OPTIONS:
              --store <path>          The library file to use.
              -q, --quiet             Print less output.
              -v, --version           Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              add, new                Add a book to the library.
              progress                Record reading progress.
              list                    List books.
              settings                Read and change settings.

              See 'bookclub help <subcommand>' for detailed help.

            """)
    #expect(
        HelpGenerator.render(path: path("settings"), width: 80).hasSuffix(
            """

              See 'bookclub help settings <subcommand>' for detailed help.

            """))
}

@Test func helpWrapsAtNarrowWidth() {
    var command = CommandConfiguration(
        name: "tool", abstract: "Does things.", discussion: "A longer discussion that needs wrapping here.",
        options: [
            OptionSpec(
                long: "a-rather-long-option-name", kind: .value("value"),
                help: "An option whose help text is long enough to wrap.")
        ])
    command.arguments = [ArgumentSpec(name: "x", help: "Short.")]
    #expect(
        HelpGenerator.render(path: [command], width: 40) == """
            OVERVIEW: Does things.

            A longer discussion that needs wrapping
            here.

            USAGE: tool <x>
                   [--a-rather-long-option-name <value>]

            ARGUMENTS:
              <x>                     Short.

            OPTIONS:
              --a-rather-long-option-name <value>
                                      An option
                                      whose help
                                      text is long
                                      enough to
                                      wrap.
              -h, --help              Show help
                                      information.

            """)
}

@Test func hiddenOptionsStayHidden() {
    let text = HelpGenerator.render(path: path("add"), width: 80)
    #expect(!text.contains("debug-dump"))
    #expect(!UsageGenerator.usage(path: path("add")).contains("debug-dump"))
    #expect(parsed("add Dune --debug-dump")?[Flag(long: "debug-dump", help: "")] == true)
}

@Test(arguments: [[], ["add"], ["progress"], ["list"], ["settings"], ["settings", "get"], ["settings", "set"]])
func helpLinesFitIn80Columns(_ names: [String]) {
    var commands = [exampleRoot]
    for name in names { commands.append(commands[commands.count - 1].subcommand(named: name)!) }
    let text = HelpGenerator.render(path: commands, width: 80)
    #expect(text.hasSuffix("\n"))
    for line in text.split(separator: "\n") {
        #expect(line.count <= 80, "\(line)")
    }
}

// MARK: - Every declared option is read

/// A value each option or argument accepts, chosen by what it takes.
private func plausibleValue(name: String, valueName: String?, allowedValues: [String]?) -> String {
    if let first = allowedValues?.first { return first }
    switch valueName ?? name {
    case "when": return "yesterday"
    case "pages", "page", "days", "target", "value": return "100"
    case "year": return "2026"
    case "stars": return "4"
    case "isbn": return "9780441013593"
    case "file", "path": return "out.txt"
    case "time": return "11:40"
    default: return "Dune"
    }
}

/// Each command reads every option and argument it declares, whether none is given or any one: an
/// option that is declared and shown in help but never read would be silently ignored.
@Test(arguments: CLI.commands.map(\.path))
func everyDeclaredOptionIsRead(_ path: String) throws {
    let type = try #require(CLI.commands.first { $0.path == path }?.type)
    let configuration = type.configuration
    let declared = Set(configuration.options.map(\.long) + configuration.arguments.map(\.name))
    for given in [nil] + configuration.options.map(Optional.some) {
        var arguments = ParsedArguments(commandPath: ["bookclub"] + path.split(separator: " ").map(String.init))
        for argument in configuration.arguments where !argument.isOptional {
            arguments.positionalValues[argument.name] = [
                plausibleValue(name: argument.name, valueName: nil, allowedValues: argument.allowedValues)
            ]
        }
        if let given {
            if let valueName = given.valueName {
                arguments.optionValues[given.long] = [
                    plausibleValue(name: given.long, valueName: valueName, allowedValues: given.allowedValues)
                ]
            } else {
                arguments.flagCounts[given.long] = 1
            }
        }
        arguments.context = ParseContext(now: Date(timeIntervalSince1970: 1_790_000_000), timeZone: .utc)
        let reads = ReadLog()
        arguments.reads = reads
        _ = try? type.init(arguments)
        let unread = declared.subtracting(reads.read).sorted()
        #expect(unread.isEmpty, "bookclub \(path) \(given.map(\.longName) ?? "") leaves unread: \(unread)")
    }
}

// MARK: - Suggestions

/// A swap of two letters is one edit (Damerau–Levenshtein), and a beginning is enough.
@Test func suggestionsCountASwapAsOneEditAndTakeABeginning() {
    #expect(EditDistance.between("verison", "version") == 1)
    #expect(EditDistance.between("ab", "ba") == 1)
    #expect(EditDistance.between("kitten", "sitting") == 3)
    #expect(EditDistance.between("", "abc") == 3)
    #expect(EditDistance.between("ノルウェイ", "ノルェウイ") == 1)
    let commands = CLI.topLevel.map { $0.configuration.name } + CLI.groups.map { $0.configuration.name }
    #expect(EditDistance.closest(to: "prog", in: commands, below: 3) == "progress")
    #expect(EditDistance.closest(to: "shwo", in: commands, below: 3) == "show")
    #expect(EditDistance.closest(to: "--verison", in: ["--version", "--json", "--store"], below: 4) == "--version")
    #expect(EditDistance.closest(to: "zzzz", in: commands, below: 3) == nil)
}

// MARK: - Help people can scan

/// The root help lists each command once, under its heading, and the global options; a subcommand's
/// help its own options, a pointer to the global ones, and examples; no line is wider than 80 columns
/// on the widest terminal.
@Test func helpIsGroupedPointsToTheGlobalOptionsAndGivesExamples() {
    let root = CLI.root
    let headed = root.groups.flatMap(\.names)
    #expect(headed.sorted() == root.subcommands.map(\.name).sorted(), "each command under one heading")
    let rootHelp = HelpGenerator.render(path: [root], width: 200)
    for heading in ["READING", "BOOKS", "CLUBS", "DATA IN AND OUT", "SET-UP"] {
        #expect(rootHelp.contains("\n\(heading) SUBCOMMANDS:\n"))
    }
    #expect(!rootHelp.contains("\nSUBCOMMANDS:"), "no command left without a heading")
    #expect(rootHelp.contains("  --no-pager "))

    func paths(_ path: [CommandConfiguration]) -> [[CommandConfiguration]] {
        [path] + path.last!.subcommands.flatMap { paths(path + [$0]) }
    }
    for path in paths([root]) {
        let help = HelpGenerator.render(path: path, width: 200)
        let name = path.map(\.name).joined(separator: " ")
        for line in help.split(separator: "\n") {
            #expect(line.count <= 80, "\(name): \(line)")
        }
        #expect(!path.last!.examples.isEmpty, "\(name) has an example")
        #expect(help.contains("\nEXAMPLES:\n  "), "\(name)")
        guard path.count > 1 else { continue }
        #expect(!help.contains("--store <path>"), "\(name) does not repeat the global options")
        #expect(help.contains("GLOBAL OPTIONS:\n  --store, --settings, --quiet"), "\(name)")
        for example in path.last!.examples where example.hasPrefix("bookclub ") {
            #expect(example.hasPrefix(name), "\(name): \(example) is an example of this command")
        }
    }
}

/// A command line whose first word names a command is parsed against that command alone (the whole
/// tree costs a tenth of a `progress` to make); anything else against the whole tree, which the help
/// and the suggestions for a mistyped name need.
@Test(arguments: [
    (["progress", "dune", "+1"], ["progress"]),
    (["--store", "x.json", "-q", "--color", "never", "progress", "dune"], ["progress"]),
    (["--store=x.json", "club", "rename", "a", "b"], ["club"]),
    (["prog"], nil), (["--help"], nil), (["--bogus", "list"], nil), (["--", "list"], nil), ([], nil),
    (["help", "progress"], nil),
])
func theTreeIsCutToTheCommandNamed(_ arguments: [String], _ expected: [String]?) {
    let names = CLI.root(for: arguments).subcommands.map(\.name)
    #expect(names == expected ?? CLI.root.subcommands.map(\.name))
    if expected != nil { #expect(names.count == 1) }
}

/// Every command is found by its path, and nothing else is.
@Test func commandsAreFoundByTheirPath() {
    for (path, type) in CLI.commands {
        #expect(CLI.command(at: path.split(separator: " ").map(String.init)) == type, "\(path)")
    }
    #expect(CLI.command(at: ["club"]) == nil)
    #expect(CLI.command(at: ["nonsense"]) == nil)
    #expect(CLI.command(at: []) == nil)
}
