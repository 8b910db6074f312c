#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one seam all output goes through: data to standard output, everything else to standard error.
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
    }

    /// Writes raw text to standard output (`true`) or standard error (`false`), once the command has saved.
    let sink: (String, _ toStandardOutput: Bool) -> Void
    /// Writes raw text to standard error now.
    let immediate: (String) -> Void
    let isQuiet: Bool
    /// Styles for text bound to each stream: colour only where that stream wants it.
    let dataStyle: Style
    let messageStyle: Style

    /// Asks a question on standard error, leaving the cursor on its line.
    func prompt(_ question: String) {
        immediate(question)
    }

    /// Writes `text` and a newline.
    func write(_ text: String, as kind: Kind) {
        switch kind {
        case .data: sink(text + "\n", true)
        case .message: if !isQuiet { sink(text + "\n", false) }
        case .warning: sink(messageStyle.red("Warning: ") + text + "\n", false)
        case .error: immediate(messageStyle.red("Error: ") + text + "\n")
        }
    }
}

/// ANSI styling that becomes a no-op when colour is off.
struct Style {
    let isEnabled: Bool

    private func apply(_ code: String, _ text: String) -> String {
        isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { apply("1", text) }
    func dim(_ text: String) -> String { apply("2", text) }
    func red(_ text: String) -> String { apply("31", text) }
    func green(_ text: String) -> String { apply("32", text) }
    /// One of the 256 terminal colours (16 to 231 are a 6×6×6 cube), as foreground.
    func color256(_ code: Int, _ text: String) -> String { apply("38;5;\(code)", text) }
}

extension String {
    /// The text with control characters, escape sequences and bidirectional overrides shown escaped
    /// (`\u{1B}`), never sent raw to a terminal.
    var terminalSafe: String {
        // Printable ASCII, the common case, is safe as it is.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        guard unicodeScalars.contains(where: \.isTerminalUnsafe) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if scalar.isTerminalUnsafe {
                result +=
                    scalar == "\n"
                    ? "\\n" : scalar == "\t" ? "\\t" : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension String {
    /// As `terminalSafe`, but keeping line breaks (for multi-line documents such as Markdown).
    var terminalSafeKeepingNewlines: String {
        split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }.joined(separator: "\n")
    }

    /// The text without the characters `terminalSafe` escapes: one line, safe in a shell prompt.
    var withoutControlCharacters: String {
        guard unicodeScalars.contains(where: \.isTerminalUnsafe) else { return self }
        var result = ""
        result.unicodeScalars.append(contentsOf: unicodeScalars.filter { !$0.isTerminalUnsafe })
        return result
    }
}

extension Unicode.Scalar {
    /// Control characters, and the marks that reorder text (bidirectional overrides, isolates).
    var isTerminalUnsafe: Bool {
        properties.generalCategory == .control || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || [0x200E, 0x200F, 0x061C].contains(value)
    }
}
