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
        arguments: [CommonOptions.book],
        options: [
            CommonOptions.date, CommonOptions.note, CommonOptions.rating, CommonOptions.review, CommonOptions.json,
        ])

    var ending: EndingRequest

    init(_ arguments: ParsedArguments) throws {
        ending = EndingRequest(outcome: .finished, arguments: arguments)
    }

    func run(in env: Environment) throws {
        try ending.run(in: env)
    }
}

/// What `finish` and `abandon` share: end the current reading, on a date, with a note.
struct EndingRequest {
    var outcome: Ending.Outcome
    var arguments: ParsedArguments

    func run(in env: Environment) throws {
        let date =
            try arguments.date(CommonOptions.date, now: env.now(), timeZone: env.timeZone) ?? env.now().wholeSeconds
        let store = try env.library(forWriting: true, scope: env.scope(forBook: arguments.argument(CommonOptions.book)))
        let (book, reference) = try env.resolveBook(arguments.argument(CommonOptions.book), in: store.state)
        let rating = try arguments.rating(CommonOptions.rating)
        let review = arguments.note(CommonOptions.review)
        let changed = try store.update {
            try $0.end(
                outcome, date: date, note: arguments.note(CommonOptions.note), rating: rating ?? nil, review: review,
                bookID: book.id,
                reference: reference)
        }
        let title = book.title.terminalSafe
        switch (changed, outcome) {
        case (true, .finished): env.output.write("Finished '\(title)'.", as: .message)
        case (true, .abandoned):
            env.output.write("Abandoned '\(title)' at \(ProgressText.percent(book.currentProgress)).", as: .message)
        case (false, _): env.output.write("'\(title)' is already \(outcome.rawValue); nothing changed.", as: .message)
        }
        if arguments.flag(CommonOptions.json) { try env.writeJSON(BookJSON(store.state[id: book.id]!)) }
    }
}
