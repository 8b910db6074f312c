import BookClubCore

/// The command tree: the commands, their groups and the global options, and the root configuration
/// that the parser, the help, the manual and the completions read.
extension CLI {
    /// The commands below `bookclub`, in the order of the help: the runnable ones, then the groups.
    static let topLevel: [any Command.Type] = [
        AddCommand.self, ListCommand.self, ShowCommand.self, ProgressCommand.self, HighlightCommand.self,
        FinishCommand.self,
        UnfinishCommand.self, AbandonCommand.self, RereadCommand.self, EditCommand.self, RemoveCommand.self,
        NotesCommand.self, SelectCommand.self, UndoCommand.self, HistoryCommand.self, DoctorCommand.self,
        AgendaCommand.self, ExportCommand.self, LogCommand.self, ImportCommand.self, StatsCommand.self,
        LookupCommand.self, CoverCommand.self, CoversCommand.self, SyncCommand.self, CompletionsCommand.self,
        ManualCommand.self,
    ]
    static let groups: [any CommandGroup.Type] = [ClubCommand.self, SettingsCommand.self]

    /// Every runnable command, by its path below `bookclub` ("add", "club rename").
    static var commands: [(path: String, type: any Command.Type)] {
        topLevel.map { ($0.configuration.name, $0) }
            + groups.flatMap { group in
                group.subcommands.map { ("\(group.configuration.name) \($0.configuration.name)", $0) }
            }
    }

    /// The runnable command at `names` below `bookclub` (`["add"]`, `["club", "rename"]`), found without
    /// making the configuration of every command.
    static func command(at names: [String]) -> (any Command.Type)? {
        switch names.count {
        case 1: return topLevel.first { $0.configuration.name == names[0] }
        case 2:
            let group = groups.first { $0.configuration.name == names[0] }
            return group?.subcommands.first { $0.configuration.name == names[1] }
        default: return nil
        }
    }

    static let store = Option(
        long: "store", kind: .value("path"),
        help: "The store file (default: $BOOKCLUB_STORE, else $XDG_DATA_HOME/bookclub/store.json).",
        isInherited: true, parse: .path)
    static let settings = Option(
        long: "settings", kind: .value("path"),
        help: "The settings file (default: $BOOKCLUB_SETTINGS, else $XDG_CONFIG_HOME/bookclub/settings.json).",
        isInherited: true, parse: .path)
    static let quiet = Flag(
        long: "quiet", short: "q", help: "Print only data and errors.", isInherited: true)
    static let color = Option<ColorMode>(
        long: "color", kind: .value("when"), help: "When to colour output.",
        allowedValues: ColorMode.allCases.map(\.rawValue), defaultValue: "auto", isInherited: true,
        parse: .choice)
    static let noColor = Flag(
        long: "no-color", help: "Never colour output (as --color never).", isInherited: true)
    static let noHooks = Flag(
        long: "no-hooks", help: "Run no hooks for this command (as BOOKCLUB_NO_HOOKS=1).",
        isInherited: true)
    static let noPager = Flag(
        long: "no-pager", help: "Print output taller than the terminal as it is, not through a pager.",
        isInherited: true)
    static let globalOptions: [any OptionDeclaration] = [store, settings, quiet, color, noColor, noHooks, noPager]

    /// The whole command tree.
    static var root: CommandConfiguration {
        root(with: topLevel.map { $0.configuration } + groups.map { configuration(of: $0) })
    }
    static func configuration(of group: any CommandGroup.Type) -> CommandConfiguration {
        var configuration = group.configuration
        configuration.subcommands = group.subcommands.map { $0.configuration }
        return configuration
    }

    static func root(with subcommands: [CommandConfiguration]) -> CommandConfiguration {
        var root = CommandConfiguration(
            name: "bookclub",
            abstract: "Track the books you read, your progress and your notes for the next book club meeting.",
            examples: [
                #"bookclub add "Dune" --author "Frank Herbert" --pages 412"#,
                #"bookclub progress dune 120 --note "the spice""#,
                "bookclub list", "bookclub help progress",
            ],
            version: version,
            options: globalOptions,
            subcommands: subcommands)
        root.groups = helpGroups
        return root
    }

    /// The root help's headings, each naming its commands.
    static let helpGroups = [
        (title: "Reading", names: ["progress", "finish", "unfinish", "abandon", "reread", "highlight", "select"]),
        (title: "Books", names: ["add", "list", "show", "edit", "remove", "stats", "lookup", "cover", "covers"]),
        (title: "Clubs", names: ["club", "agenda", "notes"]),
        (title: "Data in and out", names: ["import", "export", "log", "sync", "undo", "history"]),
        (title: "Set-up", names: ["settings", "doctor", "completions", "manual"]),
    ]
}
