import BookClubCore

struct SettingsSetCommand: Command {
    static let key = ArgumentSpec(name: "key", help: "The setting, e.g. lockTimeout.")
    static let value = ArgumentSpec(name: "value", help: "Its new value.")
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Change a setting.",
        discussion: "Example: bookclub settings set lockTimeout 30",
        arguments: [
            key,
            value,
        ])

    var key: String
    var value: String

    init(_ arguments: ParsedArguments) throws {
        key = arguments.argument(Self.key) ?? ""
        value = arguments.argument(Self.value) ?? ""
    }

    func run(in env: Environment) throws {
        let key = try Settings.key(named: key)
        // The settings are edited through a binding, as a view edits an @AppStorage value.
        let settings = try env.settings().binding(\.self)
        var edited = settings.wrappedValue
        do {
            try key.set(&edited, value)
        } catch BookClubError.invalidSetting(_, _, let expected) {
            throw ParseError.invalidValue(value: value, label: "<value>", reason: "\(key.name) takes \(expected)")
        }
        settings.wrappedValue = edited
        env.output.write("\(key.name) = \(key.value(edited))", as: .message)
    }
}
