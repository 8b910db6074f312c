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
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), services: context))
