import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct SyncCommand: Command {
    enum Action: String, CaseIterable {
        case `init`, status
    }

    static let action = Argument(
        name: "action", help: "init: join FOLDER. status: show the devices. Omitted: sync now.", isOptional: true,
        allowedValues: Action.allCases.map(\.rawValue))
    static let folder = Argument(
        name: "folder", help: "With init: the folder your machines share (a git work tree, Syncthing, Dropbox).",
        isOptional: true, parse: .path)
    static let name = Option(
        long: "name", kind: .value("name"), help: "With init: a name for this machine (laptop, desk).",
        parse: .note)
    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Share your library with your other machines through a folder.",
        discussion: """
            bookclub sync init FOLDER joins this machine to FOLDER (created if needed), which some other \
            program copies between your machines: a git repository, Syncthing, Dropbox, a network share. \
            Each machine writes only its own log there, FOLDER/devices/<id>.jsonl, so nothing ever \
            conflicts. From then on every command applies the other machines' changes first and writes \
            its own after (unless the syncProgress setting is false). bookclub sync does it now, and in a \
            git work tree with a remote also pulls, commits this machine's log and pushes.
            """,
        examples: ["bookclub sync init ~/Sync/bookclub --name laptop", "bookclub sync", "bookclub sync status"],
        arguments: [action, folder],
        options: [name, CommonOptions.json])

    static let syncsAround = false

    var action: Action?
    var folder: String?
    var name: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        action = try arguments[Self.action].flatMap(Action.init(rawValue:))
        folder = try arguments[Self.folder]
        name = try arguments[Self.name] ?? nil
        json = arguments[CommonOptions.json]
        if action == .`init`, folder == nil { throw ParseError.message("Give the folder to join: sync init FOLDER") }
        if action != .`init`, let folder {
            throw ParseError.message("Unexpected argument '\(folder)': only sync init takes a folder")
        }
        if action != .`init`, name != nil { throw ParseError.message("--name goes with sync init") }
        if let name, name.count > 64 { throw ParseError.message("--name: a name of up to 64 characters") }
    }

    func run(in session: Session) throws {
        switch action {
        case .`init`: try join(session)
        case .status: try status(session)
        case nil: try sync(session)
        }
    }

    private func join(_ session: Session) throws {
        let path = session.absolutePath(folder ?? "")
        let settings = try session.settings()
        let sync = try StoreSync.join(
            session.storage, folderPath: path, newDevice: session.makeID, lockTimeout: settings.state.lockTimeout)
        settings.update { $0.syncFolder = path }
        try settings.save()
        let (folder, state) = (sync.folder, sync.state)
        // In a git clone, what the other machines pushed comes first, and this machine's log goes out.
        let git = Git(folder: path, environment: session.variables, runner: session.runner)
        try git?.pull()
        let report = try sync.reconcile(capture: true, name: name, now: session.now(), newDevice: session.makeID)
        let device = report.clone?.new ?? state.device
        try git?.commitAndPush(log: folder.logPath(of: device), device: name ?? device)
        if json {
            try session.writeJSON(SyncJSON(report, device: device, folder: path))
        } else {
            session.output.write(TerminalText(device), as: .data)
            session.output.write(
                "This machine joined \(path) as \(device)\(name.map { " (\($0))" } ?? ""): it wrote \(NumberText.count(report.sent, "change")).",
                as: .message)
            write(report, session)
        }
        try finish(report)
    }

    private func sync(_ session: Session) throws {
        let sync = try joined(session)
        let (folder, state) = (sync.folder, sync.state)
        let git = Git(folder: folder.path, environment: session.variables, runner: session.runner)
        try git?.pull()
        let report = try sync.reconcile(capture: false, now: session.now(), newDevice: session.makeID)
        let device = report.clone?.new ?? state.device
        try git?.commitAndPush(log: folder.logPath(of: device), device: state.names[state.device] ?? device)
        if json {
            try session.writeJSON(SyncJSON(report, device: device, folder: folder.path))
        } else {
            write(report, session)
        }
        try finish(report)
    }

    private func status(_ session: Session) throws {
        let sync = try joined(session)
        let (folder, state) = (sync.folder, sync.state)
        let (devices, problems) = try Sync.devices(in: folder)
        let git = Git(folder: folder.path, environment: session.variables, runner: session.runner)
        let log = folder.logPath(of: state.device)
        let unpushed = try git.map { try $0.isDirty(log: log) || $0.hasUnpushed() } ?? false
        if json {
            try session.writeJSON(
                SyncStatusJSON(
                    folder: folder.path, device: state.device, devices: devices, unpushed: unpushed,
                    problems: problems))
            return
        }
        for line in SyncText.status(
            devices, this: state.device, unpushed: unpushed, usesGit: git != nil, timeZone: session.timeZone,
            style: session.style)
        {
            session.output.write(line, as: .data)
        }
        for problem in problems { session.output.write(SyncText.problem(problem), as: .warning) }
        if !problems.isEmpty { throw ExitCode(code: 65) }
    }

    private func joined(_ session: Session) throws -> StoreSync {
        guard let sync = try session.syncing() else {
            throw CommandFailure("This store syncs with no folder yet: run `bookclub sync init FOLDER`.")
        }
        return sync
    }

    private func write(_ report: SyncReport, _ session: Session) {
        if let clone = report.clone { session.output.write(SyncText.clone(clone), as: .warning) }
        for line in SyncText.report(report) { session.output.write(line, as: .message) }
        for problem in report.problems { session.output.write(SyncText.problem(problem), as: .warning) }
    }

    /// A log line that could not be read fails the command (after everything else was applied).
    private func finish(_ report: SyncReport) throws {
        if !report.problems.isEmpty { throw ExitCode(code: 65) }
    }
}
