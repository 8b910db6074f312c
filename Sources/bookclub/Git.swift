import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A sync folder inside a git work tree with a remote: `sync` pulls before it reads the logs, then
/// commits this device's log and pushes. Only this device's own file is ever committed, so a pull
/// never conflicts and needs no merge driver.
struct Git {
    let folder: String
    /// The first remote, where a branch with no upstream yet is pushed.
    let remote: String
    /// Runs `git -C FOLDER ARGUMENTS`: its exit status and what it printed.
    private let git: ([String]) throws -> (code: Int32, output: String)

    /// `nil` when there is no `git`, or the folder is not in a work tree with a remote.
    init?(folder: String, environment: [String: String], runner: ProgramRunner) {
        var environment = environment
        // Never a prompt for a password or an editor: a cron job would wait for ever.
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_EDITOR"] = "true"
        let git = { [environment] (arguments: [String]) throws -> (code: Int32, output: String) in
            let program = Program(
                "git", ["-C", folder] + arguments, environment: environment, output: .capture(limit: 1 << 20))
            let result = try runner.run(program)
            return (result.status, String(decoding: result.output, as: UTF8.self))
        }
        guard runner.find("git", environment) != nil, let remotes = try? git(["remote"]), remotes.code == 0,
            let remote = remotes.output.split(separator: "\n").first.map(String.init)
        else { return nil }
        (self.folder, self.remote, self.git) = (folder, remote, git)
    }

    private func run(_ arguments: [String]) throws -> (code: Int32, output: String) {
        try git(arguments)
    }

    private func check(_ arguments: [String], _ what: String) throws {
        let result = try run(arguments)
        guard result.code == 0 else {
            // What a git stopped mid-way (a closed terminal, a power cut) leaves, and every git after it
            // refuses to go on with.
            let lock = try indexLock().map {
                ": \($0) exists, so another git is running there or one was stopped mid-way (if none is running, delete it)"
            }
            throw BookClubError.unavailable(
                "git could not \(what) in \(folder) (exit \(result.code))\(lock ?? ""); run `git -C \(folder) \(arguments.joined(separator: " "))` to see why"
            )
        }
    }

    /// The lock of the repository's index, when it is there.
    private func indexLock() throws -> String? {
        let gitDirectory = try run(["rev-parse", "--absolute-git-dir"])
        let lock = gitDirectory.output.trimmed + "/index.lock"
        return gitDirectory.code == 0 && FileManager.default.fileExists(atPath: lock) ? lock : nil
    }

    /// Brings in the other machines' commits (a merge, never a conflict: each machine commits only its
    /// own file).
    func pull() throws {
        if try hasUpstream() {
            try check(identity() + ["pull", "--no-rebase", "--no-edit", "--quiet"], "pull")
            return
        }
        // A clone made while the remote was empty, or a branch never pushed: it follows the remote's
        // branch of its name once there is one.
        try check(["fetch", "--quiet", remote], "fetch from \(remote)")
        let branch = try run(["symbolic-ref", "--short", "HEAD"]).output.trimmed
        guard !branch.isEmpty, try run(["rev-parse", "--verify", "--quiet", "\(remote)/\(branch)"]).code == 0 else {
            return
        }
        try check(
            identity() + ["merge", "--no-edit", "--quiet", "--allow-unrelated-histories", "\(remote)/\(branch)"],
            "merge")
        try check(["branch", "--quiet", "--set-upstream-to=\(remote)/\(branch)"], "follow \(remote)/\(branch)")
    }

    /// The reader's own name when git knows it; else bookclub's, rather than a failed commit or merge
    /// (a pull that merges another machine's commits makes a commit too).
    private func identity() throws -> [String] {
        try run(["config", "user.email"]).code == 0
            ? [] : ["-c", "user.name=bookclub", "-c", "user.email=bookclub@localhost"]
    }

    private func hasUpstream() throws -> Bool {
        try run(["rev-parse", "--abbrev-ref", "@{upstream}"]).code == 0
    }

    /// Commits this device's log if it changed, and pushes; a push refused because another machine
    /// pushed first is pulled and pushed again, once.
    /// - Parameter device: the device's name, or its id when it has none, for the commit's message.
    func commitAndPush(log: String, device: String) throws {
        let status = try run(["status", "--porcelain", "--", log])
        if !status.output.isEmpty {
            try check(["add", "--", log], "add \(log)")
            try check(
                identity() + ["commit", "--quiet", "-m", "bookclub: changes from \(device)", "--", log], "commit")
        }
        guard try hasUpstream() else {
            try check(["push", "--quiet", "--set-upstream", remote, "HEAD"], "push")
            return
        }
        guard try hasUnpushed() else { return }
        if try run(["push", "--quiet"]).code != 0 {
            try pull()
            try check(["push", "--quiet"], "push")
        }
    }

    /// Whether this branch has commits its upstream does not (or has no upstream yet).
    func hasUnpushed() throws -> Bool {
        let ahead = try run(["rev-list", "--count", "@{upstream}..HEAD"])
        return ahead.code != 0 || ahead.output.trimmed != "0"
    }

    /// Whether this device's log has changes not committed.
    func isDirty(log: String) throws -> Bool {
        try !run(["status", "--porcelain", "--", log]).output.isEmpty
    }
}
