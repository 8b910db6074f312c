import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct AddCommand: Command {
    static let author = Option(long: "author", short: "a", kind: .value("author"), help: "Who wrote it.")
    static let pages = Option(
        long: "pages", short: "p", kind: .value("pages"),
        help: "How many pages it has; lets you log page numbers.", parse: .integer(in: Library.pageCounts))
    static let isbn = Option(long: "isbn", kind: .value("isbn"), help: "Its ISBN.")
    static let cover = Option(long: "cover", kind: .value("name"), help: "The name of a cover image.")
    static let tag = Option(long: "tag", short: "t", kind: .repeatingValue("tag"), help: "A tag; repeat for more.")
    static let title = Argument(name: "title", help: "The book's title.")
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a book and print its id.",
        discussion: "Example: bookclub add \"Dune\" --author \"Frank Herbert\" --pages 412 --tag sf",
        arguments: [title],
        options: [
            author,
            pages,
            isbn,
            cover,
            tag,
            CommonOptions.json,
        ])

    var title: String
    var author: String?
    var pages: Int?
    var isbn: String?
    var cover: String?
    var tags: [String]
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        title = try arguments[Self.title]?.trimmed ?? ""
        guard !title.isEmpty else {
            throw ParseError.invalidValue(value: title, label: "<title>", reason: "a title cannot be empty")
        }
        author = try arguments[Self.author].flatMap(\.nonBlank)
        pages = try arguments[Self.pages]
        isbn = try arguments[Self.isbn].flatMap(\.nonBlank)
        cover = try arguments[Self.cover].flatMap(\.nonBlank)
        tags = Book.tags(try arguments[every: Self.tag])
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let store = try session.library(forWriting: true)
        try store.state.checkUnique(title: title, author: author)
        let book = Book(
            id: session.makeID(), title: title, author: author, pages: pages, isbn: isbn, coverName: cover, tags: tags,
            added: session.now().wholeSeconds)
        store.update { $0.addBook(book) }
        if json {
            try session.writeJSON(BookJSON(book))
        } else {
            session.output.write(book.id, as: .data)
        }
        session.output.write(
            "Added '\(title.terminalSafe)'" + (author.map { " by \($0.terminalSafe)" } ?? "") + ".", as: .message)
    }
}
