import BookClubCore

struct SettingsGetCommand: Command {
    static let key = Argument(name: "key", help: "The setting, e.g. lockTimeout.", completion: .settingKeys)
    static let configuration = CommandConfiguration(
        name: "get",
        abstract: "Print the value of a setting.",
        examples: ["bookclub settings get lockTimeout"],
        arguments: [key],
        options: [CommonOptions.json])

    var key: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        key = try arguments[Self.key] ?? ""
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let key = try Settings.key(named: key)
        let settings = try session.settings().state
        if json {
            try session.writeJSON(SettingJSON(key, in: settings))
        } else {
            session.output.write(TerminalText(key.value(settings)), as: .data)
        }
    }
}
