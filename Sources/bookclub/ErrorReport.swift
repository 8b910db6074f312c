import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an error becomes at the prompt, decided in this one place (as swift-argument-parser's
/// `MessageInfo`): what is said, how, and the exit code.
struct ErrorReport {
    enum Message {
        /// A usage error, written as is with the command's usage.
        case usage(String)
        /// `Error: <message>`, written through the output; the message shows what it quotes.
        case error(TerminalText)
        /// Nothing more: the command has said what went wrong (`ExitCode`).
        case none
    }

    var message: Message
    var exitCode: Int32

    init(_ error: any Error, path: [CommandConfiguration], timeZone: Zone) {
        switch error {
        case let error as ParseError:
            (message, exitCode) = (.usage(UsageGenerator.errorReport(error, path: path)), CLI.usageErrorCode)
        case let error as BookClubError:
            (message, exitCode) = (.error(TerminalText(error.message(in: timeZone))), Self.exitCode(error.kind))
        case let error as CommandFailure:
            (message, exitCode) = (.error(TerminalText(error.message)), Self.exitCode(.rejected))
        case let error as ExitCode:
            (message, exitCode) = (.none, error.code)
        default:
            let text = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
            (message, exitCode) = (.error(TerminalText(text)), 1)
        }
    }

    /// The exit code of each kind of refusal, as sysexits names them.
    static func exitCode(_ kind: BookClubError.Kind) -> Int32 {
        switch kind {
        case .rejected: 1
        case .dataFile: 65
        case .io: 74
        case .busy: 75
        case .unavailable: 69
        case .interrupted(let signal): 128 + signal
        }
    }

    /// An error as one line, for a warning.
    static func line(_ error: any Error, timeZone: Zone) -> TerminalText {
        switch ErrorReport(error, path: [], timeZone: timeZone).message {
        case .error(let text): text
        case .usage(let text): TerminalText(text)
        case .none: TerminalText(String(describing: error))
        }
    }
}

/// What only the command line refuses (no editor to open, a removal not confirmed): said as
/// `Error: <message>`, exit 1. The core's refusals are `BookClubError`s.
struct CommandFailure: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// Thrown by a command that has already said what went wrong: exits with `code`, printing nothing more.
struct ExitCode: Error {
    var code: Int32
}
