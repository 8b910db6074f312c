import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct RemoveCommand: Command {
    static let yes = OptionSpec(long: "yes", short: "y", kind: .flag, help: "Do not ask.")
    static let book = ArgumentSpec(
        name: "book", help: "The book: its id, an id prefix or its whole title (no guessing here).")
    static let configuration = CommandConfiguration(
        name: "remove",
        aliases: ["rm"],
        abstract: "Delete a book and its history.",
        discussion: "Asks first on a terminal; elsewhere (a script, a pipe) it needs --yes.",
        arguments: [
            book
        ],
        options: [yes])

    var reference: String
    var confirmed: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument(Self.book) ?? ""
        confirmed = arguments.flag(Self.yes)
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        let book = try store.state.resolve(reference, exactly: true)
        let title = book.title.terminalSafe
        try env.confirm("Remove '\(title)' and its reading history?", given: confirmed)
        store.update { $0.removeBook(id: book.id) }
        let scene = try env.scene()
        if scene.state.selection == book.id { scene.update { $0.selection = nil } }
        env.output.write("Removed '\(title)'.", as: .message)
    }
}
