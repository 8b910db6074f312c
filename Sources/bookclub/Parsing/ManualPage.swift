/// The manual page, `bookclub(1)` in man(7) macros, made from the same command tree as `--help`.
enum ManualPage {
    struct Section {
        var title: String
        /// Paragraphs; a `(term, text)` pair is a tagged paragraph.
        var entries: [(term: String?, text: String)]
    }

    /// - Parameters:
    ///   - date: the date in the page's footer; fixed per release rather than today, so that the page
    ///     is the same wherever it is made.
    ///   - extra: sections after COMMANDS (environment, files, exit status), as the tool describes them.
    ///   - description: the paragraphs of DESCRIPTION.
    static func render(root: CommandConfiguration, date: String, description: [String], extra: [Section]) -> String {
        let name = root.name
        var lines = [
            ".TH \(name.uppercased()) 1 \(quoted(date)) \(quoted("\(name) \(root.version ?? "")")) \(quoted("User Commands"))",
            ".SH NAME",
            "\(escape(name)) \\- \(escape(root.abstract))",
            ".SH SYNOPSIS",
            ".B \(escape(name))",
            "[\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]",
            ".SH DESCRIPTION",
        ]
        lines += description.map(escape).joined(separator: "\n.PP\n").split(separator: "\n").map(String.init)
        lines.append(".SH GLOBAL OPTIONS")
        for option in root.options where !option.isHidden {
            lines += tagged(option.helpLabel, option.helpDescription)
        }
        if root.version != nil { lines += tagged("--version", "Show the version.") }
        lines += tagged("-h, --help", "Show help information.")
        lines.append(".SH COMMANDS")
        for node in CompletionNode.all(root: root).dropFirst() {
            lines += command(node)
        }
        for section in extra {
            lines.append(".SH \(escape(section.title))")
            for (term, text) in section.entries {
                if let term { lines += tagged(term, text) } else { lines += [".PP", escape(text)] }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command: its usage in bold, its abstract and discussion, its arguments and own options.
    private static func command(_ node: CompletionNode) -> [String] {
        let command = node.command
        let usage = UsageGenerator.usage(path: node.path)
        var lines = [".SS \(escape(node.path.dropFirst().map(\.name).joined(separator: " ")))", ".B \(escape(usage))", ".br"]
        var text = command.abstract
        if !command.aliases.isEmpty { text += " Also: \(command.aliases.joined(separator: ", "))." }
        if !command.discussion.isEmpty { text += "\n" + command.discussion }
        lines += [".PP"] + text.split(separator: "\n").map { escape(String($0)) }
        lines += command.arguments.flatMap { tagged($0.label, $0.helpDescription) }
        lines += command.options.filter { !$0.isHidden }.flatMap { tagged($0.helpLabel, $0.helpDescription) }
        return lines
    }

    private static func tagged(_ term: String, _ text: String) -> [String] {
        [".TP", "\\fB\(escape(term))\\fR", escape(text)]
    }

    /// Text safe in roff: backslashes doubled, hyphens as `\-` (so that options copy and search as
    /// typed), and a line never starting with a control character.
    static func escape(_ text: String) -> String {
        var escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        escaped = escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
        return escaped
    }

    private static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacing("\"", with: "\\(dq") + "\""
    }
}
