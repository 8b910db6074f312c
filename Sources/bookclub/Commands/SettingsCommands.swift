import BookClubCore

struct SettingsListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List every setting with its value, default and description.",
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.flag("json")
    }

    struct SettingJSON: Encodable {
        var key: String
        var value: String
        var defaultValue: String
        var description: String
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

struct SettingsGetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "get",
        abstract: "Print the value of a setting.",
        arguments: [ArgumentSpec(name: "key", help: "The setting, e.g. lockTimeout.")],
        options: [CommonOptions.json])

    var key: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        key = arguments.argument("key") ?? ""
        json = arguments.flag("json")
    }

    func run(in env: Environment) throws {
        let key = try Settings.key(named: key)
        let value = key.value(try env.settings().state)
        if json {
            try env.writeJSON(
                SettingsListCommand.SettingJSON(
                    key: key.name, value: value, defaultValue: key.defaultValue, description: key.summary))
        } else {
            env.output.write(value, as: .data)
        }
    }
}

struct SettingsSetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Change a setting.",
        discussion: "Example: bookclub settings set lockTimeout 30",
        arguments: [
            ArgumentSpec(name: "key", help: "The setting, e.g. lockTimeout."),
            ArgumentSpec(name: "value", help: "Its new value."),
        ])

    var key: String
    var value: String

    init(_ arguments: ParsedArguments) throws {
        key = arguments.argument("key") ?? ""
        value = arguments.argument("value") ?? ""
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

struct SettingsResetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "reset",
        abstract: "Put a setting, or every setting, back to its default.",
        arguments: [ArgumentSpec(name: "key", help: "The setting; omitted with --all.", isOptional: true)],
        options: [OptionSpec(long: "all", kind: .flag, help: "Reset every setting.")])

    var key: String?
    var all: Bool

    init(_ arguments: ParsedArguments) throws {
        key = arguments.argument("key")
        all = arguments.flag("all")
        if all, let key { throw ParseError.unexpectedArguments([key]) }
        if !all, key == nil {
            throw ParseError.missingArgument(label: "<key>", help: "The setting; omitted with --all.")
        }
    }

    func run(in env: Environment) throws {
        let keys = try key.map { [try Settings.key(named: $0)] } ?? Settings.keys
        if all {
            // Works on a settings file that cannot be read, too: it is the way to start over.
            try Settings.persistence(path: env.paths.settings, fileSystem: env.fileSystem).save(Settings(), Settings())
            env.output.write("Every setting is back to its default.", as: .message)
            return
        }
        try env.settings().update { settings in
            for key in keys { key.reset(&settings) }
        }
        env.output.write("\(keys[0].name) = \(keys[0].defaultValue)", as: .message)
    }
}
