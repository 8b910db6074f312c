import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one seam all output goes through: data to standard output, everything else to standard error.
///
/// Text for people goes out as `TerminalText`, which shows the control characters of every value in
/// it (see there): this seam takes no `String`, so no command or renderer can print a title, a note or
/// a message from a file raw. Documents in a format that escapes its own text (JSON, CSV, HTML,
/// iCalendar, roff, a shell script) are written as that format has them, by `write(formatted:)`.
///
/// Data and messages are held until the command's changes are saved (`sink` buffers them), so that a
/// command whose save fails has printed no success; errors and questions go out at once.
struct Output {
    enum Kind {
        /// What the user asked for; standard output.
        case data
        /// Confirmations and notices; standard error, dropped by `--quiet`.
        case message
        /// Standard error, prefixed `Warning: `; kept by `--quiet`.
        case warning
        /// Standard error, prefixed `Error: `.
        case error
        /// As `error`, but held with the data and messages, after them: a command's last word on what
        /// it found (`doctor`).
        case heldError
    }

    /// Writes raw text to standard output (`true`) or standard error (`false`), once the command has saved.
    private let sink: (String, _ toStandardOutput: Bool) -> Void
    /// Writes raw text to standard error now.
    private let immediate: (String) -> Void
    let isQuiet: Bool
    /// Styles for text bound to each stream: colour only where that stream wants it.
    let dataStyle: Style
    let messageStyle: Style

    init(
        sink: @escaping (String, _ toStandardOutput: Bool) -> Void, immediate: @escaping (String) -> Void,
        isQuiet: Bool, dataStyle: Style, messageStyle: Style
    ) {
        (self.sink, self.immediate, self.isQuiet, self.dataStyle, self.messageStyle) = (
            sink, immediate, isQuiet, dataStyle, messageStyle
        )
    }

    /// Asks a question on standard error, leaving the cursor on its line.
    func prompt(_ question: TerminalText) {
        immediate(question.string)
    }

    /// Shows `text` on standard error at once, without a line break (a progress bar redrawn in place).
    func show(_ text: TerminalText) {
        immediate(text.string)
    }

    /// Writes `text` and a newline.
    func write(_ text: TerminalText, as kind: Kind) {
        switch kind {
        case .data: sink(text.string + "\n", true)
        case .message: if !isQuiet { sink(text.string + "\n", false) }
        case .warning: sink((messageStyle.red("Warning: ") + text).string + "\n", false)
        case .error: immediate((messageStyle.red("Error: ") + text).string + "\n")
        case .heldError: sink((messageStyle.red("Error: ") + text).string + "\n", false)
        }
    }

    /// Writes a document to standard output as it is, for a format that escapes its own text (JSON,
    /// CSV, HTML, iCalendar, roff, a shell script); never text for people, which is `TerminalText`.
    func write(formatted document: String) {
        sink(document, true)
    }
}

/// ANSI styling that becomes a no-op when colour is off. What it styles is `TerminalText`: a value's
/// own escapes are shown before the colour goes round it.
struct Style {
    let isEnabled: Bool

    private func apply(_ code: String, _ text: TerminalText) -> TerminalText {
        isEnabled && !text.isEmpty
            ? TerminalText(layout: "\u{1B}[\(code)m") + text + TerminalText(layout: "\u{1B}[0m") : text
    }

    func bold(_ text: TerminalText) -> TerminalText { apply("1", text) }
    func dim(_ text: TerminalText) -> TerminalText { apply("2", text) }
    func red(_ text: TerminalText) -> TerminalText { apply("31", text) }
    func green(_ text: TerminalText) -> TerminalText { apply("32", text) }
    /// One of the 256 terminal colours (16 to 231 are a 6×6×6 cube), as foreground.
    func color256(_ code: Int, _ text: TerminalText) -> TerminalText { apply("38;5;\(code)", text) }
}

extension String {
    /// The text without the characters `TerminalText` escapes: one line, safe in a shell prompt.
    var withoutControlCharacters: String {
        guard unicodeScalars.contains(where: \.isTerminalUnsafe) else { return self }
        var result = ""
        result.unicodeScalars.append(contentsOf: unicodeScalars.filter { !$0.isTerminalUnsafe })
        return result
    }
}
