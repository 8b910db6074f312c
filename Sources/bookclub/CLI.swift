import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The command tree, the parse, the run, and the one place where errors become messages and exit codes.
enum CLI {
    static let version = "0.1.0"
    /// The day of this version, in the manual's header: change it with the version, never from the clock.
    static let versionDate = "2026-11-22"
    /// The exit code of a usage error (sysexits' EX_USAGE), as swift-argument-parser uses.
    static let usageErrorCode: Int32 = 64

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
                let output = (try? parsed[CommonOptions.output("")]) ?? nil
                if let clash = session.storage.fileClash(
                    paths: session.paths, output: output, workingDirectory: services.workingDirectory)
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
                if type.syncsAround { session.syncBeforeCommand() }
                try command.run(in: session)
                // From here on a Ctrl-C or SIGTERM is only recorded: the save gives up at its next
                // commit step, and once it has committed the command is done and exits as such.
                services.catchSignals(true)
                try session.saveChanges()
                session.syncAfterCommand()
                session.publishToClubs()
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
}
