import BookClubCore

/// Builds the one-line synopsis and the error report, as ASP prints them.
enum UsageGenerator {
    /// ASP abbreviates usage when a command has more than this many arguments.
    static let maximumListedArguments = 12

    /// e.g. "bookclub add <title> [--author <author>] [--tag <tag> ...]".
    static func usage(path: [CommandConfiguration]) -> String {
        components(path: path).joined(separator: " ")
    }

    /// The usage split into its words: the command path first, then one
    /// element per argument or option (e.g. "[--author <author>]").
    static func components(path: [CommandConfiguration]) -> [String] {
        guard let current = path.last else { return [] }
        let arguments = current.arguments.map(\.synopsis)
        // Inherited options are listed under OPTIONS but left out of a subcommand's usage line,
        // which stays about what the subcommand itself takes.
        let options = current.options.filter { !$0.isHidden }.map(\.synopsis)
        var elements = arguments + options
        if elements.count > maximumListedArguments {
            // Options are all optional: keep only the positionals.
            elements =
                !arguments.isEmpty && arguments.count <= maximumListedArguments
                ? ["[<options>]"] + arguments
                : ["<options>"]
        }
        if !current.subcommands.isEmpty {
            elements.append("<subcommand>")
        }
        return [path.commandLine] + elements
    }

    /// The full stderr text for a usage error, ending with a newline:
    /// `Error:`, optional `Help:`, `Usage:` and the `See '... --help'` hint; text for people (the
    /// message quotes what was typed), written as it is before any output is set up.
    static func errorReport(_ error: ParseError, path: [CommandConfiguration]) -> String {
        // A long list of allowed values comes a line each (`  - kobo`): its line breaks are layout.
        var lines = error.message.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            line -> TerminalText in line.offset == 0 ? "Error: \(String(line.element))" : "\(String(line.element))"
        }
        if let helpLine = error.helpLine {
            lines.append("\(helpLine)")
        }
        lines.append("Usage: \(usage(path: path))")
        lines.append("  See '\(path.commandLine) --help' for more information.")
        return (lines.joined(separator: "\n") + "\n").string
    }
}
