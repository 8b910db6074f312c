import BookClubCore

/// Turns raw arguments into a `ParseOutcome` for a command tree.
enum CommandParser {
    static func parse(
        _ arguments: [String], root: CommandConfiguration, environment: [String: String]
    ) -> ParseOutcome {
        let tokens = ArgumentSplitter.split(arguments)
        if let request = BuiltinFlags.request(in: tokens, root: root, environment: environment) {
            return request
        }
        var walk = CommandWalk(root: root, tokens: tokens)
        return walk.run()
    }
}

/// The state of one left-to-right pass over the tokens.
private struct CommandWalk {
    var path: [CommandConfiguration]
    let tokens: [SplitToken]
    var index = 0
    var optionsEnded = false
    var parsed: ParsedArguments
    var positionals: [String] = []

    init(root: CommandConfiguration, tokens: [SplitToken]) {
        self.path = [root]
        self.tokens = tokens
        self.parsed = ParsedArguments(commandPath: [root.name])
    }

    mutating func run() -> ParseOutcome {
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            let result: ParseOutcome?
            switch token {
            case .terminator:
                optionsEnded = true
                result = nil
            case .positional(let word):
                result = handlePositional(word)
            case .long(let name, let attached):
                result = handleLong(name, attached: attached)
            case .short(let characters):
                result = handleShort(characters)
            }
            if let result { return result }
        }
        return finish()
    }

    // MARK: Positionals and subcommands

    private mutating func handlePositional(_ word: String) -> ParseOutcome? {
        guard let current = path.last, !current.subcommands.isEmpty, !optionsEnded else {
            positionals.append(word)
            return nil
        }
        if let subcommand = current.subcommand(named: word) {
            path.append(subcommand)
            parsed.commandPath.append(subcommand.name)
            return nil
        }
        if word == "help" {
            return helpSubcommand()
        }
        return .failure(unknownSubcommand(word, of: current), path: path)
    }

    /// `help [CMD ...]`: the remaining words name the command to describe.
    private func helpSubcommand() -> ParseOutcome {
        var target = path
        for case .positional(let word) in tokens[index...] {
            guard let current = target.last, let next = current.subcommand(named: word) else {
                return .failure(unknownSubcommand(word, of: target.last), path: target)
            }
            target.append(next)
        }
        return .help(path: target)
    }

    private func unknownSubcommand(_ word: String, of command: CommandConfiguration?) -> ParseError {
        let names = command?.subcommandNames ?? []
        let suggestion = EditDistance.closest(to: word, in: names, below: min(3, word.count))
        return .unknownSubcommand(word, suggestion: suggestion)
    }

    // MARK: Options

    private mutating func handleLong(_ name: String, attached: String?) -> ParseOutcome? {
        guard let option = path.optionsInScope.first(where: { $0.long == name }) else {
            return .failure(unknownOption("--\(name)"), path: path)
        }
        return apply(option, typedAs: "--\(name)", attached: attached, attachedWithEquals: true)
    }

    private mutating func handleShort(_ characters: String) -> ParseOutcome? {
        var rest = Substring(characters)
        while let character = rest.first {
            rest = rest.dropFirst()
            guard let option = path.optionsInScope.first(where: { $0.short == character }) else {
                let isWholeToken = rest.count + 1 == characters.count && !rest.isEmpty
                let typed = isWholeToken ? "-\(characters)" : "-\(character)"
                return .failure(isWholeToken ? unknownOption(typed) : .unknownOption(typed), path: path)
            }
            if option.valueName != nil {
                let attached = rest.isEmpty ? nil : String(rest)
                return apply(option, typedAs: "-\(character)", attached: attached, attachedWithEquals: false)
            }
            if let outcome = apply(option, typedAs: "-\(character)", attached: nil, attachedWithEquals: false) {
                return outcome
            }
        }
        return nil
    }

    /// Records one occurrence of `option`, reading its value if it takes one.
    private mutating func apply(
        _ option: OptionSpec, typedAs typed: String, attached: String?, attachedWithEquals: Bool
    ) -> ParseOutcome? {
        guard let valueName = option.valueName else {
            if let attached, attachedWithEquals {
                return .failure(.unexpectedValue(option: typed, value: attached), path: path)
            }
            parsed.flagCounts[option.long, default: 0] += 1
            return nil
        }
        guard let value = attached ?? takeNextValue() else {
            return .failure(.missingValue(option: typed, valueName: valueName, help: option.help), path: path)
        }
        if let allowed = option.allowedValues, !allowed.contains(value) {
            let error = ParseError.invalidOptionValue(
                value: value, option: typed, valueName: valueName, allowedValues: allowed, help: option.help)
            return .failure(error, path: path)
        }
        parsed.optionValues[option.long, default: []].append(value)
        return nil
    }

    /// The next token if it is a plain value (not an option or `--`).
    private mutating func takeNextValue() -> String? {
        guard index < tokens.count, case .positional(let value) = tokens[index] else { return nil }
        index += 1
        return value
    }

    private func unknownOption(_ typed: String) -> ParseError {
        let candidates = path.visibleOptions.map(\.longName) + ["--help", "--version"]
        return .unknownOption(typed, suggestion: EditDistance.closest(to: typed, in: candidates, below: 4))
    }

    // MARK: Result

    private mutating func finish() -> ParseOutcome {
        guard let current = path.last else { return .help(path: path) }
        if !current.subcommands.isEmpty {
            if !positionals.isEmpty {
                return .failure(.unexpectedArguments(positionals), path: path)
            }
            return .help(path: path)
        }
        switch PositionalBinding.bind(positionals, to: current.arguments) {
        case .failure(let error):
            return .failure(error, path: path)
        case .success(let bound):
            parsed.positionalValues = bound
        }
        for argument in current.arguments {
            guard let allowed = argument.allowedValues else { continue }
            for value in parsed.positionalValues[argument.name] ?? [] where !allowed.contains(value) {
                let error = ParseError.invalidArgumentValue(
                    value: value, label: argument.label, allowedValues: allowed, help: argument.help)
                return .failure(error, path: path)
            }
        }
        for option in path.optionsInScope {
            if let defaultValue = option.defaultValue {
                parsed.defaultValues[option.long] = defaultValue
            }
        }
        return .run(path: path, parsed)
    }
}
