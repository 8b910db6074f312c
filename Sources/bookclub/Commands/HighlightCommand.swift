import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct HighlightCommand: Command {
    static let text = Argument(name: "text", help: "The passage, as printed. Required.", isOptional: true)
    static let page = Option(
        long: "page", short: "p", kind: .value("page"), help: "The page it is on.",
        parse: .integer(in: 0...Library.pageCounts.upperBound))
    static let configuration = CommandConfiguration(
        name: "highlight",
        abstract: "Keep a passage you marked, for the next meeting.",
        discussion: """
            For a paper book: e-readers' highlights come in with `bookclub import kindle` and \
            `bookclub import koreader`. A highlight belongs to the book's latest reading; a book not \
            started yet starts one.
            """,
        examples: ["bookclub highlight dune \"Fear is the mind-killer.\" --page 8"],
        arguments: [CommonOptions.book, text],
        options: [page, CommonOptions.note, CommonOptions.date, CommonOptions.json])

    var reference: String?
    var text: String
    var page: Int?
    var note: String?
    var date: Date?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
        page = try arguments[Self.page]
        note = try arguments[CommonOptions.note] ?? nil
        date = try arguments[CommonOptions.date]
        reference = try arguments[CommonOptions.book]
        var given = try arguments[Self.text]
        // One argument is the passage, of the selected book.
        if given == nil { (given, reference) = (reference, nil) }
        guard let passage = given?.trimmed, !passage.isEmpty else {
            throw ParseError.missingArgument(label: "<text>", help: "The passage, as printed. Required.")
        }
        text = passage
    }

    func run(in session: Session) throws {
        let (store, book, shellReference) = try session.chooseBook(reference, forWriting: true)
        let highlight = Highlight(
            id: session.ids.uuid().uuidString, text: text, note: note, page: page,
            time: date ?? session.now().wholeSeconds, source: .typed)
        try store.update {
            try $0.addHighlights([highlight], bookID: book.id, reference: shellReference, ids: session.ids)
        }
        let count = store.state[id: book.id]!.currentReading?.highlights?.count ?? 0
        session.output.write(
            "'\(book.title)': highlight \(count) kept"
                + (highlight.place.map { " (\($0))" } ?? "") + ".", as: .message)
        if json { try session.writeJSON(highlight) }
    }
}
