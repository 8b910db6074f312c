#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The flags every command understands: `-h`/`--help`, `-v`/`--version` and the
/// hidden `--generate-completion-script [bash|zsh|fish]`. They win over any
/// other argument, so they are looked for before the real parse.
enum BuiltinFlags {
    static let supportedShells = ["zsh", "bash", "fish"]

    static func request(
        in tokens: [SplitToken], root: CommandConfiguration, environment: [String: String]
    ) -> ParseOutcome? {
        let options = tokens.prefix { $0 != .terminator }
        if options.contains(.long(name: "help", value: nil)) || options.contains(.short("h")) {
            return .help(path: helpPath(for: tokens, root: root))
        }
        if let version = root.version,
            options.contains(.long(name: "version", value: nil)) || (root.takesShortV && options.contains(.short("v")))
        {
            return .version(version)
        }
        if let index = options.firstIndex(where: isCompletionRequest) {
            return completion(at: index, in: tokens, root: root, environment: environment)
        }
        return nil
    }

    private static func isCompletionRequest(_ token: SplitToken) -> Bool {
        if case .long("generate-completion-script", _) = token { return true }
        return false
    }

    private static func completion(
        at index: Int, in tokens: [SplitToken], root: CommandConfiguration, environment: [String: String]
    ) -> ParseOutcome {
        var shell: String?
        if case .long(_, let value?) = tokens[index] {
            shell = value
        } else if index + 1 < tokens.count, case .positional(let next) = tokens[index + 1] {
            shell = next
        }
        guard let shell else {
            return .completionScript(shell: detectedShell(environment: environment))
        }
        guard supportedShells.contains(shell) else {
            return .failure(.unsupportedShell(shell), path: [root])
        }
        return .completionScript(shell: shell)
    }

    /// The shell `$SHELL` names when it is one of `supportedShells`, else bash.
    static func detectedShell(environment: [String: String]) -> String {
        let name = environment["SHELL"].map { URL(fileURLWithPath: $0).lastPathComponent }
        return name.flatMap { supportedShells.contains($0) ? $0 : nil } ?? "bash"
    }

    /// The command path named by the subcommand words among `tokens`,
    /// skipping option values and the `help` pseudo-subcommand.
    static func helpPath(for tokens: [SplitToken], root: CommandConfiguration) -> [CommandConfiguration] {
        var path = [root]
        var skipNext = false
        for token in tokens {
            if skipNext {
                skipNext = false
                continue
            }
            switch token {
            case .terminator:
                return path
            case .long(let name, nil):
                skipNext = path.optionsInScope.first { $0.long == name }?.valueName != nil
            case .short(let characters):
                if let last = characters.last, characters.count == 1 {
                    skipNext = path.optionsInScope.first { $0.short == last }?.valueName != nil
                }
            case .positional(let word):
                if let subcommand = path.last?.subcommand(named: word) {
                    path.append(subcommand)
                }
            case .long:
                break
            }
        }
        return path
    }
}
