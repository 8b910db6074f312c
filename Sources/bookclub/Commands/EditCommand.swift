import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct EditCommand: Command {
    static let title = Option(long: "title", kind: .value("title"), help: "A new title.")
    static let author = Option(long: "author", short: "a", kind: .value("author"), help: "A new author.")
    static let pages = Option(
        long: "pages", short: "p", kind: .value("pages"), help: "A new page count.",
        parse: ValueParser<Int>.integer(in: Library.pageCounts).clearable)
    static let isbn = Option(long: "isbn", kind: .value("isbn"), help: "A new ISBN.")
    static let cover = Option(long: "cover", kind: .value("name"), help: "A new cover image name.")
    static let addTag = Option(
        long: "add-tag", kind: .repeatingValue("tag"), help: "A tag to add; repeat for more.")
    static let removeTag = Option(
        long: "remove-tag", kind: .repeatingValue("tag"), help: "A tag to remove; repeat for more.")
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Change a book's title, author, page count, ISBN, cover, tags, rating or review.",
        discussion: "An empty value clears an optional field: bookclub edit dune --isbn \"\"",
        arguments: [CommonOptions.book],
        options: [
            Self.title,
            Self.author,
            Self.pages,
            Self.isbn,
            Self.cover,
            Self.addTag,
            Self.removeTag,
            CommonOptions.rating, CommonOptions.review,
            CommonOptions.json,
        ])

    var reference: String?
    var edit: BookEdit
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[CommonOptions.book]
        edit = try BookEdit(
            title: arguments[Self.title], author: arguments[Self.author].map(\.nonBlank), pages: arguments[Self.pages],
            isbn: arguments[Self.isbn].map(\.nonBlank), coverName: arguments[Self.cover].map(\.nonBlank),
            addTags: arguments[every: Self.addTag], removeTags: arguments[every: Self.removeTag],
            rating: arguments[CommonOptions.rating], review: arguments[CommonOptions.review])
        json = arguments[CommonOptions.json]
        let fields: [any OptionDeclaration] = [
            Self.title, Self.author, Self.pages, Self.isbn, Self.cover, Self.addTag, Self.removeTag,
            CommonOptions.rating, CommonOptions.review,
        ]
        guard fields.contains(where: { arguments.wasGiven($0) }) else {
            throw ParseError.message(
                "Nothing to change: give at least one of " + fields.map(\.spec.longName).joined(separator: ", "))
        }
        if let title = edit.title, title.nonBlank == nil {
            throw ParseError.invalidValue(value: title, label: "--title <title>", reason: "a title cannot be empty")
        }
    }

    func run(in session: Session) throws {
        let store = try session.library(forWriting: true)
        let id = try session.resolveBook(reference, in: store.state).book.id
        try store.update { try $0.edit(bookID: id, edit, reference: reference ?? id) }
        let edited = store.state[id: id]!
        session.output.write(
            store.hasUnsavedChanges ? "Updated '\(edited.title.terminalSafe)'." : "Nothing changed.", as: .message)
        if json { try session.writeJSON(BookJSON(edited)) }
    }
}
