#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Starts other programs and waits for them: the one seam between bookclub and the processes it runs
/// (`curl`, `git`, `sqlite3`, the editor, the pager, hooks, `kitten`), as a value of closures like
/// `FileSystem`, so that a test can hand the CLI a fake.
///
///     let program = Program("git", ["-C", folder, "remote"], environment: variables, output: .capture(limit: 4096))
///     let result = try runner.run(program)
///     if result.ending == .exited(0) { print(String(decoding: result.output, as: UTF8.self)) }
///
/// Arguments go to the program as they are, never through a shell. `$EDITOR` and `$PAGER` are shell
/// command lines by convention: their callers say so with `Program.shell(_:arguments:environment:)`.
public struct ProgramRunner {
    /// The path of the executable `name` in a folder of the environment's `PATH`, or `name` itself when
    /// it is a path (it has a `/`) to an executable; `nil` when there is none.
    public var find: (_ name: String, _ environment: [String: String]) -> String?
    /// Runs a program and waits for it to end, or for its time-out.
    /// - Throws: `BookClubError.cannotStart` when the program is not found or cannot be started.
    public var run: (_ program: Program) throws -> ProgramResult

    public init(
        find: @escaping (String, [String: String]) -> String?, run: @escaping (Program) throws -> ProgramResult
    ) {
        self.find = find
        self.run = run
    }
}

/// A program to run, and what it is given: its arguments, variables and standard streams.
public struct Program: Equatable, Sendable {
    /// A name looked for in the folders of the environment's `PATH`, or a path.
    public var name: String
    /// The arguments after the program's own name, passed as they are.
    public var arguments: [String]
    /// All of its variables: nothing else of bookclub's is passed on.
    public var environment: [String: String]
    public var input: Input
    public var output: Output
    /// Whether the program writes to bookclub's standard error; else its errors are dropped.
    public var showsErrors: Bool
    /// Seconds after which the program (its process group, with `ownProcessGroup`) is killed; `nil`
    /// waits as long as it takes.
    public var timeout: Double?
    /// Whether it runs in a process group of its own, so that a time-out kills what it started too.
    public var ownProcessGroup: Bool

    /// What the program reads on its standard input.
    public enum Input: Equatable, Sendable {
        /// `/dev/null`: it reads nothing, and never waits for a terminal.
        case null
        /// bookclub's own standard input (the terminal of an editor).
        case inherit
        /// These bytes, from an unlinked temporary file: a program that never reads them cannot block
        /// bookclub, and one that stops reading early cannot end it with SIGPIPE.
        case bytes(Data)
    }

    /// Where the program's standard output goes.
    public enum Output: Equatable, Sendable {
        /// `/dev/null`.
        case null
        /// bookclub's own standard output.
        case inherit
        /// bookclub's standard error: what a hook prints is not bookclub's data.
        case standardError
        /// Kept in `ProgramResult.output`, at most `limit` bytes; a program that writes more is
        /// killed and the result says it was truncated.
        case capture(limit: Int)
    }

    public init(
        _ name: String, _ arguments: [String] = [], environment: [String: String], input: Input = .null,
        output: Output = .null, showsErrors: Bool = false, timeout: Double? = nil, ownProcessGroup: Bool = false
    ) {
        (self.name, self.arguments, self.environment) = (name, arguments, environment)
        (self.input, self.output, self.showsErrors) = (input, output, showsErrors)
        (self.timeout, self.ownProcessGroup) = (timeout, ownProcessGroup)
    }

    /// `/bin/sh -c 'COMMAND "$@"' COMMAND ARGUMENTS…`: a command line the user wrote for the shell
    /// (`$EDITOR`, `$PAGER`, which may carry options), with bookclub's own arguments passed verbatim
    /// after it. Inherits the terminal: standard input, output and error.
    public static func shell(
        _ command: String, arguments: [String] = [], environment: [String: String], input: Input = .inherit
    ) -> Program {
        Program(
            "/bin/sh", ["-c", arguments.isEmpty ? command : command + " \"$@\"", command] + arguments,
            environment: environment, input: input, output: .inherit, showsErrors: true)
    }
}

/// How a program ended, and what it printed when its output was captured.
public struct ProgramResult: Equatable, Sendable {
    public enum Ending: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (SIGKILL when its output passed the limit).
        case signaled(Int32)
        /// It ran past its time-out and was killed.
        case timedOut

        /// What went wrong, to follow the program's name (`exited with status 3`); `nil` for status 0.
        public var problem: String? {
            switch self {
            case .exited(0): nil
            case .exited(let status): "exited with status \(status)"
            case .signaled(let number): "was stopped by signal \(number)"
            case .timedOut: "ran past its time-out and was stopped"
            }
        }
    }

    public var ending: Ending
    /// Its standard output, when captured: at most the limit.
    public var output: Data
    /// Whether it wrote more than the limit (and was killed for it).
    public var truncated: Bool

    public init(ending: Ending, output: Data = Data(), truncated: Bool = false) {
        (self.ending, self.output, self.truncated) = (ending, output, truncated)
    }

    /// The exit status; -1 when a signal or the time-out ended it.
    public var status: Int32 {
        if case .exited(let status) = ending { return status }
        return -1
    }
}
