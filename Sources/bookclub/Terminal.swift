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
    /// The width help text is wrapped at.
    var width: Int
    /// The width tables fit: `COLUMNS`, else the terminal's; `nil` (no limit) when output goes to a
    /// pipe, so that scripts and mail get whole titles and notes.
    var lineWidth: Int?
    var standardOutputIsTerminal: Bool
    var standardErrorIsTerminal: Bool
    var standardInputIsTerminal: Bool
    /// The lines standard output's terminal shows: `LINES`, else its size; `nil` when not known.
    var height: Int? = nil

    /// The width from `COLUMNS`, else standard output's terminal size, else 80.
    static func current(environment: [String: String]) -> Terminal {
        var width: Int?
        var height = environment["LINES"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            width = columns
        } else {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { width = Int(size.ws_col) }
        }
        if height == nil {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { height = Int(size.ws_row) }
        }
        return Terminal(
            width: min(max(width ?? 80, 40), 400),
            lineWidth: width.map { min(max($0, 40), 1000) },
            standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1,
            standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
            standardInputIsTerminal: isatty(STDIN_FILENO) == 1, height: height)
    }

    /// Whether a stream gets colour, as no-color.org has it: `--color`/`--no-color`, then the `color`
    /// setting (read only when it decides), override `NO_COLOR`; `NO_COLOR` (set and not empty) then
    /// means never, as does `TERM=dumb`; last, whether the stream is a terminal.
    static func wantsColor(
        flag: ColorMode?, setting: () -> ColorMode, environment: [String: String], isTerminal: Bool
    ) -> Bool {
        if let flag, flag != .auto { return flag == .always }
        switch setting() {
        case .always: return true
        case .never: return false
        case .auto: break
        }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isTerminal
    }
}
