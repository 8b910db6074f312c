import BookClubCore

struct SettingsListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List every setting with its value, default and description.",
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        let settings = try env.settings().state
        let keys = Settings.keys
        if json {
            try env.writeJSON(
                keys.map {
                    SettingJSON(
                        key: $0.name, value: $0.value(settings), defaultValue: $0.defaultValue, description: $0.summary)
                })
            return
        }
        let rows =
            [["KEY", "VALUE", "DEFAULT", "DESCRIPTION"]]
            + keys.map { [$0.name, $0.value(settings), $0.defaultValue, $0.summary] }
        let lines = Table(rows: rows, wrapsLastColumn: true).render(width: env.terminal.lineWidth) { column, text in
            column == 0 ? env.style.bold(text) : text
        }
        for line in lines { env.output.write(line, as: .data) }
    }
}
