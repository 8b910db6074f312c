/// One command-line token after lexical classification.
enum SplitToken: Equatable, Sendable {
    /// `--name` or `--name=value`.
    case long(name: String, value: String?)
    /// `-abc` (the characters after the dash): one or more short names,
    /// possibly followed by an attached value (`-svalue`).
    case short(String)
    /// Anything else, including `-`, negative numbers and all tokens after `--`.
    case positional(String)
    /// The `--` that ends option parsing.
    case terminator
}

/// Classifies raw arguments without knowing which options exist.
enum ArgumentSplitter {
    static func split(_ arguments: [String]) -> [SplitToken] {
        var tokens: [SplitToken] = []
        var optionsEnded = false
        for argument in arguments {
            if optionsEnded {
                tokens.append(.positional(argument))
            } else if argument == "--" {
                optionsEnded = true
                tokens.append(.terminator)
            } else {
                tokens.append(classify(argument))
            }
        }
        return tokens
    }

    static func classify(_ argument: String) -> SplitToken {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                return .long(name: String(body[..<equals]), value: String(body[body.index(after: equals)...]))
            }
            return .long(name: String(body), value: nil)
        }
        if argument.hasPrefix("-"), argument.count > 1, !isNegativeNumber(argument) {
            return .short(String(argument.dropFirst()))
        }
        return .positional(argument)
    }

    /// True for `-5`, `-2.5`, `-.5`: these are values, not options.
    static func isNegativeNumber(_ argument: String) -> Bool {
        guard argument.hasPrefix("-") else { return false }
        let digits = argument.dropFirst()
        guard let first = digits.first, first.isASCII, first.isNumber || first == "." else { return false }
        return Double(digits) != nil
    }
}
