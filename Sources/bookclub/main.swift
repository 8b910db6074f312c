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

let variables = ProcessInfo.processInfo.environment
let context = ProcessContext(
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
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), process: context))
