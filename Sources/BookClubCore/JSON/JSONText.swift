#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The two texts of the store's JSON read byte by byte on its fast paths: UUIDs and times.
enum JSONText {
    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case; `nil` for anything else.
    static func uuid(_ text: UnsafeRawBufferPointer) -> UUID? {
        guard text.count == 36, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
            text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-")
        else { return nil }
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        let complete = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            // Any byte that is not a hex digit sets the high bit of `invalid`.
            var invalid: UInt8 = 0
            for position in 0..<16 {
                let index = hexOffsets[position]
                let high = nibbles[Int(text[index])]
                let low = nibbles[Int(text[index + 1])]
                invalid |= high | low
                out[position] = high << 4 | low & 0x0F
            }
            return invalid & 0x80 == 0
        }
        return complete ? UUID(uuid: bytes) : nil
    }

    /// Where each byte's two hex digits begin in `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`.
    private static let hexOffsets = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

    /// The value of each byte as a hex digit, 0xFF for any other byte.
    private static let nibbles: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        default: 0xFF
        }
    }

    /// `2026-11-20T19:00:00Z`, as JSONEncoder's `.iso8601` writes it; `nil` for anything else.
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(UnsafeRawBufferPointer($0)) }
    }

    /// The same, from the text's bytes.
    static func date(_ bytes: UnsafeRawBufferPointer) -> Date? {
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        // Before 1583 Foundation's calendar is Julian: such dates are left to the decoder.
        guard let year = number(0..<4), year >= 1583, let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month),
            (1...31).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = LocalDateTime.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
