#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A zsh completion script (`#compdef`, to be saved as `_<tool>`) that walks the words typed so far
/// to find the subcommand and how many of its arguments precede the cursor, then offers option
/// values, arguments (book titles asked of the tool, quoted by `compadd`), subcommands or options.
enum ZshCompletion {
    static func script(root: CommandConfiguration) -> String {
        let nodes = CompletionNode.all(root: root)
        let tool = root.name
        let function = "_\(tool.shellIdentifier)"
        let passed = CompletionNode.passedOn(root: root).map(\.longName)
        var lines = [
            "#compdef \(tool)",
            "",
            "\(function)() {",
            "    local cmd=\(tool.shellQuoted) word skip= option= listing= files= i n=0",
            "    local -a opts subcommands values pass candidates",
            "    for (( i = 2; i < CURRENT; i++ )); do",
            "        word=${words[i]}",
            "        if [[ -n $skip ]]; then",
        ]
        if !passed.isEmpty {
            lines.append(
                "            case $skip in (\(passed.joined(separator: "|")))) pass+=(\"$skip=${${(Q)word}/#\\~/$HOME}\") ;; esac"
            )
        }
        lines += ["            skip=", "            continue", "        fi"]
        if !passed.isEmpty {
            let patterns = passed.map { "\($0)=*" }.joined(separator: "|")
            lines.append("        case $word in (\(patterns)) pass+=(\"${(Q)word}\") ;; esac")
        }
        lines.append("        case \"$cmd:$word\" in")
        for node in nodes {
            for (word, key) in node.transitions {
                lines.append("            (\("\(node.key):\(word)".shellQuoted)) cmd=\(key.shellQuoted); n=0 ;;")
            }
        }
        for node in nodes where !node.valueOptionWords.isEmpty {
            lines.append("            (\(patterns(node, node.valueOptionWords))) skip=$word ;;")
        }
        lines += [
            "            (*:-*) ;;",
            "            (*) n=$(( n + 1 )) ;;",
            "        esac",
            "    done",
            "    if [[ -n $skip ]]; then",
            "        option=$skip",
            "    elif [[ $PREFIX == --*=* ]]; then",
            "        option=${PREFIX%%=*}",
            "        compset -P '*='",
            "    fi",
            "    if [[ -n $option ]]; then",
            "        case \"$cmd:$option\" in",
        ]
        for node in nodes {
            for (words, values) in node.optionValues {
                lines.append("            (\(patterns(node, words))) \(assignment(values)) ;;")
            }
        }
        lines += ["        esac", "    elif [[ $PREFIX != -* ]]; then", "        case \"$cmd:$n\" in"]
        for node in nodes {
            for (index, values) in node.argumentValues {
                lines.append("            (\("\(node.key):\(index)".shellQuoted)) \(assignment(values)) ;;")
            }
        }
        lines += [
            "        esac",
            "    fi",
            "    if [[ -n $files ]]; then",
            "        _files",
            "        return",
            "    elif [[ -n $listing ]]; then",
            "        candidates=(${(f)\"$(\(tool) \(CompletionScript.listingCommand) $listing \"${pass[@]}\" 2>/dev/null)\"})",
            "        compadd -M 'm:{[:lower:]}={[:upper:]}' -a candidates && return",
            "        # None begins so: those with a word that does, as a BOOK is found; the word typed stays",
            "        # on the line until one is chosen.",
            "        setopt localoptions extendedglob",
            "        candidates=(${(M)candidates:#(#i)*[^[:alnum:]]${(b)PREFIX}*})",
            "        (( ${#candidates} )) || return 1",
            "        (( ${#candidates} > 1 )) && compstate[insert]=",
            "        compadd -U -a candidates",
            "        return",
            "    elif (( ${#values} )); then",
            "        compadd -a values",
            "        return",
            "    elif [[ -n $option ]]; then",
            "        return 1",
            "    fi",
            "    case \"$cmd\" in",
        ]
        for node in nodes {
            let options = node.optionWords.map(\.shellQuoted).joined(separator: " ")
            var entry = "        (\(node.key.shellQuoted)) opts=(\(options))"
            if !node.command.subcommands.isEmpty {
                let described =
                    node.command.subcommands.flatMap { sub in
                        ([sub.name] + sub.aliases).map { describe($0, sub.abstract) }
                    } + [describe("help", "Show subcommand help information.")]
                entry += "; subcommands=(\(described.joined(separator: " ")))"
            }
            lines.append(entry + " ;;")
        }
        lines += [
            "    esac",
            "    if [[ $PREFIX == -* ]]; then",
            "        compadd -a opts",
            "    elif (( ${#subcommands} )); then",
            "        _describe -t commands 'subcommand' subcommands",
            "    else",
            "        _files",
            "    fi",
            "}",
            "",
            "\(function) \"$@\"",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `'key:--a'|'key:-a'`, a case pattern for these words at this node.
    private static func patterns(_ node: CompletionNode, _ words: [String]) -> String {
        words.map { "\(node.key):\($0)".shellQuoted }.joined(separator: "|")
    }

    private static func assignment(_ values: CompletionValues) -> String {
        switch values {
        case .choices(let words): "values=(\(words.map(\.shellQuoted).joined(separator: " ")))"
        case .listing(let name): "listing=--\(name)"
        case .files: "files=1"
        case .choicesAfter(let choices):
            "case ${(Q)words[CURRENT-1]} in "
                + choices.sorted { $0.key < $1.key }.map {
                    "(\($0.key.shellQuoted)) values=(\($0.value.map(\.shellQuoted).joined(separator: " "))) ;; "
                }.joined() + "esac"
        }
    }

    /// A `_describe` entry "name:description", quoted.
    private static func describe(_ name: String, _ abstract: String) -> String {
        let escapedName = name.replacing(":", with: "\\:")
        return "\(escapedName):\(abstract)".shellQuoted
    }
}
