import BookClubCore

struct UnfinishCommand: BookCommand {
    static let configuration = CommandConfiguration(
        name: "unfinish",
        abstract: "Resume a finished or abandoned book, so that you can log progress again.",
        examples: ["bookclub unfinish dune"],
        arguments: [CommonOptions.book],
        options: [CommonOptions.json])

    var target: BookTarget

    func run(in session: Session) throws {
        let (store, book, shellReference) = try session.chooseBook(target.reference, forWriting: true)
        let outcome = try store.update {
            try $0.resume(bookID: book.id, at: session.now().wholeSeconds, reference: shellReference)
        }
        session.output.write("'\(book.title)' is no longer \(outcome.rawValue).", as: .message)
        if target.json { try session.writeJSON(BookJSON(store.state[id: book.id]!)) }
    }
}
