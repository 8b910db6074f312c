import BookClubCore

struct SettingsResetCommand: Command {
    static let all = Flag(long: "all", help: "Reset every setting.")
    static let key = Argument(
        name: "key", help: "The setting; omitted with --all.", isOptional: true, completion: .settingKeys)
    static let configuration = CommandConfiguration(
        name: "reset",
        abstract: "Put a setting, or every setting, back to its default.",
        examples: ["bookclub settings reset lockTimeout", "bookclub settings reset --all"],
        arguments: [key],
        options: [all, CommonOptions.json])

    var key: String?
    var all: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        key = try arguments[Self.key]
        all = arguments[Self.all]
        json = arguments[CommonOptions.json]
        if all, let key { throw ParseError.unexpectedArguments([key]) }
        if !all, key == nil {
            throw ParseError.missingArgument(label: "<key>", help: "The setting; omitted with --all.")
        }
    }

    func run(in session: Session) throws {
        let keys = try key.map { [try Settings.key(named: $0)] } ?? Settings.keys
        if all {
            // Works on a settings file that cannot be read, too: it is the way to start over.
            try Settings.persistence(path: session.paths.settings, fileSystem: session.fileSystem).save(
                Settings(), Settings())
            if json { try session.writeJSON(keys.map { SettingJSON($0, in: Settings()) }) }
            session.output.write("Every setting is back to its default.", as: .message)
            return
        }
        try session.settings().update { settings in
            for key in keys { key.reset(&settings) }
        }
        if json { try session.writeJSON(SettingJSON(keys[0], in: try session.settings().state)) }
        session.output.write("\(keys[0].name) = \(keys[0].defaultValue)", as: .message)
    }
}
