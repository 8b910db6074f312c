import Foundation
import Testing

@testable import BookClubCore

/// The fast paths' readers of eight bytes at once against the plain readings they replace.
@Suite struct JSONTextTests {
    /// The scanner's comparison of a few dozen bytes, eight at a time, says what `memcmp` says: texts of
    /// every length up to 40, from the first to the fourth byte of their buffers, alike and unlike at
    /// each place (the last byte of a word, and the bytes after the last whole word, included).
    @Test func shortComparisonsAgreeWithMemcmp() {
        var random = SeededGenerator(state: 354)
        for count in 0...40 {
            for offset in 0...3 {
                let a = (0..<(count + 3)).map { _ in UInt8.random(in: 0...255, using: &random) }
                var cases = [a]
                for place in offset..<(offset + count) {
                    var b = a
                    b[place] ^= UInt8.random(in: 1...255, using: &random)
                    cases.append(b)
                }
                for b in cases {
                    let (same, memcmp) = a.withUnsafeBytes { a in
                        b.withUnsafeBytes { b in
                            (
                                JSONScanner.same(a.baseAddress! + offset, b.baseAddress! + offset, count: count),
                                count == 0 || sameBytes(a.baseAddress! + offset, b.baseAddress! + offset, count: count)
                            )
                        }
                    }
                    #expect(same == memcmp, "\(a) \(b) from \(offset)")
                    #expect(same == (a[offset..<(offset + count)] == b[offset..<(offset + count)]))
                }
            }
        }
    }

