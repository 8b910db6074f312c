import BookClubCore

struct RereadCommand: BookCommand {
    static let configuration = CommandConfiguration(
        name: "reread",
        abstract: "Start a new reading of a finished or abandoned book; the old one keeps its history.",
        examples: ["bookclub reread dune"],
        arguments: [CommonOptions.book],
        options: [CommonOptions.json])

    var target: BookTarget

    func run(in session: Session) throws {
        let (store, book, shellReference) = try session.chooseBook(target.reference, forWriting: true)
        try store.update {
            try $0.reread(at: session.now().wholeSeconds, bookID: book.id, reference: shellReference, ids: session.ids)
        }
        let count = store.state[id: book.id]!.readings.count
        session.output.write("Started reading \(count) of '\(book.title)'.", as: .message)
        if target.json { try session.writeJSON(BookJSON(store.state[id: book.id]!)) }
    }
}
