/// Renders `--help` output in ASP's layout: the root lists the global options and its commands by
/// heading; a subcommand its own options, then a pointer to the global ones (as gh's INHERITED
/// FLAGS), then its examples. Paragraphs are wrapped at 80 columns at most.
enum HelpGenerator {
    static let indent = 2
    static let labelColumn = 26
    static let widest = 80

    private struct Row {
        var label: String
        var text: String
    }

    /// The help text for the last command of `path`, ending with a newline.
    static func render(path: [CommandConfiguration], width: Int) -> String {
        guard let command = path.last, let root = path.first else { return "" }
        let width = min(width, widest)
        let isRoot = path.count == 1
        var text = ""
        var overview = command.abstract
        if !command.discussion.isEmpty {
            overview += (overview.isEmpty ? "\n" : "\n\n") + command.discussion
        }
        if !overview.isEmpty {
            text += TextWrapping.wrap("OVERVIEW: \(overview)", width: width) + "\n\n"
        }
        text += usageBlock(path: path, width: width) + "\n\n"

        let arguments = command.arguments.map { Row(label: $0.label, text: $0.helpDescription) }
        var options = path.visibleOptions.filter { isRoot || !$0.isInherited }.map {
            Row(label: $0.helpLabel, text: $0.helpDescription)
        }
        if root.version != nil, isRoot {
            options.append(Row(label: root.versionLabel, text: "Show the version."))
        }
        options.append(Row(label: "-h, --help", text: "Show help information."))
        func row(_ subcommand: CommandConfiguration) -> Row {
            Row(label: ([subcommand.name] + subcommand.aliases).joined(separator: ", "), text: subcommand.abstract)
        }
        // Under the root's headings; any command no heading names under SUBCOMMANDS, as ASP has it.
        let grouped = Set(command.groups.flatMap(\.names))
        let subcommandSections =
            command.groups.map { group in
                (
                    "\(group.title.uppercased()) SUBCOMMANDS",
                    group.names.compactMap { name in command.subcommands.first { $0.name == name } }.map(row)
                )
            } + [("SUBCOMMANDS", command.subcommands.filter { !grouped.contains($0.name) }.map(row))]
        let inherited = isRoot ? [] : path.visibleOptions.filter(\.isInherited)

        text += ([("ARGUMENTS", arguments), ("OPTIONS", options)] + subcommandSections)
            .filter { !$0.1.isEmpty }
            .map { title, rows in "\(title):\n" + rows.map { render($0, width: width) }.joined() }
            .joined(separator: "\n")
        if !inherited.isEmpty {
            text +=
                "\nGLOBAL OPTIONS:\n"
                + TextWrapping.wrap(
                    inherited.map(\.longName).joined(separator: ", "), width: width, indent: indent)
                + "\n  See '\(root.name) --help' for what they do.\n"
        }
        if !command.examples.isEmpty {
            text += "\nEXAMPLES:\n" + command.examples.map { "  \($0)\n" }.joined()
        }
        if !command.subcommands.isEmpty {
            let names = [root.name, "help"] + path.dropFirst().map(\.name)
            text += "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help.\n"
        }
        return text
    }

    /// One row: the label at column 2, the text at column 26 (or on the next
    /// line when the label is too long), wrapped with a hanging indent.
    private static func render(_ row: Row, width: Int) -> String {
        let label = String(repeating: " ", count: indent) + row.label
        guard !row.text.isEmpty else { return label + "\n" }
        let wrapped = TextWrapping.wrap(row.text, width: width, indent: labelColumn)
        if label.count < labelColumn {
            return label + wrapped.dropFirst(label.count) + "\n"
        }
        return label + "\n" + wrapped + "\n"
    }

    /// `USAGE: ...`; ASP never wraps it, we break between elements only when
    /// it is wider than `width`, continuing at column 7 like ASP's multi-line usage.
    private static func usageBlock(path: [CommandConfiguration], width: Int) -> String {
        var lines: [String] = []
        var line = "USAGE:"
        for component in UsageGenerator.components(path: path) {
            if line.count + 1 + component.count > width, line.count > 7 {
                lines.append(line)
                line = String(repeating: " ", count: 6)
            }
            line += " " + component
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
