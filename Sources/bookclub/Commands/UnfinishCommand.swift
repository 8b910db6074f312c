import BookClubCore

struct UnfinishCommand: Command {
    static let configuration = CommandConfiguration(
        name: "unfinish",
        abstract: "Resume a finished or abandoned book, so that you can log progress again.",
        arguments: [CommonOptions.book],
        options: [CommonOptions.json])

    var target: BookTarget

    init(_ arguments: ParsedArguments) throws {
        target = BookTarget(arguments)
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true, scope: env.scope(forBook: target.reference))
        let (book, shellReference) = try env.resolveBook(target.reference, in: store.state)
        let outcome = try store.update {
            try $0.resume(bookID: book.id, at: env.now().wholeSeconds, reference: shellReference)
        }
        env.output.write("'\(book.title.terminalSafe)' is no longer \(outcome.rawValue).", as: .message)
        if target.json { try env.writeJSON(BookJSON(store.state[id: book.id]!)) }
    }
}
