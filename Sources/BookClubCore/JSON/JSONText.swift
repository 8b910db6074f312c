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
    /// the order written (the first byte lowest); `nil` when a byte is not a hex digit.
    static func hexBytes(_ word: UInt64) -> UInt32? {
        let high: UInt64 = 0x8080_8080_8080_8080
        guard word & high == 0 else { return nil }
        let folded = word | 0x2020_2020_2020_2020
        let digits = bytesAtLeast(UInt8(ascii: "0"), word) & ~bytesAtLeast(UInt8(ascii: "9") + 1, word)
        let letters = bytesAtLeast(UInt8(ascii: "a"), folded) & ~bytesAtLeast(UInt8(ascii: "f") + 1, folded)
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

    /// The eight hex digits, in upper case, of the four bytes of `value` (its first byte lowest), in
    /// the order they are written (the first digit lowest): `hexBytes` the other way.
    static func hexDigits(_ value: UInt32) -> UInt64 {
        // Each byte in the low byte of 16 bits, then its high four bits there and its low four above.
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        let nibbles = spread >> 4 & 0x000F_000F_000F_000F | (spread & 0x000F_000F_000F_000F) << 8
        // `0` plus the value, and 7 more for a letter (10 or more, which 6 more carries past 15).
        let letters = (nibbles &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 7
    }

    /// `2026-11-20T19:00:00Z`, as JSONEncoder's `.iso8601` writes it; `nil` for anything else.
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(UnsafeRawBufferPointer($0)) }
    }

    /// The same, from the text's bytes, read eight at a time: the separators compared in place, the
    /// digits checked as `hexBytes` checks them.
    static func date(_ bytes: UnsafeRawBufferPointer) -> Date? {
        guard bytes.count == 20, let base = bytes.baseAddress else { return nil }
        // `YYYY-MM-`, `DDTHH:MM` and `:SSZ`, the first byte lowest; each digit's byte in `digits`.
        let words = (
            UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)),
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
        )
        let digits: (UInt64, UInt64, UInt64) = (0x00FF_FF00_FFFF_FFFF, 0xFFFF_00FF_FF00_FFFF, 0x00FF_FF00)
        func areDigits(_ word: UInt64, _ mask: UInt64) -> Bool {
            let high = mask & 0x8080_8080_8080_8080
            return word & high == 0
                && bytesAtLeast(UInt8(ascii: "0"), word) & ~bytesAtLeast(UInt8(ascii: "9") + 1, word) & high == high
        }
        guard words.0 & ~digits.0 == 0x2D00_002D_0000_0000, words.1 & ~digits.1 == 0x0000_3A00_0054_0000,
            words.2 & ~digits.2 == 0x5A00_003A, areDigits(words.0, digits.0), areDigits(words.1, digits.1),
            areDigits(words.2, digits.2)
        else { return nil }
        // A digit's value is its low four bits.
        func digit(_ word: UInt64, _ index: Int) -> Int { Int(truncatingIfNeeded: word >> (8 * index)) & 0x0F }
        let year = digit(words.0, 0) * 1000 + digit(words.0, 1) * 100 + digit(words.0, 2) * 10 + digit(words.0, 3)
        let month = digit(words.0, 5) * 10 + digit(words.0, 6)
        let day = digit(words.1, 0) * 10 + digit(words.1, 1)
        let hour = digit(words.1, 3) * 10 + digit(words.1, 4)
        let minute = digit(words.1, 6) * 10 + digit(words.1, 7)
        let second = digit(words.2, 1) * 10 + digit(words.2, 2)
        // Before 1583 Foundation's calendar is Julian: such dates are left to the decoder.
        guard year >= 1583, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = LocalDateTime.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// The high bit of each byte of `word` (each below 0x80) that is `low` or more: a byte below 0x80
    /// plus `0x80 - low` sets its high bit, and carries into no other byte, exactly then.
    static func bytesAtLeast(_ low: UInt8, _ word: UInt64) -> UInt64 {
        (word &+ 0x0101_0101_0101_0101 &* UInt64(0x80 - low)) & 0x8080_8080_8080_8080
    }
}
