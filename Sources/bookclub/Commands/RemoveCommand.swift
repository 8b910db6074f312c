import BookClubCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct RemoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "remove",
        aliases: ["rm"],
        abstract: "Delete a book and its history.",
        discussion: "Asks first on a terminal; elsewhere (a script, a pipe) it needs --yes.",
        arguments: [ArgumentSpec(name: "book", help: "The book: an id or id prefix, a title, or words of it.")],
        options: [OptionSpec(long: "yes", short: "y", kind: .flag, help: "Do not ask.")])

    var reference: String
    var confirmed: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument("book") ?? ""
        confirmed = arguments.flag("yes")
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        let book = try env.resolveBook(reference, in: store.state).book
        let title = book.title.terminalSafe
        if !confirmed {
            guard env.terminal.standardInputIsTerminal else {
                throw BookClubError.aborted("Not removing '\(title)' without --yes: standard input is not a terminal.")
            }
            env.output.prompt("Remove '\(title)' and its reading history? [y/N] ")
            guard let answer = env.readLine()?.lowercased(), ["y", "yes"].contains(answer) else {
                throw BookClubError.aborted("Nothing removed.")
            }
        }
        store.update { $0.removeBook(id: book.id) }
        let scene = try env.scene()
        if scene.state.selection == book.id { scene.update { $0.selection = nil } }
        env.output.write("Removed '\(title)'.", as: .message)
    }
}
