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

    /// Every runnable command, by its path below `bookclub`.
    static var commands: [(path: String, type: any Command.Type)] {
        [
            ("add", AddCommand.self),
            ("list", ListCommand.self),
            ("show", ShowCommand.self),
            ("progress", ProgressCommand.self),
            ("finish", FinishCommand.self),
            ("unfinish", UnfinishCommand.self),
            ("abandon", AbandonCommand.self),
            ("reread", RereadCommand.self),
            ("edit", EditCommand.self),
            ("remove", RemoveCommand.self),
            ("notes", NotesCommand.self),
            ("select", SelectCommand.self),
            ("undo", UndoCommand.self),
            ("history", HistoryCommand.self),
            ("doctor", DoctorCommand.self),
            ("agenda", AgendaCommand.self),
            ("export", ExportCommand.self),
            ("log", LogCommand.self),
            ("import", ImportCommand.self),
            ("stats", StatsCommand.self),
            ("completions", CompletionsCommand.self),
            ("manual", ManualCommand.self),
            ("club add", ClubAddCommand.self),
            ("club list", ClubListCommand.self),
            ("club show", ClubShowCommand.self),
            ("club rename", ClubRenameCommand.self),
            ("club remove", ClubRemoveCommand.self),
            ("club meeting", ClubMeetingCommand.self),
            ("club meetings", ClubMeetingsCommand.self),
            ("club cancel", ClubCancelCommand.self),
            ("settings list", SettingsListCommand.self),
            ("settings get", SettingsGetCommand.self),
            ("settings set", SettingsSetCommand.self),
            ("settings reset", SettingsResetCommand.self),
        ]
    }

    static let store = OptionSpec(
        long: "store", kind: .value("path"),
        help: "The store file (default: $BOOKCLUB_STORE, else $XDG_DATA_HOME/bookclub/store.json).",
        isInherited: true)
    static let settings = OptionSpec(
        long: "settings", kind: .value("path"),
        help: "The settings file (default: $BOOKCLUB_SETTINGS, else $XDG_CONFIG_HOME/bookclub/settings.json).",
        isInherited: true)
    static let quiet = OptionSpec(
        long: "quiet", short: "q", kind: .flag, help: "Print only data and errors.", isInherited: true)
    static let color = OptionSpec(
        long: "color", kind: .value("when"), help: "When to colour output.",
        allowedValues: ColorMode.allCases.map(\.rawValue), defaultValue: "auto", isInherited: true)
    static let noColor = OptionSpec(
        long: "no-color", kind: .flag, help: "Never colour output (as --color never).", isInherited: true)
    static let noHooks = OptionSpec(
        long: "no-hooks", kind: .flag, help: "Run no hooks for this command (as BOOKCLUB_NO_HOOKS=1).",
        isInherited: true)
    static let globalOptions = [store, settings, quiet, color, noColor, noHooks]

    static var root: CommandConfiguration {
        func configuration(_ path: String) -> CommandConfiguration {
            commands.first { $0.path == path }!.type.configuration
        }
        let settings = CommandConfiguration(
            name: "settings",
            abstract: "Read and change settings.",
            discussion: "Settings live in their own file, apart from your books: see `bookclub settings list`.",
            subcommands: ["list", "get", "set", "reset"].map { configuration("settings " + $0) })
        let club = CommandConfiguration(
            name: "club",
            abstract: "Book clubs: their meetings, what to read by when.",
            discussion: "Clubs are named like books: an id or id prefix, a name, or words of it.",
            subcommands: ["add", "list", "show", "rename", "remove", "meeting", "meetings", "cancel"].map {
                configuration("club " + $0)
            })
        var subcommands = commands.filter { !$0.path.contains(" ") }.map { $0.type.configuration }
        subcommands += [club, settings]
        return CommandConfiguration(
            name: "bookclub",
            abstract: "Track the books you read, your progress and your notes for the next book club meeting.",
            version: version,
            options: globalOptions,
            subcommands: subcommands)
    }

    /// Parses and runs one command line. Returns the exit code.
    static func run(_ arguments: [String], process: ProcessContext) -> Int32 {
        let root = root
        let outcome = CommandParser.parse(arguments, root: root, environment: process.variables)
        let write = process.write
        switch outcome {
        case .help(let path):
            write(HelpGenerator.render(path: path, width: process.terminal.width), true)
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
        case .run(let path, let parsed):
            let names = path.dropFirst().map(\.name).joined(separator: " ")
            guard let type = commands.first(where: { $0.path == names })?.type else {
                write(HelpGenerator.render(path: path, width: process.terminal.width), true)
                return 0
            }
            for option in [Self.store, Self.settings] where parsed.value(option)?.isEmpty == true {
                write(
                    UsageGenerator.errorReport(
                        .invalidValue(value: "", label: "\(option.longName) <path>", reason: "a path cannot be empty"),
                        path: path), false)
                return usageErrorCode
            }
            let timeZone = process.timeZone
            let env = process.environment(for: parsed, arguments: arguments, timeZone: timeZone.zone)
            defer { env.close() }
            // Before any file is opened: one file never plays two roles.
            if let clash = Self.sameFile(parsed, paths: env.paths, workingDirectory: process.workingDirectory)
                ?? Self.wrongKind(paths: env.paths, fileSystem: process.fileSystem)
            {
                write(UsageGenerator.errorReport(.message(clash), path: path), false)
                return usageErrorCode
            }
            if let problem = timeZone.problem { env.output.write(problem.terminalSafe, as: .warning) }
            do {
                let command = try type.init(parsed)
                try command.run(in: env)
                // From here on a Ctrl-C or SIGTERM is only recorded: the save gives up at its next
                // commit step, and once it has committed the command is done and exits as such.
                process.catchSignals(true)
                try env.saveChanges()
                env.flushOutput()
                // Hooks run once the store is released: one that runs bookclub must not wait for us.
                let runHooks = env.pendingHooks()
                env.close()
                for warning in runHooks() { env.output.write(warning.terminalSafe, as: .warning) }
                env.flushOutput()
                return 0
            } catch let error as ParseError {
                write(UsageGenerator.errorReport(error, path: path), false)
                return usageErrorCode
            } catch let error as BookClubError {
                env.output.write(error.message(in: env.timeZone).terminalSafe, as: .error)
                return exitCode(error.kind)
            } catch let error as CommandFailure {
                env.output.write(error.message.terminalSafe, as: .error)
                return exitCode(.rejected)
            } catch let error as ExitCode {
                env.flushOutput()  // the command has said what went wrong
                return error.code
            } catch {
                env.output.write(describe(error).terminalSafe, as: .error)
                return 1
            }
        }
    }

    /// A file whose content is plainly of another kind than its role's (a store named as the settings
    /// file, settings named as the store), said as an error; `nil` when each is of its kind, absent, or
    /// not bookclub's at all (which its own reader then reports).
    static func wrongKind(paths: Paths, fileSystem: FileSystem) -> String? {
        let roles: [(role: String, path: String, kinds: Set<DataFileKind>, setBy: String)] = [
            ("the store", paths.store, [.store], "--store or BOOKCLUB_STORE"),
            ("the settings file", paths.settings, [.settings], "--settings or BOOKCLUB_SETTINGS"),
            // A scene that selects nothing looks like settings.
            ("the scene file", paths.scene, [.scene, .settings], "BOOKCLUB_SCENE"),
        ]
        for (role, path, kinds, setBy) in roles {
            // The opening of a store as bookclub writes it says enough; anything else is read whole.
            var opening = Data()
            try? fileSystem.readLines(path, 64) { opening += $0 }
            guard !opening.isEmpty, DataFileKind.of(opening) != .store || kinds != [.store] else { continue }
            guard let data = try? fileSystem.read(path), let kind = DataFileKind.of(data), !kinds.contains(kind) else {
                continue
            }
            return "\(role) (\(path.terminalSafe)) holds \(kind.rawValue); give \(setBy) a path of its own"
        }
        return nil
    }

    /// Two roles given one file (a settings path naming the store, an --output naming the journal),
    /// said as an error naming both; `nil` when every file has one role.
    static func sameFile(_ parsed: ParsedArguments, paths: Paths, workingDirectory cwd: String) -> String? {
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
        let storage = LibraryStorage(path: paths.store, fileSystem: .live)
        var roles: [(String, String)] = [
            ("the store", paths.store), ("the store's journal", storage.journalPath),
            ("the store's history", storage.historyPath),
            ("the store's undo log", storage.undoPath), ("the store's lock", storage.lockPath),
            ("the settings file", paths.settings),
            ("the scene file", paths.scene),
        ]
        if let output = parsed.value(CommonOptions.output("")), !output.isEmpty, output != "-" {
            roles.append(("--output", output))
        }
        var seen: [String: String] = [:]
        for (role, path) in roles {
            let key = absolute(path)
            if let other = seen[key] {
                return "\(other) and \(role) are the same file (\(key.terminalSafe)); give each its own"
            }
            seen[key] = role
        }
        return nil
    }

    /// An error's message: its `errorDescription` when it has one.
    static func describe(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }

    static func exitCode(_ kind: BookClubError.Kind) -> Int32 {
        switch kind {
        case .rejected: 1
        case .dataFile: 65
        case .io: 74
        case .busy: 75
        case .interrupted(let signal): 128 + signal
        }
    }
}

