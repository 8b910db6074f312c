/// A positional argument, shown as `<name>`.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var isOptional: Bool = false
    var isRepeating: Bool = false
    /// The only values it takes, listed in help and offered by completions.
    var allowedValues: [String]? = nil
    /// What completions offer when it is not what its name or `allowedValues` say.
    var completion: CompletionValues? = nil

    /// `<name>`, as used in help rows and error messages.
    var label: String { "<\(name)>" }

    /// The help text followed by `(values: ...)` as ASP does.
    var helpDescription: String {
        guard let values = allowedValues, !values.isEmpty else { return help }
        return [help, "(values: \(values.joined(separator: ", ")))"].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The usage form: `<name>`, `<name> ...`, `[<name>]` or `[<name> ...]`.
    var synopsis: String {
        let base = isRepeating ? "\(label) ..." : label
        return isOptional ? "[\(base)]" : base
    }
}

/// A named option or flag.
struct OptionSpec: Sendable {
    enum Kind: Sendable {
        case flag
        case value(String)
        case repeatingValue(String)
    }

    /// Long name without dashes, e.g. "author".
    var long: String
    var short: Character? = nil
    var kind: Kind
    var help: String
    var allowedValues: [String]? = nil
    var defaultValue: String? = nil
    /// Declared on the root and accepted by every subcommand.
    var isInherited: Bool = false
    var isHidden: Bool = false

    /// The value name, e.g. "author", or nil for a flag.
    var valueName: String? {
        switch kind {
        case .flag: nil
        case .value(let name), .repeatingValue(let name): name
        }
    }

    var isRepeating: Bool {
        if case .repeatingValue = kind { return true }
        return false
    }

    var longName: String { "--\(long)" }

    /// The help row label: `-a, --author <author>` or `--json`.
    var helpLabel: String {
        var names = [longName]
        if let short { names.insert("-\(short)", at: 0) }
        let joined = names.joined(separator: ", ")
        guard let valueName else { return joined }
        return "\(joined) <\(valueName)>"
    }

    /// The usage form: `[--author <author>]`, `[--tag <tag> ...]`, `[--json]`.
    var synopsis: String {
        var text = longName
        if let valueName { text += " <\(valueName)>" }
        if isRepeating { text += " ..." }
        return "[\(text)]"
    }

    /// The help text followed by `(values: ...; default: ...)` as ASP does.
    var helpDescription: String {
        let values = (allowedValues ?? []).filter { !$0.isEmpty }
        let defaultText = defaultValue ?? ""
        let suffix: String
        switch (values.isEmpty, defaultText.isEmpty) {
        case (true, true): suffix = ""
        case (false, true): suffix = "(values: \(values.joined(separator: ", ")))"
        case (true, false): suffix = "(default: \(defaultText))"
        case (false, false):
            suffix = "(values: \(values.joined(separator: ", ")); default: \(defaultText))"
        }
        return [help, suffix].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
