import BookClubCore

struct SettingsSetCommand: Command {
    static let key = Argument(name: "key", help: "The setting, e.g. lockTimeout.", completion: .settingKeys)
    static let value = Argument(
        name: "value", help: "Its new value.",
        completion: .choicesAfter(
            Dictionary(uniqueKeysWithValues: Settings.keys.compactMap { key in key.choices.map { (key.name, $0) } })))
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Change a setting.",
        examples: ["bookclub settings set lockTimeout 30", "bookclub settings set yearlyGoal 24"],
        arguments: [
            key,
            value,
        ],
        options: [CommonOptions.json])

    var key: String
    var value: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        key = try arguments[Self.key] ?? ""
        value = try arguments[Self.value] ?? ""
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let key = try Settings.key(named: key)
        // The settings are edited through a binding, as a view edits an @AppStorage value.
        let settings = try session.settings().binding(\.self)
        var edited = settings.wrappedValue
        do {
            try key.set(&edited, value)
        } catch BookClubError.invalidSetting(_, _, let expected) {
            throw ParseError.invalidValue(value: value, label: "<value>", reason: "\(key.name) takes \(expected)")
        }
        settings.wrappedValue = edited
        if json { try session.writeJSON(SettingJSON(key, in: edited)) }
        session.output.write("\(key.name) = \(key.value(edited))", as: .message)
    }
}
