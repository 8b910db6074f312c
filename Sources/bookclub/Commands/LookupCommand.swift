import BookClubCore

struct LookupCommand: Command {
    static let isbn = Argument(name: "isbn", help: "The ISBN: 10 or 13 digits, hyphens allowed.", parse: .isbn)
    static let configuration = CommandConfiguration(
        name: "lookup",
        abstract: "Show what Open Library knows of an ISBN, without adding anything.",
        discussion: OpenLibraryContact.request,
        examples: ["bookclub lookup 978-0-441-01359-3"],
        arguments: [isbn],
        options: [CommonOptions.json])

    var isbn: ISBN
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
        guard let isbn = try arguments[Self.isbn] else { throw ParseError.message("Give the ISBN to look up") }
        self.isbn = isbn
    }

    func run(in session: Session) throws {
        guard let book = try session.openLibrary.lookUp(isbn) else {
            throw CommandFailure("Open Library does not know ISBN \(isbn).")
        }
        if json {
            try session.writeJSON(BookDataJSON(isbn: isbn, book))
        } else {
            for line in BookDataText.lines(isbn: isbn, book, style: session.style) {
                session.output.write(line, as: .data)
            }
        }
    }
}
