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
    static let isbn = Option(
        long: "isbn", kind: .value("isbn"), help: "A new ISBN.", parse: ValueParser<ISBN>.isbn.clearable)
    static let refresh = Flag(
        long: "refresh", help: "Ask Open Library again about the book's ISBN and fill its empty fields and cover.")
    static let replace = Flag(
        long: "replace", help: "With --refresh: Open Library's title, author and pages replace yours.")
    static let cover = Option(long: "cover", kind: .value("name"), help: "A new cover image name.")
    static let format = Option(
        long: "format", kind: .value("format"), help: "How you read it: print, ebook or audiobook.",
        allowedValues: Book.Format.allCases.map(\.rawValue), parse: ValueParser<Book.Format>.format.clearable)
    static let length = Option(
        long: "length", kind: .value("time"), help: "An audiobook's length: 11:40, 11h40m.",
        parse: ValueParser<Int>.length.clearable)
    static let addTag = Option(
        long: "add-tag", kind: .repeatingValue("tag"), help: "A tag to add; repeat for more.")
    static let removeTag = Option(
        long: "remove-tag", kind: .repeatingValue("tag"), help: "A tag to remove; repeat for more.")
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Change a book's title, author, page count, ISBN, format, cover, tags, rating or review.",
        discussion: """
            An empty value clears an optional field: bookclub edit dune --isbn ""
            Fill what is missing from Open Library: bookclub edit dune --refresh
            """,
        examples: ["bookclub edit dune --pages 412 --add-tag favourite", "bookclub edit dune --refresh"],
        arguments: [CommonOptions.book],
        options: [
            Self.title,
            Self.author,
            Self.pages,
            Self.isbn,
            Self.cover,
            Self.format,
            Self.length,
            Self.addTag,
            Self.removeTag,
            CommonOptions.rating, CommonOptions.review,
            Self.refresh,
            Self.replace,
            CommonOptions.json,
        ])

    var reference: String?
    var edit: BookEdit
    var refresh: Bool
    var replace: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[CommonOptions.book]
        edit = try BookEdit(
            title: arguments[Self.title], author: arguments[Self.author].map(\.nonBlank), pages: arguments[Self.pages],
            isbn: arguments[Self.isbn].map { $0?.digits }, coverName: arguments[Self.cover].map(\.nonBlank),
            addTags: arguments[every: Self.addTag], removeTags: arguments[every: Self.removeTag],
            rating: arguments[CommonOptions.rating], review: arguments[CommonOptions.review],
            format: arguments[Self.format], length: arguments[Self.length])
        json = arguments[CommonOptions.json]
        refresh = arguments[Self.refresh]
        replace = arguments[Self.replace]
        if replace && !refresh { throw ParseError.message("--replace goes with --refresh") }
        let fields: [any OptionDeclaration] = [
            Self.title, Self.author, Self.pages, Self.isbn, Self.cover, Self.format, Self.length, Self.addTag,
            Self.removeTag,
            CommonOptions.rating, CommonOptions.review, Self.refresh,
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
        // Open Library is asked before the store is locked.
        let fetched = refresh ? try fetch(in: session) : nil
        let store = try session.library(forWriting: true)
        let id = try BookChoice(reference, in: session).choose(in: store.state).book.id
        try store.update { try $0.edit(bookID: id, edit, reference: reference ?? id) }
        if let fetched {
            let filled = try store.update { library in
                try library.fill(bookID: id, from: fetched.data, replacing: replace, reference: reference ?? id)
            }
            if let cover = fetched.cover, store.state[id: id]?.coverName != cover {
                try store.update {
                    try $0.edit(bookID: id, BookEdit(coverName: .some(cover)), reference: reference ?? id)
                }
            }
            if !filled.isEmpty {
                session.output.write("From Open Library: \(filled.joined(separator: ", ")).", as: .message)
            }
        }
        let edited = store.state[id: id]!
        session.output.write(
            store.hasUnsavedChanges ? "Updated '\(edited.title)'." : "Nothing changed.", as: .message)
        if json { try session.writeJSON(BookJSON(edited)) }
    }

    /// What Open Library knows of the book's ISBN (the one this edit gives, else its own), asked
    /// again, and its cover when the book has none (or with `--replace`).
    private func fetch(in session: Session) throws -> (data: BookData, cover: String?) {
        let book = try session.chooseBook(reference).book
        let text: String? = edit.isbn ?? book.isbn
        guard let isbn = text.flatMap(ISBN.init) else {
            throw CommandFailure("'\(book.title)' has no ISBN to look up; give one with --isbn.")
        }
        guard let data = try session.openLibrary.lookUp(isbn, refresh: true) else {
            throw CommandFailure("Open Library does not know ISBN \(isbn).")
        }
        let cover = book.coverName == nil || replace ? try session.openLibrary.cover(for: isbn) : nil
        return (data, cover)
    }
}
