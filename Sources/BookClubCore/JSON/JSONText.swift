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
        let base = text.baseAddress!
        func eight(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func four(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        guard let first = hexBytes(eight(0)), let second = hexBytes(four(9) | four(14) << 32),
            let third = hexBytes(four(19) | four(24) << 32), let fourth = hexBytes(eight(28))
        else { return nil }
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        withUnsafeMutableBytes(of: &bytes) { out in
            out.storeBytes(of: (UInt64(first) | UInt64(second) << 32).littleEndian, as: UInt64.self)
            out.storeBytes(of: (UInt64(third) | UInt64(fourth) << 32).littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }

    /// The four bytes written as the eight hex digits of `word`, its lowest byte the first digit, in
    /// the order written (the first byte lowest); `nil` when a byte is not a hex digit. Eight bytes at
    /// once: a byte below 0x80 plus `0x80 - low` sets its high bit, and carries into no other byte,
    /// exactly when it is `low` or more.
    static func hexBytes(_ word: UInt64) -> UInt32? {
        let high: UInt64 = 0x8080_8080_8080_8080
        guard word & high == 0 else { return nil }
        func atLeast(_ low: UInt8, _ word: UInt64) -> UInt64 {
            (word &+ 0x0101_0101_0101_0101 &* UInt64(0x80 - low)) & high
        }
        let folded = word | 0x2020_2020_2020_2020
        let digits = atLeast(UInt8(ascii: "0"), word) & ~atLeast(UInt8(ascii: "9") + 1, word)
        let letters = atLeast(UInt8(ascii: "a"), folded) & ~atLeast(UInt8(ascii: "f") + 1, folded)
        guard digits | letters == high else { return nil }
        // A digit's value is its low four bits; a letter's, those plus 9.
        let values = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (letters >> 7) &* 9
        // Each pair of digits into the low byte of its 16 bits, then the four bytes side by side.
        let pairs = (values & 0x000F_000F_000F_000F) << 4 | (values >> 8) & 0x000F_000F_000F_000F
        let halves = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: halves | halves >> 16)
    }

    /// Whether `text` holds no quote, backslash or control character: JSON writes it as it is. Eight
    /// bytes at once: a byte below `limit` (at most 0x80) less `limit` borrows into its high bit, and
    /// the first such byte of a word is found exactly (those after it may be wrong, which is enough).
    static func needsNoEscape(_ text: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        func hasByteBelow(_ limit: UInt8, _ word: UInt64) -> Bool {
            (word &- ones &* UInt64(limit)) & ~word & ones << 7 != 0
        }
        var at = 0
        while at + 8 <= text.count {
            let word = text.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            if hasByteBelow(0x20, word) || hasByteBelow(1, word ^ ones &* 0x22) || hasByteBelow(1, word ^ ones &* 0x5C)
            {
                return false
            }
            at += 8
        }
        return !text[at...].contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
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
