/// How many terminal columns text takes: the one measure every table, bar, truncation and wrap uses.
///
/// A grapheme cluster (what a reader sees as one character) takes:
/// - 2 columns when any of its scalars is East Asian Wide or Fullwidth (CJK, kana, hangul, emoji
///   with emoji presentation, so ZWJ sequences and skin tones too), when it asks for emoji
///   presentation with U+FE0F, or when it is a flag (a pair of regional indicators);
/// - 0 for a cluster made only of combining marks, format characters (zero-width joiners,
///   bidirectional marks) or control characters;
/// - else 1: a decomposed `é` is one column, as its precomposed twin.
///
/// The tables are in `DisplayWidth+Tables.swift`, generated from the Unicode Character Database by:
///
/// ```python
/// import unicodedata2 as u   # pip install unicodedata2
/// zero = lambda c: c != '\u00ad' and (u.category(c) in ('Mn', 'Me', 'Cf')
///                  or 0x1160 <= ord(c) <= 0x11FF or 0xD7B0 <= ord(c) <= 0xD7FF)
/// wide = lambda c: not zero(c) and u.east_asian_width(c) in ('W', 'F')
/// # print the ranges of code points (surrogates excepted) for which each holds
/// ```
public enum DisplayWidth {
    /// The columns of one scalar on its own: 0, 1 or 2.
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return 1 }
        if contains(zeroWidth, value) { return 0 }
        return contains(wide, value) ? 2 : 1
    }

    /// The columns of one grapheme cluster: 0, 1 or 2.
    public static func columns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return columns(first) }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // a flag
        var widest = 0
        for scalar in scalars {
            if scalar.value == 0xFE0F { return 2 }
            widest = max(widest, columns(scalar))
        }
        return widest
    }

    private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var (low, high) = (0, ranges.count)
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else if ranges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}

extension DisplayWidth {
    /// Reads text a character at a time, giving each its columns, with the terminal's own escape
    /// sequences (`ESC [ … m`, which bookclub's styles write) taking none.
    public struct Counter {
        private var inEscape = false
        private var sawBracket = false

        public init() {}

        public mutating func columns(_ character: Character) -> Int {
            if inEscape {
                if !sawBracket {
                    sawBracket = true
                    if character != "[" { inEscape = false }
                } else if let value = character.unicodeScalars.first?.value, (0x40...0x7E).contains(value) {
                    inEscape = false
                }
                return 0
            }
            if character == "\u{1B}" {
                (inEscape, sawBracket) = (true, false)
                return 0
            }
            return DisplayWidth.columns(character)
        }
    }
}

extension String {
    /// The terminal columns this text takes (see `DisplayWidth`); its lines laid end to end, and
    /// escape sequences that style it taking none.
    public var displayWidth: Int {
        if let columns = utf8.withContiguousStorageIfAvailable(Self.simpleColumns) ?? nil { return columns }
        var counter = DisplayWidth.Counter()
        return reduce(0) { $0 + counter.columns($1) }
    }

    /// The columns of text whose every scalar joins no other into a cluster, read in one pass over
    /// its UTF-8: printable ASCII (the common case), Latin letters (U+00A0 to U+02FF), box drawing
    /// and blocks (U+2500 to U+259F, progress bars), a column each; kana but for the combining marks
    /// (U+3041 to U+3096, U+309B to U+30FF), the CJK ideographs (U+4E00 to U+9FFF) and Hangul
    /// syllables (U+AC00 to U+D7A3), two each; `nil` for any other text.
    private static func simpleColumns(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        var (offset, columns) = (0, 0)
        while offset < utf8.count {
            let lead = utf8[offset]
            switch lead {
            case 0x20..<0x7F: offset += 1
            // U+00A0 to U+02FF: C2 A0 to CB BF.
            case 0xC2...0xCB where offset + 1 < utf8.count:
                if lead == 0xC2 && utf8[offset + 1] < 0xA0 { return nil }
                offset += 2
            // U+2500 to U+259F: E2 94 80 to E2 96 9F.
            case 0xE2 where offset + 2 < utf8.count:
                let (second, third) = (utf8[offset + 1], utf8[offset + 2])
                guard (0x94...0x96).contains(second), second < 0x96 || third < 0xA0 else { return nil }
                offset += 3
            case 0xE3...0xED where offset + 2 < utf8.count:
                let scalar =
                    UInt32(lead & 0x0F) << 12 | UInt32(utf8[offset + 1] & 0x3F) << 6
                    | UInt32(utf8[offset + 2] & 0x3F)
                guard
                    (0x3041...0x3096).contains(scalar) || (0x309B...0x30FF).contains(scalar)
                        || (0x4E00...0x9FFF).contains(scalar) || (0xAC00...0xD7A3).contains(scalar)
                else { return nil }
                offset += 3
                columns += 2
                continue
            default: return nil
            }
            columns += 1
        }
        return columns
    }

    /// The text cut to at most `width` columns, ending in `…` when it was cut. A grapheme, or a wide
    /// character, is never cut in half.
    public func truncated(toWidth width: Int) -> String {
        guard displayWidth > width else { return self }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in self {
            let columns = DisplayWidth.columns(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }
}
