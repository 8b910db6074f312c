/// Describes one command of the tool: its name, help text, arguments,
/// options and subcommands. The root command is the tool itself.
struct CommandConfiguration: Sendable {
    var name: String
    var aliases: [String] = []
    var abstract: String
    var discussion: String = ""
    /// Command lines to copy, shown under EXAMPLES.
    var examples: [String] = []
    /// Set on the root only: its subcommands under headings, by name, in the order of its help.
    var groups: [(title: String, names: [String])] = []
    /// Set on the root only; enables `--version`.
    var version: String? = nil
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandConfiguration] = []

    init(
        name: String, aliases: [String] = [], abstract: String, discussion: String = "", examples: [String] = [],
        version: String? = nil,
        arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = [],
        subcommands: [CommandConfiguration] = []
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.examples = examples
        self.version = version
        self.arguments = arguments.map(\.spec)
        self.options = options.map(\.spec)
        self.subcommands = subcommands
    }

    /// The direct subcommand called `word`, by name or alias.
    func subcommand(named word: String) -> CommandConfiguration? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// How the help names `--version`: with `-v` too, unless an option of the tree below takes `-v`.
    var versionLabel: String { takesShortV ? "-v, --version" : "--version" }

    /// Whether `-v` means `--version`: no option of this command or any below it claims it.
    var takesShortV: Bool {
        func claims(_ command: CommandConfiguration) -> Bool {
            command.options.contains { $0.short == "v" } || command.subcommands.contains { claims($0) }
        }
        return version != nil && !claims(self)
    }

    /// All names a subcommand can be invoked by, in declaration order.
    var subcommandNames: [String] {
        subcommands.flatMap { [$0.name] + $0.aliases }
    }
}

extension Array where Element == CommandConfiguration {
    /// The command names joined by spaces, e.g. "bookclub settings set".
    var commandLine: String {
        map(\.name).joined(separator: " ")
    }

    /// The options accepted at the end of this path: the command's own
    /// options, then the root's inherited options (when below the root).
    var optionsInScope: [OptionSpec] {
        guard let current = last else { return [] }
        guard count > 1, let root = first else { return current.options }
        let own = Set(current.options.map(\.long))
        return current.options + root.options.filter { $0.isInherited && !own.contains($0.long) }
    }

    /// Options in scope that are shown in help and usage.
    var visibleOptions: [OptionSpec] {
        optionsInScope.filter { !$0.isHidden }
    }
}
