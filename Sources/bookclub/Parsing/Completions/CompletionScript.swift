#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Static shell completion scripts for a command tree.
enum CompletionScript {
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

    /// The values of this command's arguments that take one of a fixed set (`import goodreads`).
    var argumentWords: [String] {
        command.arguments.flatMap { $0.allowedValues ?? [] }
    }

    /// What the command's arguments name from the store, asked of the tool itself when completing
    /// (`CompletionsCommand` prints them): "books" for a `<book>` argument, "clubs" for a `<club>`.
    var argumentCandidates: String? {
        command.arguments.lazy.compactMap { Self.candidates(named: $0.name) }.first
    }

    /// Options in scope whose value names a book or a club, with what to ask for.
    var optionsWithCandidates: [(option: String, candidates: String)] {
        path.visibleOptions.compactMap { option in
            option.valueName.flatMap(Self.candidates(named:)).map { (option.longName, $0) }
        }
    }

    /// "books" for a value called book, "clubs" for club.
    static func candidates(named name: String) -> String? {
        switch name {
        case "book": "books"
        case "club": "clubs"
        default: nil
        }
    }

    /// Options in scope that take one of a fixed set of values.
    var optionsWithValues: [(option: String, values: [String])] {
        path.visibleOptions.compactMap { option in
            guard let values = option.allowedValues, !values.isEmpty else { return nil }
            return (option.longName, values)
        }
    }
}

extension String {
    /// Quoted for a POSIX-like shell with single quotes.
    var shellQuoted: String {
        "'" + replacing("'", with: "'\\''") + "'"
    }
}
