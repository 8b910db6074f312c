import BookClubCore

struct AbandonCommand: Command {
    static let configuration = CommandConfiguration(
        name: "abandon",
        abstract: "Stop reading a book without finishing it; its progress is kept.",
        examples: ["bookclub abandon ulysses --note \"another year\""],
        arguments: [CommonOptions.book],
        options: [CommonOptions.date, CommonOptions.note, CommonOptions.json])

    var ending: EndingRequest

    init(_ arguments: ParsedArguments) throws {
        ending = try EndingRequest(outcome: .abandoned, arguments: arguments)
    }

    func run(in session: Session) throws {
        try ending.run(in: session)
    }
}
