/// A fish completion script: a helper that finds the subcommand being
/// typed, then one `complete -c` line per subcommand and option.
enum FishCompletion {
    static func script(root: CommandConfiguration) -> String {
        let nodes = CompletionNode.all(root: root)
        let tool = root.name
        let helper = "__\(tool.shellIdentifier)_command_is"
        var lines = [
            "function \(helper)",
            "    set -l cmd \(tool.shellQuoted)",
            "    for word in (commandline -opc)[2..-1]",
            "        switch \"$cmd:$word\"",
        ]
        for node in nodes {
            for (word, key) in node.transitions {
                lines.append("            case \("\(node.key):\(word)".shellQuoted)")
                lines.append("                set cmd \(key.shellQuoted)")
            }
        }
        let candidates = "__\(tool.shellIdentifier)_candidates"
        lines += [
            "        end",
            "    end",
            "    test \"$cmd\" = \"$argv[1]\"",
            "end",
            "",
            "# Titles or club names ($argv[1]) from bookclub itself, with the line's --store and --settings.",
            "function \(candidates)",
            "    set -l tokens (commandline -opc)",
            "    set -l args",
            "    for i in (seq 2 (math (count $tokens) - 1))",
            "        switch $tokens[$i]",
            "            case --store --settings",
            "                set -a args $tokens[$i] $tokens[(math $i + 1)]",
            "        end",
            "    end",
            "    command \(tool.shellQuoted) $args completions --list $argv[1] 2>/dev/null",
            "end",
            "",
            "complete -c \(tool) -f",
        ]
        for node in nodes {
            let condition = "-n \("\(helper) \(node.key)".shellQuoted)"
            for sub in node.command.subcommands {
                for word in [sub.name] + sub.aliases {
                    lines.append("complete -c \(tool) \(condition) -a \(word.shellQuoted) -d \(sub.abstract.shellQuoted)")
                }
            }
            if !node.command.subcommands.isEmpty {
                lines.append("complete -c \(tool) \(condition) -a 'help' -d 'Show subcommand help information.'")
            }
            if let names = node.argumentCandidates {
                lines.append("complete -c \(tool) \(condition) -a \("(\(candidates) \(names))".shellQuoted)")
            }
            for argument in node.command.arguments {
                guard let values = argument.allowedValues, !values.isEmpty else { continue }
                lines.append("complete -c \(tool) \(condition) -a \(values.joined(separator: " ").shellQuoted) -d \(argument.help.shellQuoted)")
            }
            for option in node.path.visibleOptions where node.path.count == 1 || !option.isInherited {
                lines.append("complete -c \(tool) \(condition) " + optionArguments(option, candidates: candidates))
            }
        }
        let inherited = root.options.filter { $0.isInherited && !$0.isHidden }
        for option in inherited {
            lines.append("complete -c \(tool) -n \("not \(helper) \(tool)".shellQuoted) " + optionArguments(option, candidates: candidates))
        }
        if root.version != nil {
            lines.append("complete -c \(tool) -l version -d 'Show the version.'")
        }
        lines.append("complete -c \(tool) -s h -l help -d 'Show help information.'")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-l long [-s x] [-r] [-a 'values'] -d 'help'` for one option.
    ///
    /// - Parameter candidates: the function that lists books or clubs, for options whose value is one.
    private static func optionArguments(_ option: OptionSpec, candidates: String) -> String {
        var parts = ["-l", option.long]
        if let short = option.short { parts += ["-s", String(short)] }
        if option.valueName != nil { parts.append("-r") }
        if let values = option.allowedValues, !values.isEmpty {
            parts += ["-f", "-a", values.joined(separator: " ").shellQuoted]
        } else if let names = option.valueName.flatMap(CompletionNode.candidates(named:)) {
            parts += ["-f", "-a", "(\(candidates) \(names))".shellQuoted]
        }
        parts += ["-d", option.help.shellQuoted]
        return parts.joined(separator: " ")
    }
}
