import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ShowCommand: BookCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a book's card and its progress history with notes.",
        examples: ["bookclub show dune", "bookclub show \"left hand\" --json"],
        arguments: [CommonOptions.book],
        options: [CommonOptions.json])

    var target: BookTarget

    func run(in session: Session) throws {
        let book = try session.compute(ShowBook(book: BookChoice(target.reference, in: session))).result
        if target.json {
            try session.writeJSON(BookJSON(book, withHistory: true))
            return
        }
        for line in BookCard.lines(
            book, style: session.style, timeZone: session.timeZone, width: session.terminal.lineWidth)
        {
            session.output.write(line, as: .data)
        }
    }
}
