import BookClubCore

struct SettingsGetCommand: Command {
    static let key = ArgumentSpec(name: "key", help: "The setting, e.g. lockTimeout.")
    static let configuration = CommandConfiguration(
        name: "get",
        abstract: "Print the value of a setting.",
        arguments: [key],
        options: [CommonOptions.json])

    var key: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        key = arguments.argument(Self.key) ?? ""
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        let key = try Settings.key(named: key)
        let value = key.value(try env.settings().state)
        if json {
            try env.writeJSON(
                SettingJSON(
                    key: key.name, value: value, defaultValue: key.defaultValue, description: key.summary))
        } else {
            env.output.write(value, as: .data)
        }
    }
}
