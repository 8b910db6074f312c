import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct CompletionsCommand: Command {
    static let shells = ["bash", "zsh", "fish"]

    static let configuration = CommandConfiguration(
        name: "completions",
        abstract: "Print a completion script for bash, zsh or fish.",
        discussion: """
            It completes commands, options and their values, and book titles and club names, which \
            it asks bookclub for as you type. bash: bookclub completions bash > \
            ~/.local/share/bash-completion/completions/bookclub. zsh: bookclub completions zsh > \
            ~/.zfunc/_bookclub, with ~/.zfunc in your fpath before compinit. fish: bookclub \
            completions fish > ~/.config/fish/completions/bookclub.fish
            """,
        arguments: [ArgumentSpec(name: "shell", help: "The shell to complete in.", isOptional: true, allowedValues: shells)],
        options: [
            // What the scripts call: one title or club name a line, for the shell to offer.
            OptionSpec(long: "list", kind: .value("what"), help: "List books or clubs, one a line.", allowedValues: ["books", "clubs"], isHidden: true)
        ])

    enum Request {
        case script(String)
        case list(String)
    }

    var request: Request

    init(_ arguments: ParsedArguments) throws {
        switch (arguments.argument("shell"), arguments.value("list")) {
        case (let shell?, nil): request = .script(shell)
        case (nil, let what?): request = .list(what)
        case (nil, nil): throw ParseError.missingArgument(label: "<shell>", help: "The shell to complete in: bash, zsh or fish.")
        case (let shell?, _?): throw ParseError.unexpectedArguments([shell])
        }
    }

    func run(in env: Environment) throws {
        switch request {
        case .script(let shell):
            env.output.write(String(CompletionScript.script(for: shell, root: CLI.root)?.dropLast() ?? ""), as: .data)
        case .list(let what):
            // At a prompt, a store that cannot be read offers nothing rather than an error.
            guard let library = try? env.library().state else { return }
            let names = what == "clubs" ? library.clubs.map(\.name) : library.books.map(\.title)
            for name in names {
                let line = String(name.map { $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
                env.output.write(line.trimmed, as: .data)
            }
        }
    }
}
