import BookClubCore

/// `bookclub settings …`: the settings file, apart from the books.
enum SettingsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "settings",
        abstract: "Read and change settings.",
        discussion: "Settings live in their own file, apart from your books: see `bookclub settings list`.",
        examples: ["bookclub settings list", "bookclub settings set yearlyGoal 24"])
    static let subcommands: [any Command.Type] = [
        SettingsListCommand.self, SettingsGetCommand.self, SettingsSetCommand.self, SettingsResetCommand.self,
    ]
}

extension CompletionValues {
    /// The setting keys, for the `<key>` of `settings get`, `set` and `reset`.
    static var settingKeys: CompletionValues { .choices(Settings.keys.map(\.name)) }
}
