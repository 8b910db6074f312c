import BookClubCore

/// Before the parse: the part of the command tree a command line needs, from its first word.
extension CLI {
    /// The tree the parser needs for `arguments`: when the first word names a command, that command
    /// alone (making every command's configuration costs a tenth of a `progress`); else all of them,
    /// for the help and for the suggestions of a mistyped name.
    static func root(for arguments: [String]) -> CommandConfiguration {
        // `--version` alone needs no command at all.
        if arguments == ["--version"] { return root(with: []) }
        guard let word = firstWord(of: arguments) else { return root }
        for command in topLevel {
            let configuration = command.configuration
            if configuration.name == word { return root(with: [configuration]) }
        }
        for group in groups where group.configuration.name == word {
            return root(with: [configuration(of: group)])
        }
        return root
    }

    /// The first word of `arguments` that is not an option or an option's value; `nil` past `--` or
    /// an option that is not a global one.
    private static func firstWord(of arguments: [String]) -> String? {
        // Looked through, not put in sets: a dozen options, and making a set of characters costs the
        // runtime more, the first time in a process, than the search.
        let options = globalOptions.map(\.spec)
        func isFlag(_ spec: OptionSpec) -> Bool {
            if case .flag = spec.kind { return true }
            return false
        }
        var tokens = ArgumentSplitter.split(arguments)[...]
        while let token = tokens.popFirst() {
            switch token {
            case .positional(let word): return word
            case .long(let name, let value):
                guard let option = options.first(where: { $0.long == name }) else { return nil }
                if !isFlag(option) {
                    if value == nil { _ = tokens.popFirst() }
                } else if value != nil {
                    return nil
                }
            case .short(let names)
            where names.allSatisfy({ name in options.contains { $0.short == name && isFlag($0) } }):
                continue
            default: return nil
            }
        }
        return nil
    }
}