/// What only the command line refuses (no editor to open, a removal not confirmed): said as
/// `Error: <message>`, exit 1. The core's refusals are `BookClubError`s.
struct CommandFailure: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// Thrown by a command that has already said what went wrong: exits with `code`, printing nothing more.
struct ExitCode: Error {
    var code: Int32
}

/// What `main` (or a test) gives the CLI: the process's variables, streams, terminal and clock.
struct ProcessContext {
    var variables: [String: String]
    var terminal: Terminal
    var fileSystem = FileSystem.live
    var now: () -> Date = { Date() }
    /// The reader's time zone, found from `TZ` as the C library finds it.
    var timeZone: (zone: Zone, problem: String?) {
        Zone.resolve(
            tz: variables["TZ"], zoneinfo: variables["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        ) {
            path in try? fileSystem.read(path)
        }
    }
    var makeID: () -> String = { UUID().uuidString.replacing("-", with: "").lowercased() }
    var runEditor: (String, String) throws -> Void = Editor.run
    var readLine: () -> String? = { Swift.readLine() }
    /// While `true`, SIGINT and SIGTERM are recorded (see `receivedSignal`) rather than fatal; each
    /// call forgets what was recorded before.
    var catchSignals: (Bool) -> Void = { _ in }
    /// The SIGINT or SIGTERM recorded while signals were caught, or 0.
    var receivedSignal: () -> Int32 = { 0 }
    /// Called once the library's save has committed: a signal no longer stops the rest.
    var didCommit: () -> Void = {}
    /// Writes raw text to standard output (`true`) or standard error.
    var write: (String, Bool) -> Void
    var workingDirectory = ProcessContext.systemWorkingDirectory()
    /// The home folder the system gives the user, for when `HOME` is unset (asked only then: the
    /// password database costs a lookup through NSS).
    var userHome: () -> String = ProcessContext.systemUserHome

    static func systemWorkingDirectory() -> String {
        guard let folder = getcwd(nil, 0) else { return "/" }
        defer { free(folder) }
        return String(cString: folder)
    }

    static func systemUserHome() -> String {
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
        return String(cString: folder)
    }

    /// The environment of one command, with the global options applied.
    func environment(for parsed: ParsedArguments, arguments: [String], timeZone: Zone) -> Environment {
        let color: ColorMode? = parsed.flag(CLI.noColor) ? .never : parsed.value(CLI.color).flatMap { ColorMode($0) }
        return Environment(
            variables: variables,
            paths: Paths(
                environment: variables, store: parsed.value(CLI.store), settings: parsed.value(CLI.settings),
                workingDirectory: workingDirectory, userHome: userHome),
            workingDirectory: workingDirectory,
            commandLine: arguments.map(Environment.shellWord).joined(separator: " "),
            fileSystem: fileSystem, now: now, timeZone: timeZone, terminal: terminal, makeID: makeID,
            runEditor: runEditor, readLine: readLine, catchSignals: catchSignals, receivedSignal: receivedSignal,
            didCommit: didCommit, sink: write, colorFlag: color, isQuiet: parsed.flag(CLI.quiet),
            hooksEnabled: !parsed.flag(CLI.noHooks) && (variables["BOOKCLUB_NO_HOOKS"] ?? "").isEmpty)
    }
}
