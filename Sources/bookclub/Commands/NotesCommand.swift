import BookClubCore
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct NotesCommand: Command {
    static let configuration = CommandConfiguration(
        name: "notes",
        abstract: "Print the notes of a book's current reading as Markdown, for the next meeting.",
        discussion: "Example: bookclub notes dune > dune-notes.md",
        arguments: [CommonOptions.book],
        options: [CommonOptions.json])

    var target: BookTarget

    init(_ arguments: ParsedArguments) throws {
        target = BookTarget(arguments)
    }

    struct NotesJSON: Encodable {
        struct Note: Encodable {
            var place: String
            var time: Date
            var text: String
        }

        var id: String
        var title: String
        var notes: [Note]
    }

    func run(in env: Environment) throws {
        let store = try env.library()
        let id = try env.resolveBook(target.reference, in: store.state).book.id
        try store.loadHistory(of: [id], from: env.storage)
        let book = store.state[id: id]!
        if target.json {
            let notes = NotesReport.notes(of: book).map { NotesJSON.Note(place: $0.place, time: $0.time, text: $0.text) }
            try env.writeJSON(NotesJSON(id: book.id, title: book.title, notes: notes))
        } else {
            let markdown = NotesReport.markdown(for: book, timeZone: env.timeZone)
            env.output.write(String(markdown.dropLast()).terminalSafeKeepingNewlines, as: .data)
        }
    }
}
