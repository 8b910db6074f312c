import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct FinishCommand: Command {
    static let configuration = CommandConfiguration(
        name: "finish",
        abstract: "Mark a book finished (\"I'm Done\").",
        examples: ["bookclub finish dune --rating 4.5 --review \"Worth the sand.\""],
        arguments: [CommonOptions.book],
        options: [
            CommonOptions.date, CommonOptions.note, CommonOptions.rating, CommonOptions.review, CommonOptions.json,
        ])

    var ending: EndingRequest

    init(_ arguments: ParsedArguments) throws {
        ending = try EndingRequest(outcome: .finished, arguments: arguments)
    }

    func run(in session: Session) throws {
        try ending.run(in: session)
    }
}

/// What `finish` and `abandon` share: end the current reading, on a date, with a note.
struct EndingRequest {
    var outcome: Ending.Outcome
    var reference: String?
    var date: Date?
    var note: String?
    /// `.some(nil)`: given empty.
    var rating: Double??
    var review: String?
    var json: Bool

    init(outcome: Ending.Outcome, arguments: ParsedArguments) throws {
        self.outcome = outcome
        reference = try arguments[CommonOptions.book]
        date = try arguments[CommonOptions.date]
        note = try arguments[CommonOptions.note] ?? nil
        rating = try arguments[CommonOptions.rating]
        review = try arguments[CommonOptions.review] ?? nil
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let date = date ?? session.now().wholeSeconds
        let (store, book, reference) = try session.chooseBook(reference, forWriting: true)
        let changed = try store.update {
            try $0.end(
                outcome, date: date, note: note, rating: rating ?? nil, review: review, bookID: book.id,
                reference: reference, ids: session.ids)
        }
        let title = TerminalText(book.title)
        switch (changed, outcome) {
        case (true, .finished): session.output.write("Finished '\(title)'.", as: .message)
        case (true, .abandoned):
            session.output.write("Abandoned '\(title)' at \(ProgressText.percent(book.currentProgress)).", as: .message)
        case (false, _):
            session.output.write("'\(title)' is already \(outcome.rawValue); nothing changed.", as: .message)
        }
        if json { try session.writeJSON(BookJSON(store.state[id: book.id]!)) }
    }
}
