import BookClubCore

struct RereadCommand: Command {
    static let configuration = CommandConfiguration(
        name: "reread",
        abstract: "Start a new reading of a finished or abandoned book; the old one keeps its history.",
        arguments: [CommonOptions.book],
        options: [CommonOptions.json])

    var target: BookTarget

    init(_ arguments: ParsedArguments) throws {
        target = BookTarget(arguments)
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true, scope: env.scope(forBook: target.reference))
        let (book, shellReference) = try env.resolveBook(target.reference, in: store.state)
        try store.update { try $0.reread(at: env.now().wholeSeconds, bookID: book.id, reference: shellReference) }
        let count = store.state[id: book.id]!.readings.count
        env.output.write("Started reading \(count) of '\(book.title.terminalSafe)'.", as: .message)
        if target.json { try env.writeJSON(BookJSON(store.state[id: book.id]!)) }
    }
}
