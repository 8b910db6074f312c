/// Word wrapping with the same line-breaking rules as ASP's help output.
enum TextWrapping {
    /// Wraps `text` to `width` columns; every non-empty line is indented by
    /// `indent` spaces. Existing newlines are kept. A word longer than the
    /// available space stays on its own (overlong) line.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
        let columns = max(width - indent, 1)
        let characters = Array(text)
        var lines: [String] = []
        var start = 0
        while true {
            let chunkEnd = min(start + columns, characters.count)
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
}
