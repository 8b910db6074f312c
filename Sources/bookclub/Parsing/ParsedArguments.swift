/// The values collected for one invocation of a command.
struct ParsedArguments: Sendable {
    /// Command names from the root, e.g. ["bookclub", "settings", "set"].
    var commandPath: [String]
    /// How many times each flag (by long name) was given.
    var flagCounts: [String: Int] = [:]
    /// Every value given to each option (by long name), in order.
    var optionValues: [String: [String]] = [:]
    /// Default values of the options in scope (by long name).
    var defaultValues: [String: String] = [:]
    /// Tokens assigned to each positional argument (by ArgumentSpec.name).
    var positionalValues: [String: [String]] = [:]

    // Options and arguments are read through their declarations (`arguments.flag(Self.json)`), so
    // that a name no command declared cannot be read.

    func flag(_ option: OptionSpec) -> Bool {
        flagCounts[option.long, default: 0] > 0
    }

    /// The last value given, else the option's `defaultValue`.
    func value(_ option: OptionSpec) -> String? {
        optionValues[option.long]?.last ?? defaultValues[option.long]
    }

    /// All values given to a repeating option, in order.
    func values(_ option: OptionSpec) -> [String] {
        optionValues[option.long] ?? []
    }

    func argument(_ argument: ArgumentSpec) -> String? {
        positionalValues[argument.name]?.first
    }

    func arguments(_ argument: ArgumentSpec) -> [String] {
        positionalValues[argument.name] ?? []
    }
}
