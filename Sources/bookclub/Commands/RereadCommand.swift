import BookClubCore

struct RereadCommand: Command {
    static let configuration = CommandConfiguration(
        name: "reread",
        abstract: "Start a new reading of a finished or abandoned book; the old one keeps its history.",
        discussion: """
            A re-read may be in another format: --audio (or --format) says so for this reading alone, \
            and --length gives the audiobook's length when the book has none.
            """,
        examples: ["bookclub reread dune", "bookclub reread dune --audio --length 21:02"],
        arguments: [CommonOptions.book],
        options: [AddCommand.format, AddCommand.audio, AddCommand.length, CommonOptions.json])

    var target: BookTarget
    var format: Book.Format?
    var length: Int?

    init(_ arguments: ParsedArguments) throws {
        target = try BookTarget(arguments)
        (format, length) = try AddCommand.formatAndLength(arguments)
    }

    func run(in session: Session) throws {
        let (store, book, shellReference) = try session.chooseBook(target.reference, forWriting: true)
        try store.update {
            try $0.reread(
                at: session.now().wholeSeconds, bookID: book.id, reference: shellReference, ids: session.ids,
                format: format, length: length)
        }
        let count = store.state[id: book.id]!.readings.count
        let on = format == .audiobook ? " on audio" : format == .ebook ? " as an e-book" : ""
        session.output.write("Started reading \(count) of '\(book.title)'\(on).", as: .message)
        if target.json { try session.writeJSON(BookJSON(store.state[id: book.id]!)) }
    }
}
