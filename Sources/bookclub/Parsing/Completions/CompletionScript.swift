#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Shell completion scripts for a command tree: static for commands and options, dynamic for the
/// values that live in the store, which the scripts ask the tool for while completing.
enum CompletionScript {
    /// Arguments and option values named like this (`<book>`, `--club <club>`) complete to what
    /// `<tool> completions --<listing>` prints, one candidate a line: titles, club names.
    static let listings = ["book": "titles", "club": "clubs", "meeting": "meetings"]
    /// Values named like this complete to these words (a `--date <when>` to the days one types most).
    static let choices = [
        "when": ["today", "yesterday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    ]
    /// The subcommand the scripts ask for listings.
    static let listingCommand = "completions"
    /// Values named like this complete to file names.
    static let pathValueNames: Set<String> = ["path", "file"]

    /// The script for `shell` ("bash", "zsh" or "fish"), or nil when unknown.
    static func script(for shell: String, root: CommandConfiguration) -> String? {
        switch shell {
        case "bash": BashCompletion.script(root: root)
        case "zsh": ZshCompletion.script(root: root)
        case "fish": FishCompletion.script(root: root)
        default: nil
        }
    }
}

/// What a positional argument or an option value completes to.
enum CompletionValues: Equatable, Sendable {
    /// A fixed set of words.
    case choices([String])
    /// What `<tool> completions --<name>` prints when asked, one candidate a line. Book titles match
    /// any word of the title, as a `BOOK` is resolved (`left` finds "The Left Hand of Darkness").
    case listing(String)
    case files
    /// Words that depend on the word before (a setting's values after its key), by that word.
    case choicesAfter([String: [String]])

    /// The values of an argument or option value called `name`, or nil when nothing can be offered.
    init?(name: String, allowedValues: [String]?) {
        if let values = allowedValues?.filter({ !$0.isEmpty }), !values.isEmpty {
            self = .choices(values)
        } else if let values = CompletionScript.choices[name] {
            self = .choices(values)
        } else if let listing = CompletionScript.listings[name] {
            self = .listing(listing)
        } else if CompletionScript.pathValueNames.contains(name) {
            self = .files
        } else {
            return nil
        }
    }
}

/// One command of the tree as the completion scripts see it.
struct CompletionNode: Sendable {
    /// Names from the root joined by "/", e.g. "bookclub/settings/set".
    var key: String
    var path: [CommandConfiguration]
    var command: CommandConfiguration { path[path.count - 1] }

    /// Every command of the tree, depth first, root first.
    static func all(root: CommandConfiguration) -> [CompletionNode] {
        func visit(_ path: [CommandConfiguration]) -> [CompletionNode] {
            let node = CompletionNode(key: path.map(\.name).joined(separator: "/"), path: path)
            return [node] + node.command.subcommands.flatMap { visit(path + [$0]) }
        }
        return visit([root])
    }

    /// `(word, child key)` for each name and alias of each subcommand.
    var transitions: [(word: String, key: String)] {
        command.subcommands.flatMap { sub in
            ([sub.name] + sub.aliases).map { (word: $0, key: "\(key)/\(sub.name)") }
        }
    }

    /// Long option names offered here, including the built-in ones.
    var optionWords: [String] {
        var words = path.visibleOptions.map(\.longName)
        if path[0].version != nil { words.append("--version") }
        return words + ["--help"]
    }

    /// Subcommand words offered here; parents also accept `help`.
    var subcommandWords: [String] {
        command.subcommands.isEmpty ? [] : command.subcommandNames + ["help"]
    }

    /// The words of each option in scope that takes a value (`--author`, `-a`), hidden ones too: the
    /// word after them is that value, not an argument.
    var valueOptionWords: [String] {
        path.optionsInScope.filter { $0.valueName != nil }.flatMap(\.words)
    }

    /// The options in scope whose values can be completed, with their words.
    var optionValues: [(words: [String], values: CompletionValues)] {
        path.optionsInScope.compactMap { option in
            guard let name = option.valueName,
                let values = CompletionValues(name: name, allowedValues: option.allowedValues)
            else { return nil }
            return (option.words, values)
        }
    }

    /// The positional arguments that can be completed, by position (0 for the first).
    var argumentValues: [(index: Int, values: CompletionValues)] {
        command.arguments.enumerated().compactMap { index, argument in
            (argument.completion ?? CompletionValues(name: argument.name, allowedValues: argument.allowedValues)).map {
                (index, $0)
            }
        }
    }

    /// The root's inherited options that name a file, such as `--store`: passed on to the listings,
    /// so that they list what the command line will use.
    static func passedOn(root: CommandConfiguration) -> [OptionSpec] {
        root.options.filter { option in
            option.isInherited
                && option.valueName.flatMap { CompletionValues(name: $0, allowedValues: option.allowedValues) }
                    == .files
        }
    }
}

extension String {
    /// Quoted for a POSIX-like shell with single quotes.
    var shellQuoted: String {
        "'" + replacing("'", with: "'\\''") + "'"
    }
}

extension OptionSpec {
    /// `--long` and `-s`, as typed.
    var words: [String] {
        [longName] + (short.map { ["-\($0)"] } ?? [])
    }
}
