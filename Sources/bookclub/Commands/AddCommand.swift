import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct AddCommand: Command {
    static let author = OptionSpec(long: "author", short: "a", kind: .value("author"), help: "Who wrote it.")
    static let pages = OptionSpec(
        long: "pages", short: "p", kind: .value("pages"),
        help: "How many pages it has; lets you log page numbers.")
    static let isbn = OptionSpec(long: "isbn", kind: .value("isbn"), help: "Its ISBN.")
    static let cover = OptionSpec(long: "cover", kind: .value("name"), help: "The name of a cover image.")
    static let tag = OptionSpec(long: "tag", short: "t", kind: .repeatingValue("tag"), help: "A tag; repeat for more.")
    static let title = ArgumentSpec(name: "title", help: "The book's title.")
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
        title = arguments.argument(Self.title)?.trimmed ?? ""
        guard !title.isEmpty else {
            throw ParseError.invalidValue(value: title, label: "<title>", reason: "a title cannot be empty")
        }
        author = arguments.value(Self.author).flatMap(\.nonBlank)
        pages = try arguments.integer(Self.pages, in: Library.pageCounts)
        isbn = arguments.value(Self.isbn).flatMap(\.nonBlank)
        cover = arguments.value(Self.cover).flatMap(\.nonBlank)
        tags = Book.tags(arguments.values(Self.tag))
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        try store.state.checkUnique(title: title, author: author)
        let book = Book(
            id: env.makeID(), title: title, author: author, pages: pages, isbn: isbn, coverName: cover, tags: tags,
            added: env.now().wholeSeconds)
        store.update { $0.addBook(book) }
        if json {
            try env.writeJSON(BookJSON(book))
        } else {
            env.output.write(book.id, as: .data)
        }
        env.output.write(
            "Added '\(title.terminalSafe)'" + (author.map { " by \($0.terminalSafe)" } ?? "") + ".", as: .message)
    }
}
