import BookClubCore

/// Word wrapping with the same line-breaking rules as ASP's help output, measured in terminal columns
/// (`displayWidth`), so that CJK text and emoji wrap where a terminal would show the edge.
enum TextWrapping {
    /// Wraps `text` to `width` columns; every non-empty line is indented by `indent` spaces. Existing
    /// newlines are kept. A word longer than the available space stays on its own (overlong) line,
    /// unless it holds wide characters (a Japanese sentence has no spaces): then it breaks at the edge.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
        let columns = max(width - indent, 1)
        let characters = Array(text)
        var lines: [String] = []
        var start = 0
        while true {
            // The longest run from `start` that fits `columns` (always at least one character).
            var chunkEnd = start
            var used = 0
            var hasWide = false
            var counter = DisplayWidth.Counter()
            while chunkEnd < characters.count {
                let size = counter.columns(characters[chunkEnd])
                if used + size > columns && chunkEnd > start { break }
                used += size
                hasWide = hasWide || size == 2
                chunkEnd += 1
            }
            let chunk = characters[start..<chunkEnd]
            if let newline = chunk.lastIndex(of: "\n") {
                let block = String(characters[start..<newline])
                lines += block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                start = newline + 1
            } else if chunkEnd == characters.count {
                lines.append(String(characters[start...]))
                break
            } else if let space = chunk.lastIndex(of: " ") {
                lines.append(String(characters[start..<space]))
                start = space + 1
            } else if hasWide {
                lines.append(String(chunk))
                start = chunkEnd
            } else if let space = characters[start...].firstIndex(of: " ") {
                lines.append(String(characters[start..<space]))
                start = space + 1
            } else {
                lines.append(String(characters[start...]))
                break
            }
        }
        let padding = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? $0 : padding + $0 }.joined(separator: "\n")
    }

    /// Wraps `text` to `width` columns with a hanging indent: the first line starts where it is
    /// (`firstColumn` columns in), the rest start `indent` columns in. `nil` width: one whole line.
    static func hanging(_ text: String, width: Int?, firstColumn: Int, indent: Int) -> String {
        guard let width, width - indent >= 20 else { return text }
        // Wrap as if the first line were indented too, with room for what precedes it.
        let placeholder = String(repeating: "x", count: max(0, firstColumn - indent))
        let wrapped = wrap(placeholder + text, width: width, indent: indent)
        return String(wrapped.dropFirst(indent + placeholder.count))
    }

    /// `wrap` for text for people: the words move, nothing else changes.
    static func wrap(_ text: TerminalText, width: Int, indent: Int = 0) -> TerminalText {
        TerminalText(layout: wrap(text.string, width: width, indent: indent))
    }

    /// `hanging` for text for people: the words move, nothing else changes.
    static func hanging(_ text: TerminalText, width: Int?, firstColumn: Int, indent: Int) -> TerminalText {
        TerminalText(layout: hanging(text.string, width: width, firstColumn: firstColumn, indent: indent))
    }
}
