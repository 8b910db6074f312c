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

    func flag(_ long: String) -> Bool {
        flagCounts[long, default: 0] > 0
    }

    /// The last value given, else the option's `defaultValue`.
    func value(_ long: String) -> String? {
        optionValues[long]?.last ?? defaultValues[long]
    }

    /// All values given to a repeating option, in order.
    func values(_ long: String) -> [String] {
        optionValues[long] ?? []
    }

    func argument(_ name: String) -> String? {
        positionalValues[name]?.first
    }

    func arguments(_ name: String) -> [String] {
        positionalValues[name] ?? []
    }
}
