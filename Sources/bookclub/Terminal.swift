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

/// What the process knows about where its output goes.
struct Terminal {
    var width: Int
    var standardOutputIsTerminal: Bool
    var standardErrorIsTerminal: Bool
    var standardInputIsTerminal: Bool

    /// The width from `COLUMNS`, else standard output's terminal size, else 80.
    static func current(environment: [String: String]) -> Terminal {
        var width = 80
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            width = columns
        } else {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { width = Int(size.ws_col) }
        }
        return Terminal(
            width: min(max(width, 40), 400),
            standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1,
            standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
            standardInputIsTerminal: isatty(STDIN_FILENO) == 1)
    }

    /// Whether a stream gets colour: `--color`/`--no-color` first, then `NO_COLOR`, `TERM=dumb`,
    /// the `color` setting, and last whether the stream is a terminal.
    static func wantsColor(
        flag: ColorMode?, setting: ColorMode, environment: [String: String], isTerminal: Bool
    ) -> Bool {
        if let flag, flag != .auto { return flag == .always }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        switch setting {
        case .always: return true
        case .never: return false
        case .auto: return isTerminal
        }
    }
}

