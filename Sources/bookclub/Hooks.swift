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
    let runner: ProgramRunner

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
        // Most stores have no hooks: nothing is made for them (an encoder alone cost 50 µs a write).
        guard !present.isEmpty else { return [] }
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
            add("on-change", HookPayload(event: "change", command: command, summary: change.summary))
        }
        return jobs
    }

    /// Runs each job in turn and returns a warning for each that failed; a hook that is not
    /// executable is reported once.
    /// Each hook gets the store and settings paths of the command, and `BOOKCLUB_NO_HOOKS=1`: a hook
    /// that runs bookclub does not set off hooks again.
    func run(_ jobs: [Job], variables: [String: String], paths: Paths, timeout: Double) -> [String] {
        var environment = variables
        environment["BOOKCLUB_STORE"] = paths.store
        environment["BOOKCLUB_SETTINGS"] = paths.settings
        environment["BOOKCLUB_NO_HOOKS"] = "1"
        var warnings: [String] = []
        var unusable = Set<String>()
        for job in jobs where !unusable.contains(job.name) {
            let path = folder + "/" + job.name
            guard access(path, X_OK) == 0 else {
                unusable.insert(job.name)
                warnings.append("Hook \(path) is not executable; run `chmod +x \(path.shellQuoted)` to use it.")
                continue
            }
            if let problem = spawn(path, payload: job.payload, environment: environment, timeout: timeout) {
                warnings.append("Hook \(job.name) \(problem); the change is saved all the same.")
            }
        }
        return warnings
    }

    /// Runs `path` with `payload` on its standard input and its standard output sent to standard error
    /// (standard output is bookclub's data), in a process group of its own, which is killed after
    /// `timeout` seconds. Returns what went wrong, or `nil`.
    private func spawn(_ path: String, payload: Data, environment: [String: String], timeout: Double) -> String? {
        let hook = Program(
            path, environment: environment, input: .bytes(payload), output: .standardError, showsErrors: true,
            timeout: timeout, ownProcessGroup: true)
        do {
            let ending = try runner.run(hook).ending
            return ending == .timedOut
                ? "ran past the hookTimeout of \(timeout.formatted) s and was stopped" : ending.problem
        } catch BookClubError.cannotStart(_, let cause) {
            return "could not start: \(cause)"
        } catch {
            return "could not start: \(error)"
        }
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
