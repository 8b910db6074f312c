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

/// The user's hooks: executables in the hooks folder named `on-add`, `on-progress`, `on-finish` and
/// `on-change`, run after a command's change is saved, each with the change as JSON on standard input.
struct Hooks {
    static let names = ["on-add", "on-progress", "on-finish", "on-change"]

    let folder: String

    /// The hooks present (executable or not), by name; empty when there is no hooks folder.
    var present: Set<String> {
        Set(Self.names.filter { access(folder + "/" + $0, F_OK) == 0 })
    }

    /// One run of a hook.
    struct Job {
        var name: String
        var payload: Data
    }

    /// The runs of the hooks present that a saved change calls for: `on-add`, `on-progress` and
    /// `on-finish` for each of its events, then `on-change` with its summary.
    func jobs(for change: LibraryDiff, command: String) -> [Job] {
        let present = present
        let encoder = JSONCoding.encoder(pretty: false)
        var jobs: [Job] = []
        func add(_ name: String, _ payload: HookPayload) {
            guard present.contains(name), let data = try? encoder.encode(payload) else { return }
            jobs.append(Job(name: name, payload: data + Data("\n".utf8)))
        }
        let books = Dictionary(
            change.books.compactMap { $0.after.map { ($0.id, $0) } }, uniquingKeysWith: { a, _ in a })
        func book(_ id: Book.ID) -> BookJSON? { books[id].map { BookJSON($0) } }
        if !present.isDisjoint(with: ["on-add", "on-progress", "on-finish"]) {
            for event in change.events {
                switch event {
                case .added(let id): add("on-add", HookPayload(event: "add", command: command, book: book(id)))
                case .progress(let id, let entry):
                    add("on-progress", HookPayload(event: "progress", command: command, book: book(id), entry: entry))
                case .finished(let id, let ending):
                    add("on-finish", HookPayload(event: "finish", command: command, book: book(id), ending: ending))
                }
            }
        }
        if present.contains("on-change") {
            add("on-change", HookPayload(event: "change", command: command, summary: ChangeSummary.describe(change)))
        }
        return jobs
    }

    /// Runs each job in turn and returns a warning for each that failed; a hook that is not
    /// executable is reported once.
    func run(_ jobs: [Job], environment: [String: String], timeout: Double) -> [String] {
        var warnings: [String] = []
        var unusable = Set<String>()
        for job in jobs where !unusable.contains(job.name) {
            let path = folder + "/" + job.name
            guard access(path, X_OK) == 0 else {
                unusable.insert(job.name)
                warnings.append("Hook \(path) is not executable; run `chmod +x \(path.shellQuoted)` to use it.")
                continue
            }
            if let problem = Self.spawn(path, payload: job.payload, environment: environment, timeout: timeout) {
                warnings.append("Hook \(job.name) \(problem); the change is saved all the same.")
            }
        }
        return warnings
    }

    /// Runs `path` with `payload` on its standard input and its standard output sent to standard error
    /// (standard output is bookclub's data), in a process group of its own, which is killed after
    /// `timeout` seconds. Returns what went wrong, or `nil`.
    static func spawn(_ path: String, payload: Data, environment: [String: String], timeout: Double) -> String? {
        // The payload goes through an unlinked temporary file: a hook that never reads cannot block us.
        let folder = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((folder + "/bookclub-hook-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { return "could not start: \(String(cString: strerror(errno)))" }
        defer { close(file) }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        let written = payload.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        guard written == payload.count, lseek(file, 0, SEEK_SET) == 0 else {
            return "could not start: \(String(cString: strerror(errno)))"
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, file, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))

        let arguments = [path]
        let variables = environment.map { "\($0.key)=\($0.value)" }
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cVariables = variables.map { strdup($0) } + [nil]
        defer {
            for argument in cArguments + cVariables { free(argument) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, &cArguments, &cVariables)
        guard spawned == 0 else { return "could not start: \(String(cString: strerror(spawned)))" }

        let deadline = monotonicSeconds() + timeout
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return "could not be waited for: \(String(cString: strerror(errno)))" }
            if monotonicSeconds() >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return "ran past the hookTimeout of \(timeout.formatted) s and was stopped"
            }
            usleep(2_000)
        }
        if status & 0x7F != 0 { return "was stopped by signal \(status & 0x7F)" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "exited with status \(code)"
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension Double {
    /// 10 rather than 10.0.
    fileprivate var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// What a hook reads on its standard input: one JSON object.
struct HookPayload: Encodable {
    /// add, progress, finish or change.
    var event: String
    /// The command line that made the change, after `bookclub`.
    var command: String
    var book: BookJSON?
    var entry: ReadingProgress.Entry?
    var ending: Ending?
    /// For `change`: what changed, in the words of `bookclub history`.
    var summary: String?
}
