/// `bookclub settings …`: the settings file, apart from the books.
enum SettingsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "settings",
        abstract: "Read and change settings.",
        discussion: "Settings live in their own file, apart from your books: see `bookclub settings list`.")
    static let subcommands: [any Command.Type] = [
        SettingsListCommand.self, SettingsGetCommand.self, SettingsSetCommand.self, SettingsResetCommand.self,
    ]
}
