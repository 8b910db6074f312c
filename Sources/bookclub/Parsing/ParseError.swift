import BookClubCore

/// A usage error, worded exactly like swift-argument-parser's messages.
enum ParseError: Error, Equatable, Sendable {
    /// `option` as typed (`--foo`, `-x`); `suggestion` a close known name.
    case unknownOption(String, suggestion: String? = nil)
    /// An unknown word where a subcommand was expected.
    case unknownSubcommand(String, suggestion: String? = nil)
    /// `option` as typed (`--note` or `-n`); `help` is the option's help text.
    case missingValue(option: String, valueName: String, help: String)
    /// `label` is the synopsis without brackets, e.g. `<value>` or `<tags> ...`.
    case missingArgument(label: String, help: String)
    case unexpectedArguments([String])
    /// A flag given a value with `=`.
    case unexpectedValue(option: String, value: String)
    /// A value outside an option's `allowedValues`.
    case invalidOptionValue(value: String, option: String, valueName: String, allowedValues: [String], help: String)
    /// A positional value outside its `allowedValues`; `label` like `<source>`.
    case invalidArgumentValue(value: String, label: String, allowedValues: [String], help: String)
    /// Thrown by commands for a malformed value; `label` like `<value>` or `--pages <pages>`.
    case invalidValue(value: String, label: String, reason: String?)
    /// Two mutually exclusive flags, e.g. duplicate `--finished`, previous `--reading`.
    case exclusiveFlags(duplicate: String, previous: String)
    case unsupportedShell(String)
    case message(String)

    var message: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            return "Unknown option '\(option)'" + Self.didYouMean(suggestion)
        case .unknownSubcommand(let word, let suggestion):
            return "Unexpected argument '\(word)'" + Self.didYouMean(suggestion)
        case .missingValue(let option, let valueName, _):
            return "Missing value for '\(option) <\(valueName)>'"
        case .missingArgument(let label, _):
            return "Missing expected argument '\(label)'"
        case .unexpectedArguments(let values):
            if values.count == 1 { return "Unexpected argument '\(values[0])'" }
            return "\(values.count) unexpected arguments: '\(values.joined(separator: "', '"))'"
        case .unexpectedValue(let option, let value):
            return "The option '\(option)' does not take any value, but '\(value)' was specified."
        case .invalidOptionValue(let value, let option, let valueName, let allowed, _):
            return "The value '\(value)' is invalid for '\(option) <\(valueName)>'"
                + Self.allowedList(allowed, given: value)
        case .invalidArgumentValue(let value, let label, let allowed, _):
            return "The value '\(value)' is invalid for '\(label)'" + Self.allowedList(allowed, given: value)
        case .invalidValue(let value, let label, let reason):
            return "The value '\(value)' is invalid for '\(label)'" + (reason.map { ": \($0)" } ?? "")
        case .exclusiveFlags(let duplicate, let previous):
            return "Value to be set with flag '\(duplicate)' had already been set with flag '\(previous)'"
        case .unsupportedShell(let shell):
            return """
                Can't generate completion scripts for '\(shell)'.
                Please use --generate-completion-script=<shell> with one of:
                    zsh bash fish
                """
        case .message(let text):
            return text
        }
    }

    /// The `Help:  ...` line ASP prints under some errors, or nil.
    var helpLine: String? {
        let text: String
        switch self {
        case .missingValue(let option, let valueName, let help),
            .invalidOptionValue(_, let option, let valueName, _, let help):
            guard !help.isEmpty else { return nil }
            text = "\(option) <\(valueName)>  \(help)"
        case .missingArgument(let label, let help), .invalidArgumentValue(_, let label, _, let help):
            guard !help.isEmpty else { return nil }
            let name = label.hasSuffix(" ...") ? String(label.dropLast(4)) : label
            text = "\(name)  \(help)"
        default:
            return nil
        }
        return "Help:  \(text)"
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { ". Did you mean '\($0)'?" } ?? ""
    }

    /// ASP's list of valid values after an invalid one.
    /// The values allowed, after the one closest to `given` when one is close (`goodread`: `goodreads`).
    private static func allowedList(_ values: [String], given: String) -> String {
        guard !values.isEmpty else { return "" }
        if let close = EditDistance.closest(to: given, in: values, below: 2), close != given {
            return ". Did you mean '\(close)'?" + allowedList(values, given: close).dropFirst()
        }
        let quoted = values.map { "'\($0)'" }
        if quoted.count >= 6 {
            return ". Please provide one of the following:\n" + values.map { "  - \($0)" }.joined(separator: "\n")
        }
        let list =
            quoted.count <= 2
            ? quoted.joined(separator: " and ")
            : quoted.dropLast().joined(separator: ", ") + " or \(quoted[quoted.count - 1])"
        return ". Please provide one of \(list)."
    }
}
