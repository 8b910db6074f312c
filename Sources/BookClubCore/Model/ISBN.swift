#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An ISBN with a right check digit: ISBN-10 (its last digit may be `X`) or ISBN-13, hyphens and
/// spaces allowed in what is typed. Only such a one goes into a URL.
public struct ISBN: Hashable, Sendable, CustomStringConvertible {
    /// The digits, without hyphens or spaces (and a last `X` of an ISBN-10, in upper case).
    public let digits: String

    public init?(_ text: String) {
        let characters = text.filter { $0 != "-" && $0 != " " }.uppercased()
        guard characters.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "X") }) else { return nil }
        switch characters.count {
        case 10:
            guard !characters.dropLast().contains("X"), Self.hasISBN10CheckDigit(characters) else { return nil }
        case 13:
            // The ISBN-13 made of its first twelve digits has the same check digit.
            guard !characters.contains("X"), Self.thirteen(fromTwelve: characters.prefix(12)) == characters else {
                return nil
            }
        default: return nil
        }
        digits = characters
    }

    public var description: String { digits }

    /// The ISBN-13 of the same book: one name for its cached answer and cover, whichever form was typed.
    public var thirteen: String { Self.matchKey(digits) ?? digits }

    /// Twelve digits and the check digit of an ISBN-13.
    static func thirteen(fromTwelve twelve: Substring) -> String {
        let sum = twelve.enumerated().reduce(0) { sum, digit in
            sum + (digit.element.wholeNumberValue ?? 0) * (digit.offset % 2 == 0 ? 1 : 3)
        }
        return twelve + String((10 - sum % 10) % 10)
    }
}

/// ISBNs as exports write them, and as imports compare them.
extension ISBN {
    /// The ISBN in an export's cell: `="9780140236668"` (Goodreads guards it from Excel so) unwrapped,
    /// hyphens and spaces dropped. An ISBN-10 that lost its leading zeros to a spreadsheet
    /// (`140143505`, as in StoryGraph exports) gets them back when its check digit then holds. `nil`
    /// when the cell is empty or holds no ISBN-10 or ISBN-13 (an Amazon ASIN, say: StoryGraph's
    /// `ISBN/UID` holds one for some e-books).
    public static func cleaned(_ cell: String) -> String? {
        var text = Substring(cell.trimmed)
        if text.hasPrefix("=") { text = text.dropFirst() }
        if text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 { text = text.dropFirst().dropLast() }
        let compact = text.filter { $0 != "-" && $0 != " " }.uppercased()
        let digits = compact.allSatisfy { $0.isASCII && $0.isNumber }
        if compact.count == 13 && digits { return compact }
        guard (8...10).contains(compact.count), compact.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
            compact.last!.isNumber || compact.last == "X"
        else { return nil }
        let padded = compact.zeroPadded(to: 10)
        return padded == compact || hasISBN10CheckDigit(padded) ? padded : nil
    }

    /// Whether ten characters weighted 10 down to 1 (X is 10) sum to a multiple of 11.
    static func hasISBN10CheckDigit(_ isbn: String) -> Bool {
        let sum = isbn.enumerated().reduce(0) { sum, character in
            sum + (10 - character.offset) * (character.element == "X" ? 10 : character.element.wholeNumberValue ?? 0)
        }
        return sum % 11 == 0
    }

    /// What two ISBNs are compared by: the digits (and X) only, an ISBN-10 as its ISBN-13, so that
    /// `0-14-023666-6` matches `9780140236668`. `nil` when there is nothing to compare.
    public static func matchKey(_ isbn: String) -> String? {
        let key = isbn.uppercased().filter { ($0.isASCII && $0.isNumber) || $0 == "X" }
        guard !key.isEmpty else { return nil }
        guard key.count == 10, key.dropLast().allSatisfy(\.isNumber) else { return key }
        return thirteen(fromTwelve: "978" + key.dropLast())
    }
}
