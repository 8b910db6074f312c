import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command tree, the parse, the run, and the one place where errors become messages and exit codes.
enum CLI {
    static let version = "0.1.0"
    /// The day of this version, in the manual's header: change it with the version, never from the clock.
    static let versionDate = "2026-11-22"
    /// The exit code of a usage error (sysexits' EX_USAGE), as swift-argument-parser uses.
    static let usageErrorCode: Int32 = 64

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

    /// The tree the parser needs for `arguments`: when the first word names a command, that command
    /// alone (making every command's configuration costs a tenth of a `progress`); else all of them,
    /// for the help and for the suggestions of a mistyped name.
    static func root(for arguments: [String]) -> CommandConfiguration {
        guard let word = firstWord(of: arguments) else { return root }
        for command in topLevel {
            let configuration = command.configuration
            if configuration.name == word { return root(with: [configuration]) }
        }
        for group in groups where group.configuration.name == word {
            return root(with: [configuration(of: group)])
        }
        return root
    }

    /// The first word of `arguments` that is not an option or an option's value; `nil` past `--` or
    /// an option that is not a global one.
    private static func firstWord(of arguments: [String]) -> String? {
        var valued: Set<String> = []
        var flags: Set<String> = []
        var shortFlags: Set<Character> = []
        for option in globalOptions.map(\.spec) {
            guard case .flag = option.kind else {
                valued.insert(option.long)
                continue
            }
            flags.insert(option.long)
            if let short = option.short { shortFlags.insert(short) }
        }
        var tokens = ArgumentSplitter.split(arguments)[...]
        while let token = tokens.popFirst() {
            switch token {
            case .positional(let word): return word
            case .long(let name, let value) where valued.contains(name):
                if value == nil { _ = tokens.popFirst() }
            case .long(let name, nil) where flags.contains(name): continue
            case .short(let names) where names.allSatisfy(shortFlags.contains): continue
            default: return nil
            }
        }
        return nil
    }

    private static func configuration(of group: any CommandGroup.Type) -> CommandConfiguration {
        var configuration = group.configuration
        configuration.subcommands = group.subcommands.map { $0.configuration }
        return configuration
    }

