import BookClubCore

struct AbandonCommand: Command {
    static let configuration = CommandConfiguration(
        name: "abandon",
        abstract: "Stop reading a book without finishing it; its progress is kept.",
        arguments: [CommonOptions.book],
        options: [CommonOptions.date, CommonOptions.note, CommonOptions.json])

    var ending: EndingRequest

    init(_ arguments: ParsedArguments) throws {
        ending = EndingRequest(outcome: .abandoned, arguments: arguments)
    }

    func run(in env: Environment) throws {
        try ending.run(in: env)
    }
}
