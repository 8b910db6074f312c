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
///
/// The state the handler shares is plain memory, not Swift variables: a handler that writes while
/// the program reads is an overlapping access that Swift's exclusivity checks stop with SIGABRT.
/// Slots: the signal received, whether signals are caught, whether a save has committed (after
/// which the rest of that command's saves go through).
private let signalState = UnsafeMutablePointer<Int32>.allocate(capacity: 3)
signalState.initialize(repeating: 0, count: 3)
private var receivedSignal: Int32 { signalState[0] }
private var stopSignals = sigset_t()
sigemptyset(&stopSignals)
for number in [SIGINT, SIGTERM] {
    sigaddset(&stopSignals, number)
    signal(number) { number in
        if signalState[1] != 0 { signalState[0] = number } else { _exit(128 + number) }
    }
}
// A parent may have started us with them blocked (a test runner does).
sigprocmask(SIG_UNBLOCK, &stopSignals, nil)

private let variables = ProcessInfo.processInfo.environment
private var context = Services(
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
context.fileSystem = .live(interrupted: { signalState[2] != 0 ? 0 : receivedSignal })
context.didCommit = { signalState[2] = 1 }
context.catchSignals = { catching in
    signalState[0] = 0  // each catching window starts, and ends, with a clean slate
    signalState[1] = catching ? 1 : 0
}
context.receivedSignal = { receivedSignal }
context.page = { text, command in Pager.page(text, command: command, variables: variables) }
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), services: context))
