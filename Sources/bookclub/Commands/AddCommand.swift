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
    static let isbn = Option(
        long: "isbn", kind: .value("isbn"),
        help: "Its ISBN: Open Library fills in what you leave out (the title too) and its cover.", parse: .isbn)
    static let cover = Option(long: "cover", kind: .value("name"), help: "The name of a cover image.")
    static let tag = Option(long: "tag", short: "t", kind: .repeatingValue("tag"), help: "A tag; repeat for more.")
    static let format = Option(
        long: "format", kind: .value("format"), help: "How you read it: print, ebook or audiobook.",
        allowedValues: Book.Format.allCases.map(\.rawValue), parse: .format)
    static let audio = Flag(long: "audio", help: "An audiobook: the same as --format audiobook.")
    static let length = Option(
        long: "length", kind: .value("time"), help: "An audiobook's length: 11:40, 11h40m.", parse: .length)
    static let title = Argument(name: "title", help: "The book's title; may be left out with --isbn.", isOptional: true)
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add a book and print its id.",
        discussion: """
            """,
        examples: [
            "bookclub add \"Dune\" --author \"Frank Herbert\" --pages 412 --tag sf",
            "bookclub add --isbn 9780441013593",
            "bookclub add \"Project Hail Mary\" --author \"Andy Weir\" --audio --length 16:10",
        ],
        arguments: [title],
        options: [
            author,
            pages,
            isbn,
            cover,
            tag,
            format,
            audio,
            length,
            CommonOptions.json,
        ])

    /// `nil`: Open Library's, by the ISBN.
    var title: String?
    var author: String?
    var pages: Int?
    var isbn: ISBN?
    var cover: String?
    var tags: [String]
    var format: Book.Format?
    var length: Int?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        title = try arguments[Self.title]?.trimmed
        isbn = try arguments[Self.isbn]
        author = try arguments[Self.author].flatMap(\.nonBlank)
        pages = try arguments[Self.pages]
        cover = try arguments[Self.cover].flatMap(\.nonBlank)
        tags = Book.tags(try arguments[every: Self.tag])
        json = arguments[CommonOptions.json]
        (format, length) = try Self.formatAndLength(arguments)
        if let title, title.isEmpty {
            throw ParseError.invalidValue(value: title, label: "<title>", reason: "a title cannot be empty")
        }
        guard title != nil || isbn != nil else {
            throw ParseError.missingArgument(label: "<title>", help: Self.title.spec.help)
        }
    }

    func run(in session: Session) throws {
        var book = Book(
            id: session.makeID(), title: title ?? "", author: author, pages: pages, isbn: isbn?.digits,
            coverName: cover, tags: tags, format: format, length: length, added: session.now().wholeSeconds)
        if let isbn { try fill(&book, isbn: isbn, in: session) }
        let store = try session.library(forWriting: true)
        try store.state.checkUnique(title: book.title, author: book.author)
        store.update { $0.addBook(book) }
        if json {
            try session.writeJSON(BookJSON(book))
        } else {
            session.output.write(TerminalText(book.id), as: .data)
        }
        session.output.write("Added '\(book.title)'\(book.author.map { " by " + $0 } ?? "").", as: .message)
    }

    /// What Open Library knows fills what the command line left out, and the cover is fetched, before
    /// the store is locked. Without a title the look-up must succeed; with one, a failure is a warning,
    /// as a cover that cannot be had always is.
    private func fill(_ book: inout Book, isbn: ISBN, in session: Session) throws {
        let allowed = try session.settings().state.updateArtwork
        guard title == nil || allowed else { return }
        var unreachable = false
        func warn(_ error: any Error) throws {
            guard let error = error as? BookClubError, error.kind == .unavailable else { throw error }
            unreachable = !error.isBadAnswer
            session.output.write(
                "Open Library, about ISBN \(isbn): \(error.message(in: session.timeZone))", as: .warning)
        }
        if title == nil || author == nil || pages == nil {
            do {
                guard let data = try session.openLibrary.lookUp(isbn) else {
                    let message = "Open Library does not know ISBN \(isbn)"
                    guard title != nil else {
                        throw CommandFailure(message + "; give the title: bookclub add TITLE --isbn \(isbn)")
                    }
                    return session.output.write("\(message).", as: .warning)
                }
                let filled = book.fill(from: data)
                if !filled.isEmpty {
                    session.output.write("From Open Library: \(filled.joined(separator: ", ")).", as: .message)
                }
            } catch  where title != nil {
                try warn(error)
            }
        }
        if cover == nil && !unreachable {
            do { book.coverName = try session.openLibrary.cover(for: isbn) } catch { try warn(error) }
        }
    }

    /// `--format`, `--audio` and `--length`, as `add` and `reread` take them: a length makes an
    /// audiobook, and goes with no other format.
    static func formatAndLength(_ arguments: ParsedArguments) throws -> (Book.Format?, Int?) {
        var format = try arguments[Self.format]
        let length = try arguments[Self.length]
        if arguments[Self.audio] {
            guard format == nil || format == .audiobook else {
                throw ParseError.exclusiveFlags(duplicate: "--audio", previous: "--format")
            }
            format = .audiobook
        }
        if length != nil && format == nil { format = .audiobook }
        if length != nil && format != .audiobook {
            throw ParseError.message("--length is an audiobook's: give --audio (or leave --format out)")
        }
        return (format, length)
    }
}
