import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct CoverCommand: Command {
    static let path = Flag(long: "path", help: "Print the cover's file path, even on a terminal that draws images.")
    static let configuration = CommandConfiguration(
        name: "cover",
        abstract: "Show a book's cover, fetched from Open Library by its ISBN the first time.",
        discussion: """
            Drawn in iTerm2, WezTerm, VS Code and mintty, and in kitty with `kitten icat`; elsewhere, and in
            a pipe, the path of the cached file is printed.
            """,
        examples: ["bookclub cover dune", "bookclub cover dune --path"],
        arguments: [CommonOptions.book],
        options: [path, CommonOptions.json])

    var reference: String?
    var printsPath: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[CommonOptions.book]
        printsPath = arguments[Self.path]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let (_, book, shown) = try session.chooseBook(reference)
        let cache = session.openLibrary.cache
        var name = book.coverName.flatMap { name in
            cache.coverPath(ofName: name).flatMap { (try? session.fileSystem.size($0)) ?? nil } != nil ? name : nil
        }
        if name == nil, let isbn = book.isbn.flatMap(ISBN.init) {
            name = try session.openLibrary.cover(for: isbn)
            // The book points at its cover from now on.
            if let name, book.coverName == nil {
                let store = try session.library(forWriting: true)
                let id = try BookChoice(reference, in: session).choose(in: store.state).book.id
                try store.update {
                    try $0.edit(bookID: id, BookEdit(coverName: .some(name)), reference: reference ?? id)
                }
            }
        }
        guard let name, let path = cache.coverPath(ofName: name) else {
            throw CommandFailure(
                book.isbn.flatMap(ISBN.init) == nil
                    ? "'\(book.title)' has no ISBN to find its cover by; give one with `bookclub edit \(shown) --isbn ISBN`."
                    : "Open Library has no cover for '\(book.title)'.")
        }
        if json { return try session.writeJSON(CoverJSON(book: book.id, path: path)) }
        let way =
            printsPath || !session.terminal.standardOutputIsTerminal
            ? .path : CoverImage.way(session.variables, runner: session.runner)
        switch way {
        case .path:
            session.output.write(TerminalText(path), as: .data)
        case .inline:
            guard let image = try session.fileSystem.read(path) else {
                throw BookClubError.io(path: path, cause: "gone")
            }
            session.output.write(CoverImage.inline(image, name: name), as: .data)
        case .kitten(let program):
            session.flushOutput()
            guard CoverImage.run(program, ["icat", path], environment: session.variables, runner: session.runner) else {
                return session.output.write(TerminalText(path), as: .data)
            }
        }
    }
}