    private static func root(with subcommands: [CommandConfiguration]) -> CommandConfiguration {
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

    /// Help taller than the terminal goes through the pager, as a command's output does.
    private static func writeHelp(_ text: String, _ arguments: [String], _ services: Services) {
        if arguments.contains(noPager.spec.longName) || !services.paged(text) { services.write(text, true) }
    }

    /// Parses and runs one command line. Returns the exit code.
    static func run(_ arguments: [String], services: Services) -> Int32 {
        let root = root(for: arguments)
        let outcome = CommandParser.parse(arguments, root: root, environment: services.variables)
        let write = services.write
        switch outcome {
        case .help(let path):
            writeHelp(HelpGenerator.render(path: path, width: services.terminal.width), arguments, services)
            return 0
        case .version(let version):
            write(version + "\n", true)
            return 0
        case .completionScript(let shell):
            // The parser has checked the shell already.
            write(CompletionScript.script(for: shell, root: root) ?? "", true)
            return 0
        case .failure(let error, let path):
            write(UsageGenerator.errorReport(error, path: path), false)
            return usageErrorCode
        case .run(let path, var parsed):
            guard let type = command(at: path.dropFirst().map(\.name)) else {
                writeHelp(HelpGenerator.render(path: path, width: services.terminal.width), arguments, services)
                return 0
            }
            let timeZone = services.timeZone
            let session: Session
            do {
                session = try Session(
                    services: services, globals: GlobalOptions(parsed), arguments: arguments, timeZone: timeZone.zone)
                // Before any file is opened: one file never plays two roles.
                if let clash = Self.sameFile(parsed, paths: session.paths, workingDirectory: services.workingDirectory)
                    ?? Self.wrongKind(paths: session.paths, fileSystem: services.fileSystem)
                {
                    // A path the user typed is a usage error; a file at its own place is damaged.
                    guard !clash.isTyped else { throw ParseError.message(clash.message) }
                    write("Error: \(TerminalText(clash.message).string).\n", false)
                    return ErrorReport.exitCode(clash.isLink ? .io : .dataFile)
                }
            } catch {
                write(UsageGenerator.errorReport(error as? ParseError ?? .message("\(error)"), path: path), false)
                return usageErrorCode
            }
            defer { session.close() }
            parsed.context = ParseContext(now: services.now(), timeZone: session.timeZone)
            if let problem = timeZone.problem { session.output.write(TerminalText(problem), as: .warning) }
            do {
                let command = try type.init(parsed)
                if !(command is SyncCommand) { session.syncBeforeCommand() }
                try command.run(in: session)
                // From here on a Ctrl-C or SIGTERM is only recorded: the save gives up at its next
                // commit step, and once it has committed the command is done and exits as such.
                services.catchSignals(true)
                try session.saveChanges()
                session.syncAfterCommand()
                session.flushOutput()
                // Hooks run once the store is released: one that runs bookclub must not wait for us.
                let runHooks = session.pendingHooks()
                session.close()
                for warning in runHooks() { session.output.write(TerminalText(warning), as: .warning) }
                session.flushOutput()
                return 0
            } catch {
                let report = ErrorReport(error, path: path, timeZone: session.timeZone)
                switch report.message {
                case .usage(let text): write(text, false)
                case .error(let text): session.output.write(text, as: .error)
                case .none: session.flushOutput()  // the command has said what went wrong
                }
                return report.exitCode
            }
        }
    }

    /// A file that cannot play its role: what is said of it, whether its path was typed (a flag or a
    /// variable: a usage error, 64) or is bookclub's default (a damaged file: 65, or 74 for a link
    /// where a file belongs).
    struct FileClash {
        var message: String
        var isTyped: Bool
        var isLink = false
    }

    /// A file whose content is plainly of another kind than its role's (a store named as the settings
    /// file, settings named as the store); `nil` when each is of its kind, absent, or not bookclub's
    /// at all (which its own reader then reports).
    static func wrongKind(paths: Paths, fileSystem: FileSystem) -> FileClash? {
        let roles: [(role: String, path: String, kinds: Set<DataFileKind>, setBy: String, isTyped: Bool)] = [
            ("the store", paths.store, [.store], "--store or BOOKCLUB_STORE", paths.storeIsGiven),
            (
                "the settings file", paths.settings, [.settings], "--settings or BOOKCLUB_SETTINGS",
                paths.settingsIsGiven
            ),
            // A scene that selects nothing looks like settings.
            ("the scene file", paths.scene, [.scene, .settings], "BOOKCLUB_SCENE", false),
        ]
        for (role, path, kinds, setBy, isTyped) in roles {
            // The opening of a store as bookclub writes it says enough; anything else is read whole.
            var opening = Data()
            try? fileSystem.readLines(path, 0..<64) { opening += $0 }
            guard !opening.isEmpty, DataFileKind.of(opening) != .store || kinds != [.store] else { continue }
            guard let data = try? fileSystem.read(path), let kind = DataFileKind.of(data), !kinds.contains(kind) else {
                continue
            }
            guard isTyped else {
                return FileClash(
                    message: "\(role) (\(path)) holds \(kind.rawValue); move it away, or put \(role) itself there",
                    isTyped: false)
            }
            return FileClash(
                message: "\(role) (\(path)) holds \(kind.rawValue); give \(setBy) a path of its own",
                isTyped: true)
        }
        return nil
    }

    /// Two roles given one file (a settings path naming the store, an --output naming the journal),
    /// said as an error naming both; `nil` when every file has one role.
    static func sameFile(_ parsed: ParsedArguments, paths: Paths, workingDirectory cwd: String) -> FileClash? {
        func absolute(_ path: String) -> String {
            let full = path.hasPrefix("/") ? path : cwd + "/" + path
            // Symbolic links and `..` resolved where the file (or its folder) exists.
            if let real = realpath(full, nil) {
                defer { free(real) }
                return String(cString: real)
            }
            let folder = full.parentPath
            let name = String(full.split(separator: "/").last ?? "")
            guard !folder.isEmpty, let real = realpath(folder, nil) else { return full }
            defer { free(real) }
            return String(cString: real) + "/" + name
        }
        let storage = LibraryStorage(path: paths.store, fileSystem: .live, ids: Services.randomIDs)
        let store = paths.storeIsGiven
        var roles: [(role: String, path: String, isTyped: Bool)] = [
            ("the store", paths.store, store), ("the store's journal", storage.journalPath, store),
            ("the store's history", storage.historyPath, store),
            ("the store's undo log", storage.undoPath, store),
            ("the store's earlier undo log", storage.previousUndoPath, store),
            ("the store's lock", storage.lockPath, store), ("the store's sync state", storage.syncStatePath, store),
            ("the settings file", paths.settings, paths.settingsIsGiven),
            ("the scene file", paths.scene, false),
        ]
        if let output = (try? parsed[CommonOptions.output("")]) ?? nil, output != "-" {
            roles.append(("--output", output, true))
        }
        var seen: [String: (role: String, isTyped: Bool)] = [:]
        for (role, path, isTyped) in roles {
            let key = absolute(path)
            if let other = seen[key] {
                let message = "\(other.role) and \(role) are the same file (\(key))"
                guard other.isTyped || isTyped else {
                    // Two of bookclub's own places are one file only through a link.
                    return FileClash(
                        message: message + "; one is a link to the other: put the file itself in its place",
                        isTyped: false, isLink: true)
                }
                return FileClash(message: message + "; give each its own", isTyped: true)
            }
            seen[key] = (role, isTyped)
        }
        return nil
    }
}
