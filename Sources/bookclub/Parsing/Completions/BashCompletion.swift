/// A bash completion script: a `complete -F` function that finds the
/// subcommand being typed, then offers its subcommands and options.
enum BashCompletion {
    static func script(root: CommandConfiguration) -> String {
        let nodes = CompletionNode.all(root: root)
        let function = "_\(root.name.shellIdentifier)"
        let tool = root.name.shellQuoted
        var lines = [
            "#!/bin/bash",
            "",
            "# Titles or club names ($1) from bookclub itself, with the line's --store and --settings.",
            "\(function)_candidates() {",
            "    local line i",
            "    local -a args=()",
            "    for ((i = 1; i < COMP_CWORD - 1; i++)); do",
            "        case \"${COMP_WORDS[i]}\" in",
            "            --store|--settings) args+=(\"${COMP_WORDS[i]}\" \"${COMP_WORDS[i+1]}\") ;;",
            "        esac",
            "    done",
            "    while IFS= read -r line; do",
            "        [[ ${line,,} == \"${cur,,}\"* ]] && COMPREPLY+=(\"$(printf '%q' \"$line\")\")",
            "    done < <(command \(tool) \"${args[@]}\" completions --list \"$1\" 2>/dev/null)",
            "}",
            "",
            "\(function)() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\"",
            "    local prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    local cmd=\(tool) opts=\"\" names=\"\" i",
            "    COMPREPLY=()",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case \"$cmd:${COMP_WORDS[i]}\" in",
        ]
        for node in nodes {
            for (word, key) in node.transitions {
                lines.append("            \("\(node.key):\(word)".shellQuoted)) cmd=\(key.shellQuoted) ;;")
            }
        }
        lines += ["        esac", "    done", "    case \"$cmd:$prev\" in"]
        for node in nodes {
            for (option, values) in node.optionsWithValues {
                let words = values.joined(separator: " ").shellQuoted
                lines.append("        \("\(node.key):\(option)".shellQuoted))")
                lines.append("            COMPREPLY=( $(compgen -W \(words) -- \"$cur\") ); return ;;")
            }
            for (option, candidates) in node.optionsWithCandidates {
                lines.append("        \("\(node.key):\(option)".shellQuoted)) \(function)_candidates \(candidates); return ;;")
            }
        }
        lines += ["    esac", "    case \"$cmd\" in"]
        for node in nodes {
            let words = (node.optionWords + node.subcommandWords + node.argumentWords).joined(separator: " ")
            let names = node.argumentCandidates.map { "; names=\($0)" } ?? ""
            lines.append("        \(node.key.shellQuoted)) opts=\(words.shellQuoted)\(names) ;;")
        }
        lines += [
            "    esac",
            "    if [[ -n $names && $cur != -* ]]; then",
            "        \(function)_candidates \"$names\"",
            "        return",
            "    fi",
            "    COMPREPLY=( $(compgen -W \"$opts\" -- \"$cur\") )",
            "}",
            "",
            "complete -F \(function) \(root.name)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Letters, digits and underscores only, for shell function names.
    var shellIdentifier: String {
        String(map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