    /// A UUID is read in either case, as Foundation reads it, and anything else not at all (Foundation
    /// also takes signs and blanks, through `sscanf`): every byte of the 256 at every place, and random
    /// texts of hex digits, dashes and the bytes next to them.
    @Test func uuidsReadAsFoundationReadsThem() {
        let written = "E621E1F8-C36C-495A-93fc-0c247a3e6e5f"
        func read(_ bytes: [UInt8]) -> UUID? { bytes.withUnsafeBytes { JSONText.uuid($0) } }
        let hex = Set("0123456789abcdefABCDEF".utf8)
        func expected(_ bytes: [UInt8]) -> UUID? {
            let isUUID = bytes.indices.allSatisfy {
                [8, 13, 18, 23].contains($0) ? bytes[$0] == 0x2D : hex.contains(bytes[$0])
            }
            return isUUID ? UUID(uuidString: String(decoding: bytes, as: UTF8.self)) : nil
        }
        #expect(read(Array(written.utf8)) == UUID(uuidString: written))
        #expect(read(Array(written.utf8)) != nil)
        var accepted = 0
        for place in 0..<36 {
            for byte in 0...255 {
                var bytes = Array(written.utf8)
                bytes[place] = UInt8(byte)
                #expect(read(bytes) == expected(bytes), "\(bytes)")
            }
        }
        // Mostly hex digits, a byte in 40 something else.
        let hexDigits = Array("0123456789abcdefABCDEF".utf8)
        let others = Array("-/:@G`g".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        var random = SeededGenerator(state: 38)
        for _ in 0..<5_000 {
            var bytes = (0..<36).map { _ in
                Int.random(in: 0..<40, using: &random) == 0
                    ? others.randomElement(using: &random)! : hexDigits.randomElement(using: &random)!
            }
            for dash in [8, 13, 18, 23] where Int.random(in: 0..<40, using: &random) != 0 { bytes[dash] = 0x2D }
            #expect(read(bytes) == expected(bytes), "\(bytes)")
            if expected(bytes) != nil { accepted += 1 }
        }
        #expect(accepted > 100)
    }

    /// A UUID is written as `uuidString` spells it, and read back: random ones and the extremes.
    @Test func uuidsAreWrittenAsFoundationSpellsThem() {
        var random = SeededGenerator(state: 4)
        let extremes =
            [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))] + [
                UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
            ]
        func randomID() -> UUID {
            var bytes = extremes[0].uuid
            withUnsafeMutableBytes(of: &bytes) { raw in
                raw.storeBytes(of: random.next(), as: UInt64.self)
                raw.storeBytes(of: random.next(), toByteOffset: 8, as: UInt64.self)
            }
            return UUID(uuid: bytes)
        }
        for id in extremes + (0..<2_000).map({ _ in randomID() }) {
            var writer = JSONWriter(compact: true)
            writer.uuid(id)
            let written = writer.take()
            #expect(String(decoding: written, as: UTF8.self) == "\"\(id.uuidString)\"")
            #expect(written.dropFirst().dropLast().withUnsafeBytes(JSONText.uuid) == id)
        }
    }

    /// A number is written as its `description` spells it (less a whole number's `.0`), those of a few
    /// decimal places from 0.0001 to 1 without printing them in full: every one of up to 5 places, and
    /// random ones of any.
    @Test func numbersAreWrittenAsTheirDescriptionsSpellThem() {
        func written(_ value: Double) -> String {
            var writer = JSONWriter(compact: true)
            writer.object { $0.field("p", value) }
            return String(decoding: writer.take(), as: UTF8.self)
        }
        func expected(_ value: Double) -> String {
            let text = value.description
            return #"{"p":"# + (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + "}"
        }
        var random = SeededGenerator(state: 5)
        let fewPlaces = (0...100_000).map { Double($0) / 100_000 }
        let anyPlaces = (0..<20_000).map { _ in Double.random(in: 0...1, using: &random) }
        // Six to eight places: any (from 0.00000001, in exponents below 0.0001), and from 0.0001 up.
        let morePlaces = (0..<20_000).map { index in
            let places = 6 + index % 3
            let scale = [1e6, 1e7, 1e8][places - 6]
            return Double(Int.random(in: (index % 2 == 0 ? 1 : Int(scale) / 10_000)..<Int(scale), using: &random))
                / scale
        }
        let edges = [0.0001, 0.0001.nextDown, 0.0001.nextUp, 1.0.nextDown, 0.1 + 0.2, 1e-05, 0.12345678, 0.123456789]
        for value in fewPlaces + anyPlaces + morePlaces + edges + [0, 1, 2.5, 1e300] {
            #expect(written(value) == expected(value), "\(value)")
        }
    }

    /// A time as bookclub writes it is read as the decoder reads it, and any other text not at all:
    /// every byte of the 256 at every place, and random times over the years the reader takes.
    @Test func timesReadAsTheDecoderReadsThem() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        func read(_ bytes: [UInt8]) -> Date? { bytes.withUnsafeBytes { JSONText.date($0) } }
        func decoded(_ bytes: [UInt8]) -> Date? {
            try? decoder.decode(Date.self, from: Data([0x22] + bytes + [0x22]))
        }
        let written = Array("2024-02-29T23:59:58Z".utf8)
        #expect(read(written) == Date(timeIntervalSince1970: 1_709_251_198))
        for place in written.indices {
            for byte in 0...255 {
                var bytes = written
                bytes[place] = UInt8(byte)
                // Read, it is the decoder's reading; anything but a digit for a digit is not read.
                let date = read(bytes)
                if let date { #expect(date == decoded(bytes), "\(bytes)") }
                if byte != written[place], !(0x30...0x39).contains(byte) || !(0x30...0x39).contains(written[place]) {
                    #expect(date == nil, "\(bytes)")
                }
            }
        }
        var random = SeededGenerator(state: 1583)
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: -12_212_553_600..<253_402_300_800, using: &random)  // 1583 to 9999
            let text = Array(Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601).utf8)
            #expect(
                read(text) == Date(timeIntervalSince1970: Double(seconds)), "\(String(decoding: text, as: UTF8.self))")
        }
    }

    /// A text needs no escape when no byte is a quote, a backslash or a control character, wherever
    /// in a word of eight it falls and whatever comes after it.
    @Test func aTextNeedsNoEscapeExactlyWhenNoByteDoes() {
        let bytes: [UInt8] = [
            0x00, 0x01, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
        ]
        var random = SeededGenerator(state: 2038)
        for _ in 0..<50_000 {
            let text = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                Int.random(in: 0..<4, using: &random) == 0
                    ? bytes.randomElement(using: &random)! : UInt8.random(in: 0x20...0x7E, using: &random)
            }
            let expected = !text.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
            #expect(text.withUnsafeBytes(JSONText.needsNoEscape) == expected, "\(text)")
        }
    }
}
