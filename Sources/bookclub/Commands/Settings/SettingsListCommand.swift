import BookClubCore

struct SettingsListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List every setting with its value, default and description.",
        examples: ["bookclub settings list"],
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let settings = try session.settings().state
        let keys = Settings.keys
        if json {
            try session.writeJSON(keys.map { SettingJSON($0, in: settings) })
            return
        }
        let rows: [[TerminalText]] =
            [["KEY", "VALUE", "DEFAULT", "DESCRIPTION"]]
            + keys.map { ["\($0.name)", "\($0.value(settings))", "\($0.defaultValue)", "\($0.summary)"] }
        let lines = Table(rows: rows, wrapsLastColumn: true).render(width: session.terminal.lineWidth) { column, text in
            column == 0 ? session.style.bold(text) : text
        }
        for line in lines { session.output.write(line, as: .data) }
    }
}
