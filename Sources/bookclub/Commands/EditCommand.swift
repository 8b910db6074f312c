import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct EditCommand: Command {
    static let title = OptionSpec(long: "title", kind: .value("title"), help: "A new title.")
    static let author = OptionSpec(long: "author", short: "a", kind: .value("author"), help: "A new author.")
    static let pages = OptionSpec(long: "pages", short: "p", kind: .value("pages"), help: "A new page count.")
    static let isbn = OptionSpec(long: "isbn", kind: .value("isbn"), help: "A new ISBN.")
    static let cover = OptionSpec(long: "cover", kind: .value("name"), help: "A new cover image name.")
    static let addTag = OptionSpec(
        long: "add-tag", kind: .repeatingValue("tag"), help: "A tag to add; repeat for more.")
    static let removeTag = OptionSpec(
        long: "remove-tag", kind: .repeatingValue("tag"), help: "A tag to remove; repeat for more.")
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Change a book's title, author, page count, ISBN, cover, tags, rating or review.",
        discussion: "An empty value clears an optional field: bookclub edit dune --isbn \"\"",
        arguments: [CommonOptions.book],
        options: [
            title,
            author,
            pages,
            isbn,
            cover,
            addTag,
            removeTag,
            CommonOptions.rating, CommonOptions.review,
            CommonOptions.json,
        ])

    var reference: String?
    var arguments: ParsedArguments
    var pages: Int?
    var clearsPages: Bool
    /// `.some(nil)`: cleared.
    var rating: Double??
    var review: String??

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument(CommonOptions.book)
        self.arguments = arguments
        let fields = [
            Self.title, Self.author, Self.pages, Self.isbn, Self.cover, Self.addTag, Self.removeTag,
            CommonOptions.rating,
            CommonOptions.review,
        ]
        guard fields.contains(where: { !arguments.values($0).isEmpty }) else {
            throw ParseError.message(
                "Nothing to change: give at least one of " + fields.map(\.longName).joined(separator: ", "))
        }
        if let title = arguments.value(Self.title), title.nonBlank == nil {
            throw ParseError.invalidValue(value: title, label: "--title <title>", reason: "a title cannot be empty")
        }
        clearsPages = arguments.value(Self.pages) == ""
        pages = clearsPages ? nil : try arguments.integer(Self.pages, in: Library.pageCounts)
        rating = try arguments.rating(CommonOptions.rating)
        review = arguments.value(CommonOptions.review).map { $0.trimmed.isEmpty ? nil : $0.trimmed }
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        let id = try env.resolveBook(reference, in: store.state).book.id
        // Each write through the binding is an update the observers hear; the command still saves once.
        let book = store.binding(\.books[store.state.index(of: id)!])
        if let title = arguments.value(Self.title).flatMap(\.nonBlank) { book.title.wrappedValue = title }
        if let author = arguments.value(Self.author) { book.author.wrappedValue = author.nonBlank }
        if let pages {
            if let page = book.wrappedValue.currentReading?.progress.latest?.page, page > pages {
                throw CommandFailure(
                    "'\(book.wrappedValue.title.terminalSafe)' has an entry at p. \(page); a page count of \(pages) would put it past the end."
                )
            }
            book.pages.wrappedValue = pages
        }
        if clearsPages { book.pages.wrappedValue = nil }
        if let isbn = arguments.value(Self.isbn) { book.isbn.wrappedValue = isbn.nonBlank }
        if let cover = arguments.value(Self.cover) { book.coverName.wrappedValue = cover.nonBlank }
        let removed = Set(arguments.values(Self.removeTag).map { $0.lowercased() })
        book.tags.wrappedValue = Book.tags(book.tags.wrappedValue + arguments.values(Self.addTag))
            .filter { !removed.contains($0.lowercased()) }
        if rating != nil || review != nil {
            try store.update { try $0.rate(bookID: id, rating: rating, review: review, reference: reference ?? id) }
        }
        let edited = store.state[id: id]!
        try store.state.checkUnique(title: edited.title, author: edited.author, except: id)
        env.output.write(
            store.hasUnsavedChanges ? "Updated '\(edited.title.terminalSafe)'." : "Nothing changed.", as: .message)
        if arguments.flag(CommonOptions.json) { try env.writeJSON(BookJSON(edited)) }
    }
}
