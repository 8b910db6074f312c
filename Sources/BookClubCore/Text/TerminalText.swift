/// Text for people: bookclub's own words and layout as they are, and every value put into it (a
/// title, a note, a path, a message read from a file) with its control characters shown, never sent
/// raw to a terminal.
///
/// What is written in the code is bookclub's; what is interpolated is not, unless it is itself
/// `TerminalText`:
///
/// ```swift
/// let line: TerminalText = "Added '\(book.title)'."
/// // A title holding ESC [ 2 J prints as  Added 'Dune\u{1B}[2J'.
/// ```
///
/// The only ways from a `String` to `TerminalText` are interpolation and `init(_:)`, which escape it,
/// `init(keepingLineBreaks:)`, which escapes each line, and `init(layout:)`, which says that the text
/// is bookclub's own (a colour, a terminal image, text already escaped and only wrapped or cut). So
/// what prints text for people (`Output.write`, the renderers' tables and styles) takes this type,
/// and a renderer cannot forget the rule: a `String` given where `TerminalText` is wanted does not
/// compile.
///
/// The rule, `Unicode.Scalar.isTerminalUnsafe`: control characters (C0 including tab and line
/// break, DEL, C1) and the marks that reorder text are written as Swift writes them in a string,
/// `\u{1B}`, `\t`, `\n`.
public struct TerminalText: Hashable, Sendable {
    /// The text as it is sent.
    public private(set) var string: String

    /// A value from outside, its control characters shown.
    public init(_ value: some StringProtocol) {
        string = ""
        Self.appendEscaping(value, to: &string)
    }

    /// A value from outside, its control characters shown: a `String` read in place, without the
    /// generic path's protocol calls (a table cell is one).
    public init(_ value: String) {
        string = ""
        Self.appendEscaping(value, to: &string)
    }

    /// A value of several lines (a note, a review, a document made of values): each line's control
    /// characters shown, the line breaks kept.
    public init(keepingLineBreaks value: some StringProtocol) {
        string = ""
        for (number, line) in value.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if number > 0 { string += "\n" }
            Self.appendEscaping(line, to: &string)
        }
    }

    /// Text bookclub made itself, sent as it is: the sequences of a colour or of a terminal image,
    /// or `TerminalText` taken apart and put together again (wrapped, cut, padded). Never a value
    /// from outside.
    public init(layout: String) {
        string = layout
    }

    public var isEmpty: Bool { string.isEmpty }

    /// The terminal columns it takes, escape sequences of colour taking none.
    public var displayWidth: Int { string.displayWidth }

    /// Its lines, at the line breaks bookclub put there (a value's own are shown as `\n`).
    public var lines: [TerminalText] {
        string.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText(layout: String($0)) }
    }

    /// Cut with `…` to fit `width` columns.
    public func truncated(toWidth width: Int) -> TerminalText {
        TerminalText(layout: string.truncated(toWidth: width))
    }

    public static func + (left: TerminalText, right: TerminalText) -> TerminalText {
        TerminalText(layout: left.string + right.string)
    }

    public static func += (left: inout TerminalText, right: TerminalText) {
        left.string += right.string
    }

    /// `count` spaces.
    public static func spaces(_ count: Int) -> TerminalText {
        TerminalText(layout: String(repeating: " ", count: max(0, count)))
    }

    /// Whether no scalar of this UTF-8 is `isTerminalUnsafe`, read from its bytes: the unsafe scalars
    /// are the controls (U+0000–U+001F, U+007F–U+009F) and the bidirectional marks, whose encodings
    /// begin with 0xC2, 0xD8 or 0xE2 (a table's every row has block characters and an ellipsis, which
    /// the scalars' properties took a microsecond each to clear).
    private static func isSafe(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var (lead, second): (UInt8, UInt8) = (0, 0)
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F { return false }
            switch lead {
            case 0xC2:
                if (0x80...0x9F).contains(byte) { return false }
                lead = 0
            case 0xD8:
                if byte == 0x9C { return false }
                lead = 0
            case 0xE2 where second == 0:
                second = byte
                continue
            case 0xE2:
                if second == 0x80 && (byte == 0x8E || byte == 0x8F || (0xAA...0xAE).contains(byte)) { return false }
                if second == 0x81 && (0xA6...0xA9).contains(byte) { return false }
                (lead, second) = (0, 0)
            default: break
            }
            if byte == 0xC2 || byte == 0xD8 || byte == 0xE2 { (lead, second) = (byte, 0) }
        }
        return true
    }

    private static func appendEscaping(_ value: String, to result: inout String) {
        var value = value
        if value.withUTF8(isSafe) {
            result += value
            return
        }
        appendEscaped(value, to: &result)
    }

    private static func appendEscaping(_ value: some StringProtocol, to result: inout String) {
        if value.utf8.withContiguousStorageIfAvailable(isSafe) ?? Array(value.utf8).withUnsafeBufferPointer(isSafe) {
            result += value
            return
        }
        appendEscaped(value, to: &result)
    }

    /// `value` with its unsafe scalars written as Swift writes them in a string.
    private static func appendEscaped(_ value: some StringProtocol, to result: inout String) {
        for scalar in value.unicodeScalars {
            guard scalar.isTerminalUnsafe else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
    }
}

extension TerminalText: ExpressibleByStringInterpolation {
    /// Words written in bookclub's code, as they are.
    public init(stringLiteral literal: String) {
        string = literal
    }

    public init(stringInterpolation: StringInterpolation) {
        string = stringInterpolation.string
    }

    /// The literal parts as they are, the values shown.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var string = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            string.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            string += literal
        }

        /// Text for people already: as it is.
        public mutating func appendInterpolation(_ text: TerminalText) {
            string += text.string
        }

        /// A value: shown.
        public mutating func appendInterpolation(_ value: some StringProtocol) {
            TerminalText.appendEscaping(value, to: &string)
        }

        /// A value: shown (a `String` read in place).
        public mutating func appendInterpolation(_ value: String) {
            TerminalText.appendEscaping(value, to: &string)
        }

        /// A number: as it is.
        public mutating func appendInterpolation(_ value: some BinaryInteger) {
            string += String(value)
        }

        /// Anything else, as it describes itself: shown.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            TerminalText.appendEscaping(value.description, to: &string)
        }
    }
}

extension Sequence where Element == TerminalText {
    /// The texts one after the other, `separator` between each two.
    public func joined(separator: TerminalText = "") -> TerminalText {
        var result = TerminalText(layout: "")
        for (number, text) in enumerated() {
            if number > 0 { result += separator }
            result += text
        }
        return result
    }
}

extension Unicode.Scalar {
    /// Control characters (C0 with tab and line break, DEL, C1), and the marks that reorder text
    /// (bidirectional overrides, isolates and marks): what `TerminalText` shows escaped.
    public var isTerminalUnsafe: Bool {
        // ASCII's controls, without a look at the scalar's properties.
        if value < 0x80 { return value < 0x20 || value == 0x7F }
        return properties.generalCategory == .control || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || [0x200E, 0x200F, 0x061C].contains(value)
    }
}
