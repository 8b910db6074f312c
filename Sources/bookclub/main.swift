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

/// Why standard output refused what was written to it (a full disk, a failing one, a closed
/// descriptor), from the first refusal on; 0 while it takes everything. Written on this thread only.
nonisolated(unsafe) private var outputFailure: Int32 = 0

/// Writes all of `bytes` to `fd`, or as much as it takes: a pipe whose reader has gone takes nothing
/// (`SIGPIPE` ends the process, or `EPIPE` says so where it is ignored), and is not an error; standard
/// output refusing anything else is noted, and nothing more is written to it.
private func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
    guard fd != STDOUT_FILENO || outputFailure == 0 else { return }
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else {
            if fd == STDOUT_FILENO, written < 0, errno != EPIPE { outputFailure = errno }
            return
        }
        offset += written
    }
}

/// The environment, read from `environ` (first of a name wins, as `getenv` has it): ProcessInfo's
/// first use sets up more than a command needs.
private let variables: [String: String] = {
    var count = 0
    while environ[count] != nil { count += 1 }
    var variables = [String: String](minimumCapacity: count)
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
            let name = String(text[..<equals])
            if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
        }
        entry += 1
    }
    return variables
}()
private var context = Services(
    variables: variables,
    terminal: Terminal.current(environment: variables),
    write: { text, toStandardOutput in
        var text = text
        text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: toStandardOutput ? STDOUT_FILENO : STDERR_FILENO) }
    })
context.writeBytes = { writeAll($0, to: STDOUT_FILENO) }
context.fileSystem = .live(interrupted: { Signals.interruption })
context.didCommit = { Signals.didCommit() }
context.catchSignals = { Signals.catching($0) }  // each catching window starts, and ends, with a clean slate
context.receivedSignal = { Signals.received }
let code = CLI.run(Array(CommandLine.arguments.dropFirst()), services: context)
// A command whose output was cut short (`export > backup.json` on a full disk) did not succeed.
if outputFailure != 0 {
    var report = "Error: standard output: cannot write: \(String(cString: strerror(outputFailure)))\n"
    report.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
    exit(code == 0 ? ErrorReport.exitCode(.io) : code)
}
exit(code)
