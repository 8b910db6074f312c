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

/// Writes all of `bytes` to `fd`, or as much as it takes (a closed pipe takes nothing).
private func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}

private let variables = ProcessInfo.processInfo.environment
private var context = Services(
    variables: variables,
    terminal: Terminal.current(environment: variables),
    write: { text, toStandardOutput in
        var text = text
        text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: toStandardOutput ? STDOUT_FILENO : STDERR_FILENO) }
    })
context.writeBytes = { data in data.withUnsafeBytes { writeAll($0, to: STDOUT_FILENO) } }
context.fileSystem = .live(interrupted: { Signals.interruption })
context.didCommit = { Signals.didCommit() }
context.catchSignals = { Signals.catching($0) }  // each catching window starts, and ends, with a clean slate
context.receivedSignal = { Signals.received }
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), services: context))
