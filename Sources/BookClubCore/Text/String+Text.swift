extension String {
    /// The text without white space or line breaks at either end.
    public var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(self[first...last])
    }

    /// The text trimmed, or `nil` when nothing is left (an option given as "" or "  " means none).
    public var nonBlank: String? {
        let text = trimmed
        return text.isEmpty ? nil : text
    }

    /// The text with zeros before it to make `width` characters (`7` → `007`); longer text is kept whole.
    public func zeroPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }

    /// The folder part of a path (`/a/b` for `/a/b/c.json`); empty for a bare name.
    public var parentPath: String {
        guard let slash = lastIndex(of: "/") else { return "" }
        return slash == startIndex ? "/" : String(self[..<slash])
    }

    /// The last part of a path (`c.json` for `/a/b/c.json`).
    var lastPathComponent: String {
        guard let slash = lastIndex(of: "/") else { return self }
        return String(self[index(after: slash)...])
    }
}
