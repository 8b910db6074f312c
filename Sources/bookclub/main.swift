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

/// SIGINT and SIGTERM end bookclub at once (128 + the signal), before it has saved anything, except
/// while a save or the editor runs: then they are recorded, and the save gives up before committing.
nonisolated(unsafe) var receivedSignal: Int32 = 0
nonisolated(unsafe) var catchingSignals = false
/// Set once a save has committed: the rest of that command's saves then go through.
nonisolated(unsafe) var committed = false
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
for number in [SIGINT, SIGTERM] {
    sigaddset(&stopSignals, number)
    signal(number) { number in
        if catchingSignals { receivedSignal = number } else { _exit(128 + number) }
    }
}
// A parent may have started us with them blocked (a test runner does).
sigprocmask(SIG_UNBLOCK, &stopSignals, nil)

let variables = ProcessInfo.processInfo.environment
var context = ProcessContext(
    variables: variables,
    terminal: Terminal.current(environment: variables),
    write: { text, toStandardOutput in
        let fd = toStandardOutput ? STDOUT_FILENO : STDERR_FILENO
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    })
context.fileSystem = .live(interrupted: { committed ? 0 : receivedSignal })
context.didCommit = { committed = true }
context.catchSignals = { catching in
    catchingSignals = catching
    receivedSignal = 0  // each catching window starts, and ends, with a clean slate
}
context.receivedSignal = { receivedSignal }
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), process: context))
