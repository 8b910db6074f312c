import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct HistoryCommand: Command {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "List the recent commands that changed your books or clubs, newest first; undo reverts them.",
        examples: ["bookclub history", "bookclub history --json | jq -r '.[0].command'"],
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        session.noteMissingStore()
        let changes = try session.storage.changes().reversed()
        if json {
            try session.writeJSON(changes.map(ChangeJSON.init))
            return
        }
        guard !changes.isEmpty else {
            session.output.write("No changes recorded yet.", as: .message)
            return
        }
        let rows = changes.map { change -> [TerminalText] in
            ["\(DateText.minute(change.time, timeZone: session.timeZone))", "\(change.command)", "\(change.summary)"]
        }
        for line in Table(rows: rows, flexibleColumn: 1, wrapsLastColumn: true).render(
            width: session.terminal.lineWidth,
            style: { column, text in
                column == 0 ? session.style.dim(text) : text
            })
        {
            session.output.write(line, as: .data)
        }
    }
}
