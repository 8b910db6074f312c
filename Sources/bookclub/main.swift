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

Signals.install()

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
context.fileSystem = .live(interrupted: { Signals.interruption })
context.didCommit = { Signals.didCommit() }
context.catchSignals = { Signals.catching($0) }  // each catching window starts, and ends, with a clean slate
context.receivedSignal = { Signals.received }
context.page = { text, command in Pager.page(text, command: command, variables: variables) }
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), services: context))
