import BookClubCore

struct SettingsResetCommand: Command {
    static let all = OptionSpec(long: "all", kind: .flag, help: "Reset every setting.")
    static let key = ArgumentSpec(name: "key", help: "The setting; omitted with --all.", isOptional: true)
    static let configuration = CommandConfiguration(
        name: "reset",
        abstract: "Put a setting, or every setting, back to its default.",
        arguments: [key],
        options: [all])

    var key: String?
    var all: Bool

    init(_ arguments: ParsedArguments) throws {
        key = arguments.argument(Self.key)
        all = arguments.flag(Self.all)
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
