import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct RemoveCommand: Removal {
    static let yes = Flag(long: "yes", short: "y", help: "Do not ask.")
    static let book = Argument(
        name: "book", help: "The book: its id, an id prefix or its whole title (no guessing here).")
    static let configuration = CommandConfiguration(
        name: "remove",
        aliases: ["rm"],
        abstract: "Delete a book and its history.",
        discussion: "Asks first on a terminal; elsewhere (a script, a pipe) it needs --yes.",
        examples: ["bookclub remove \"Dune Messiah\"", "bookclub remove 5f2c0a8e --yes"],
        arguments: [
            book
        ],
        options: [yes, CommonOptions.json])

    var reference: String
    var confirmed: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[Self.book] ?? ""
        confirmed = arguments[Self.yes]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let (store, book) = try confirmThenLock(given: confirmed, in: session) {
            try $0.resolve(reference, exactly: true)
        } question: {
            "Remove '\($0.title)' and its reading history?"
        }
        let title = TerminalText(book.title)
        store.update { $0.removeBook(id: book.id) }
        let scene = try session.scene()
        if scene.state.selection == book.id { scene.update { $0.selection = nil } }
        if json { try session.writeJSON(BookJSON(book)) }
        session.output.write("Removed '\(title)'.", as: .message)
    }
}
