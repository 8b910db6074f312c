/// A fish completion script: a helper that walks the words typed so far to find the subcommand and
/// how many of its arguments precede the cursor, then one `complete -c` line per subcommand, option
/// and completable argument. Book titles come from `complete -a "(…)"`, which asks the tool.
enum FishCompletion {
    static func script(root: CommandConfiguration) -> String {
        let nodes = CompletionNode.all(root: root)
        let tool = root.name
        let prefix = "__\(tool.shellIdentifier)"
        let helper = "\(prefix)_command_is"
        let passed = CompletionNode.passedOn(root: root).map(\.longName)
        var lines = [
            "# Prints the subcommand being typed and how many of its arguments precede the cursor.",
            "function \(prefix)_state",
            "    set -l cmd \(tool.shellQuoted)",
            "    set -l n 0",
            "    set -l skip 0",
            "    for word in (commandline -opc)[2..-1]",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch \"$cmd:$word\"",
        ]
        for node in nodes {
            for (word, key) in node.transitions {
                lines.append("            case \("\(node.key):\(word)".shellQuoted)")
                lines.append("                set cmd \(key.shellQuoted); set n 0")
            }
        }
        for node in nodes where !node.valueOptionWords.isEmpty {
            lines.append(
                "            case \(node.valueOptionWords.map { "\(node.key):\($0)".shellQuoted }.joined(separator: " "))"
            )
            lines.append("                set skip 1")
        }
        lines += [
            "            case '*:-*'",
            "            case '*'",
            "                set n (math $n + 1)",
            "        end",
            "    end",
            "    echo $cmd",
            "    echo $n",
            "end",
            "",
            "function \(helper)",
            "    set -l state (\(prefix)_state)",
            "    test \"$state[1]\" = \"$argv[1]\"",
            "end",
            "",
            "function \(prefix)_argument_is",
            "    set -l state (\(prefix)_state)",
            "    test \"$state[1]\" = \"$argv[1]\" -a \"$state[2]\" = \"$argv[2]\"",
            "end",
            "",
            "# Asks \(tool) for titles or club names, passing on the files named on the command line.",
            "function \(prefix)_list",
            "    set -l pass",
            "    set -l skip",
            "    for word in (commandline -opc)[2..-1]",
            "        if set -q skip[1]",
            "            set -a pass $skip=(string replace -r -- '^~' $HOME $word)",
            "            set -e skip",
            "            continue",
            "        end",
            "        switch $word",
        ]
        if !passed.isEmpty {
            lines += [
                "            case \(passed.joined(separator: " "))",
                "                set skip $word",
                "            case \(passed.map { "'\($0)=*'" }.joined(separator: " "))",
                "                set -a pass $word",
            ]
        }
        lines += [
            "        end",
            "    end",
            "    \(tool) \(CompletionScript.listingCommand) $argv[1] $pass 2>/dev/null",
            "end",
            "",
            "complete -c \(tool) -f",
        ]
        for node in nodes {
            let condition = "-n \("\(helper) \(node.key)".shellQuoted)"
            for sub in node.command.subcommands {
                for word in [sub.name] + sub.aliases {
                    lines.append(
                        "complete -c \(tool) \(condition) -a \(word.shellQuoted) -d \(sub.abstract.shellQuoted)")
                }
            }
            if !node.command.subcommands.isEmpty {
                lines.append("complete -c \(tool) \(condition) -a 'help' -d 'Show subcommand help information.'")
            }
            for (index, values) in node.argumentValues {
                let condition = "\(prefix)_argument_is \(node.key) \(index)"
                if case .choicesAfter(let choices) = values {
                    for (word, values) in choices.sorted(by: { $0.key < $1.key }) {
                        let after = "\(condition); and test (commandline -opc)[-1] = \(word)"
                        lines.append(
                            "complete -c \(tool) -n \(after.shellQuoted) "
                                + arguments(.choices(values), prefix: prefix))
                    }
                    continue
                }
                lines.append("complete -c \(tool) -n \(condition.shellQuoted) " + arguments(values, prefix: prefix))
            }
            for option in node.path.visibleOptions where node.path.count == 1 || !option.isInherited {
                lines.append("complete -c \(tool) \(condition) " + optionArguments(option, prefix: prefix))
            }
        }
        let inherited = root.options.filter { $0.isInherited && !$0.isHidden }
        for option in inherited {
            lines.append(
                "complete -c \(tool) -n \("not \(helper) \(tool)".shellQuoted) "
                    + optionArguments(option, prefix: prefix))
        }
        if root.version != nil {
            lines.append("complete -c \(tool) -l version -d 'Show the version.'")
        }
        lines.append("complete -c \(tool) -s h -l help -d 'Show help information.'")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-l long [-s x] [-x [-a 'values'] | -r -F] -d 'help'` for one option: a value is required
    /// (`-r`), and only a path completes to file names.
    private static func optionArguments(_ option: OptionSpec, prefix: String) -> String {
        var parts = ["-l", option.long]
        if let short = option.short { parts += ["-s", String(short)] }
        if let name = option.valueName {
            switch CompletionValues(name: name, allowedValues: option.allowedValues) {
            case .files: parts += ["-r", "-F"]
            case let values?: parts += ["-x", arguments(values, prefix: prefix)]
            case nil: parts.append("-x")
            }
        }
        parts += ["-d", option.help.shellQuoted]
        return parts.joined(separator: " ")
    }

    /// `-a 'a b c'`, `-a '(__tool_list --titles)'` or `-F`.
    private static func arguments(_ values: CompletionValues, prefix: String) -> String {
        switch values {
        case .choices(let words): "-a \(words.joined(separator: " ").shellQuoted)"
        case .listing(let name): "-a \("(\(prefix)_list --\(name))".shellQuoted)"
        case .files: "-F"
        case .choicesAfter: ""
        }
    }
}
