#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A zsh completion script (`#compdef`, to be saved as `_<tool>`) that finds
/// the subcommand being typed, then offers its subcommands and options.
enum ZshCompletion {
    static func script(root: CommandConfiguration) -> String {
        let nodes = CompletionNode.all(root: root)
        let function = "_\(root.name.shellIdentifier)"
        let tool = root.name.shellQuoted
        var lines = [
            "#compdef \(root.name)",
            "",
            "# Titles or club names ($1) from bookclub itself, with the line's --store and --settings.",
            "\(function)_candidates() {",
            "    local -a args candidates",
            "    local i",
            "    for (( i = 2; i < CURRENT - 1; i++ )); do",
            "        case ${words[i]} in",
            "            (--store|--settings) args+=(${words[i]} ${(Q)words[i+1]}) ;;",
            "        esac",
            "    done",
            "    candidates=(${(f)\"$(command \(tool) $args completions --list $1 2>/dev/null)\"})",
            "    compadd -M 'm:{a-zA-Z}={A-Za-z}' -a candidates",
            "}",
            "",
            "\(function)() {",
            "    local cmd=\(tool) names=\"\" i",
            "    local -a opts subcommands values",
            "    for (( i = 2; i < CURRENT; i++ )); do",
            "        case \"$cmd:${words[i]}\" in",
        ]
        for node in nodes {
            for (word, key) in node.transitions {
                lines.append("            (\("\(node.key):\(word)".shellQuoted)) cmd=\(key.shellQuoted) ;;")
            }
        }
        lines += ["        esac", "    done", "    case \"$cmd:${words[CURRENT-1]}\" in"]
        for node in nodes {
            for (option, values) in node.optionsWithValues {
                let words = values.map(\.shellQuoted).joined(separator: " ")
                lines.append("        (\("\(node.key):\(option)".shellQuoted)) compadd -- \(words); return ;;")
            }
            for (option, candidates) in node.optionsWithCandidates {
                lines.append("        (\("\(node.key):\(option)".shellQuoted)) \(function)_candidates \(candidates); return ;;")
            }
        }
        lines += ["    esac", "    case \"$cmd\" in"]
        for node in nodes {
            let options = node.optionWords.map(\.shellQuoted).joined(separator: " ")
            var entry = "        (\(node.key.shellQuoted)) opts=(\(options))"
            if !node.command.subcommands.isEmpty {
                let described = node.command.subcommands.flatMap { sub in
                    ([sub.name] + sub.aliases).map { describe($0, sub.abstract) }
                } + [describe("help", "Show subcommand help information.")]
                entry += "; subcommands=(\(described.joined(separator: " ")))"
            }
            if let candidates = node.argumentCandidates {
                entry += "; names=\(candidates)"
            }
            if !node.argumentWords.isEmpty {
                entry += "; values=(\(node.argumentWords.map(\.shellQuoted).joined(separator: " ")))"
            }
            lines.append(entry + " ;;")
        }
        lines += [
            "    esac",
            "    if [[ $PREFIX == -* ]]; then",
            "        compadd -- $opts",
            "    elif [[ -n $names ]]; then",
            "        \(function)_candidates $names",
            "    elif (( ${#subcommands} )); then",
            "        _describe -t commands 'subcommand' subcommands",
            "    elif (( ${#values} )); then",
            "        compadd -- $values",
            "        _files",
            "    else",
            "        _files",
            "    fi",
            "}",
            "",
            "\(function) \"$@\"",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A `_describe` entry "name:description", quoted.
    private static func describe(_ name: String, _ abstract: String) -> String {
        let escapedName = name.replacing(":", with: "\\:")
        return "\(escapedName):\(abstract)".shellQuoted
    }
}
