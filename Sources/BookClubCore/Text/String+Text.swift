extension String {
    /// The text without white space or line breaks at either end.
    public var trimmed: String {
        // Most text has nothing to trim, which its first and last bytes tell when they are ASCII other
        // than white space (a character's first scalar says whether it is white space; one that ends
        // in an ASCII byte but begins before it begins with no white space): a batch trims every line.
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80,
            !Self.isASCIIWhiteSpace(first), !Self.isASCIIWhiteSpace(last)
        {
            return self
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        // Nothing to trim after all (text that starts or ends past ASCII): not copied.
        if first == startIndex && index(after: last) == endIndex { return self }
        return String(self[first...last])
    }

    /// Tab, line feed, vertical tab, form feed, carriage return and space: the ASCII bytes of
    /// Unicode's White_Space, as `Character.isWhitespace` has it.
    private static func isASCIIWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// Whether `word` (ASCII letters, digits, spaces and marks, no line break) occurs in the text, as
    /// `contains` finds it: a search of bytes when the text is ASCII too, where each character is a
    /// byte (an import asks it a dozen times a row, which the generic search took 5 µs a time for).
    func contains(word: String) -> Bool {
        guard utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return contains(word) }
        let needle = Array(word.utf8)
        guard let first = needle.first else { return true }
        let bytes = Array(utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == first {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
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
        guard let slash = lastSlash else { return "" }
        return slash == startIndex ? "/" : String(self[..<slash])
    }

    /// The last part of a path (`c.json` for `/a/b/c.json`).
    var lastPathComponent: String {
        guard let slash = lastSlash else { return self }
        return String(self[utf8.index(after: slash)...])
    }

    /// The last `/`, the separator the system splits paths at whatever follows it, found among the
    /// bytes (among the characters, it took some 6,000 instructions a path, a dozen paths a command).
    private var lastSlash: Index? { utf8.lastIndex(of: UInt8(ascii: "/")) }
}

extension Array where Element == String {
    /// The strings with `separator` between them, as the standard library's `joined(separator:)`,
    /// which this stands in for on arrays of strings: that one is a generic call whose requirements
    /// the runtime looks up, through every conformance in the binary, the first time a process makes
    /// it (60 µs of a command).
    public func joined(separator: String = "") -> String {
        var text = ""
        for (offset, element) in enumerated() {
            if offset > 0 { text += separator }
            text += element
        }
        return text
    }
}
