/// A bash completion script: a `complete -F` function that walks the words typed so far to find the
/// subcommand and how many of its arguments precede the cursor, then offers option values,
/// arguments (book titles asked of the tool), subcommands or options.
///
/// Bash splits `COMP_WORDS` at `:` and `=` (`--store=x`, `Dune: Messiah`); the function joins such
/// pieces back from `COMP_LINE`, matches on the whole word, and replies with what follows the last
/// piece, which is what readline replaces. Titles go through `compopt -o filenames`, so that
/// readline quotes the spaces and quotes in them.
enum BashCompletion {
    static func script(root: CommandConfiguration) -> String {
        let nodes = CompletionNode.all(root: root)
        let tool = root.name
        let function = "_\(tool.shellIdentifier)"
        let dequote = "__\(tool.shellIdentifier)_dequote"
        let passed = CompletionNode.passedOn(root: root).map(\.longName)
        var lines = [
            "#!/bin/bash",
            "",
            "# The word $1 without its quotes and backslashes, in REPLY.",
            "\(dequote)() {",
            "    REPLY=$1",
            "    case $REPLY in",
            "        \\'*) REPLY=${REPLY#\\'}; REPLY=${REPLY%\\'} ;;",
            "        \\\"*) REPLY=${REPLY#\\\"}; REPLY=${REPLY%\\\"}; REPLY=${REPLY//\\\\/} ;;",
            "        *) REPLY=${REPLY//\\\\/} ;;",
            "    esac",
            "}",
            "",
            "\(function)() {",
            "    local line=${COMP_LINE:0:COMP_POINT} word before start end=0 i",
            "    local -a words=()",
            "    for ((i = 0; i <= COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ -n $word ]]; then before=${line:end}; before=${before%%\"$word\"*}; start=$((end + ${#before})); else start=$COMP_POINT; fi",
            "        if ((${#words[@]} > 1 && start == end)) && [[ $word == [:=]* || ${words[${#words[@]}-1]} == *[:=] ]]; then",
            "            words[${#words[@]}-1]+=$word",
            "        else",
            "            words+=(\"$word\")",
            "        fi",
            "        end=$((start + ${#word}))",
            "    done",
            "    local cur=${words[${#words[@]}-1]} typed=${COMP_WORDS[COMP_CWORD]}",
            "    [[ $typed == [:=] ]] && typed=",
            "    local cmd=\(tool.shellQuoted) n=0 skip= option= head= values= listing= files= restore=",
            "    local -a pass=() candidates=()",
            "    COMPREPLY=()",
            "    for ((i = 1; i < ${#words[@]} - 1; i++)); do",
            "        word=${words[i]}",
            "        if [[ -n $skip ]]; then",
        ]
        if !passed.isEmpty {
            let options = passed.joined(separator: "|")
            lines += [
                "            case $skip in \(options)) \(dequote) \"$word\"; pass+=(\"$skip=${REPLY/#\\~/$HOME}\") ;; esac"
            ]
        }
        lines += ["            skip=", "            continue", "        fi"]
        if !passed.isEmpty {
            let patterns = passed.map { "\($0)=*" }.joined(separator: "|")
            lines.append(
                "        case $word in \(patterns)) \(dequote) \"${word#*=}\"; pass+=(\"${word%%=*}=$REPLY\") ;; esac")
        }
        lines.append("        case \"$cmd:$word\" in")
        for node in nodes {
            for (word, key) in node.transitions {
                lines.append("            \("\(node.key):\(word)".shellQuoted)) cmd=\(key.shellQuoted); n=0 ;;")
            }
        }
        for node in nodes where !node.valueOptionWords.isEmpty {
            lines.append("            \(patterns(node, node.valueOptionWords))) skip=$word ;;")
        }
        lines += [
            "            *:-*) ;;",
            "            *) n=$((n + 1)) ;;",
            "        esac",
            "    done",
            "    if [[ -n $skip ]]; then",
            "        option=$skip",
            "    elif [[ $cur == --*=* ]]; then",
            "        option=${cur%%=*} head=${cur%%=*}=",
            "    fi",
            "    if [[ -n $option ]]; then",
            "        case \"$cmd:$option\" in",
        ]
        for node in nodes {
            for (words, values) in node.optionValues {
                lines.append("            \(patterns(node, words))) \(assignment(values)) ;;")
            }
        }
        lines += ["        esac", "    elif [[ $cur != -* ]]; then", "        case \"$cmd:$n\" in"]
        for node in nodes {
            for (index, values) in node.argumentValues {
                lines.append("            \("\(node.key):\(index)".shellQuoted)) \(assignment(values)) ;;")
            }
        }
        lines += [
            "        esac",
            "    fi",
            "    if [[ -n $files ]]; then",
            "        compopt -o default 2>/dev/null",
            "        return",
            "    elif [[ -n $listing ]]; then",
            "        while IFS= read -r word; do candidates+=(\"$word\"); done < <(\(tool) \(CompletionScript.listingCommand) \"$listing\" \"${pass[@]}\" 2>/dev/null)",
            "        compopt -o filenames 2>/dev/null",
            "        shopt -q nocasematch || { shopt -s nocasematch; restore=1; }",
            "    elif [[ -n $values ]]; then",
            "        read -r -a candidates <<< \"$values\"",
            "    elif [[ -z $option ]]; then",
            "        case \"$cmd\" in",
        ]
        for node in nodes {
            let words = (node.optionWords + node.subcommandWords).joined(separator: " ")
            lines.append("            \(node.key.shellQuoted)) read -r -a candidates <<< \(words.shellQuoted) ;;")
        }
        lines += [
            "        esac",
            "    fi",
            "    \(dequote) \"$cur\"; cur=$REPLY",
            "    \(dequote) \"$typed\"",
            "    local cut=$((${#cur} - ${#REPLY}))",
            "    for word in \"${candidates[@]}\"; do",
            "        word=$head$word",
            "        [[ $word == \"$cur\"* ]] && COMPREPLY+=(\"${word:cut}\")",
            "    done",
            "    # No title begins so: one with a word that does, as a BOOK is found.",
            "    if [[ ${#COMPREPLY[@]} == 0 && -n $listing && $cut == 0 && -n $cur ]]; then",
            "        for word in \"${candidates[@]}\"; do",
            "            [[ $word == *[^[:alnum:]]\"$cur\"* ]] && COMPREPLY+=(\"$word\")",
            "        done",
            "    fi",
            "    [[ -n $restore ]] && shopt -u nocasematch",
            "    return 0",
            "}",
            "",
            "complete -F \(function) \(tool)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `'key:--a'|'key:-a'`, a case pattern for these words at this node.
    private static func patterns(_ node: CompletionNode, _ words: [String]) -> String {
        words.map { "\(node.key):\($0)".shellQuoted }.joined(separator: "|")
    }

    private static func assignment(_ values: CompletionValues) -> String {
        switch values {
        case .choices(let words): "values=\(words.joined(separator: " ").shellQuoted)"
        case .listing(let name): "listing=--\(name)"
        case .files: "files=1"
        case .choicesAfter(let choices):
            "case ${words[${#words[@]}-2]} in "
                + choices.sorted { $0.key < $1.key }.map {
                    "\($0.key.shellQuoted)) values=\($0.value.joined(separator: " ").shellQuoted) ;; "
                }
                .joined() + "esac"
        }
    }
}

extension String {
    /// Letters, digits and underscores only, for shell function names.
    var shellIdentifier: String {
        String(map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
