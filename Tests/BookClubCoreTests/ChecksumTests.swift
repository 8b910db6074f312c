import Foundation
import Testing

@testable import BookClubCore

/// CRC-32C as every other implementation computes it, and the seal that journal commits and undo
/// records carry.
@Suite struct ChecksumTests {
    @Test func crc32cMatchesTheStandardCheckValues() {
        // The check value of the CRC catalogue, and RFC 3720's test patterns (iSCSI).
        #expect(CRC32C.checksum(Data("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum(Data(count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum(Data(repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum(Data((0..<32).map { UInt8($0) })) == 0x46DD_794E)
        #expect(CRC32C.checksum(Data()) == 0)
    }

    @Test func aChecksumCanBeContinued() {
        let data = Data("ノルウェイの森 🌲 and a line long enough to take the eight-byte path".utf8)
        for cut in [0, 1, 7, 8, 9, data.count] {
            let first = data.prefix(cut).withUnsafeBytes { CRC32C.update(0, $0) }
            let whole = data.dropFirst(cut).withUnsafeBytes { CRC32C.update(first, $0) }
            #expect(whole == CRC32C.checksum(data), "cut at \(cut)")
        }
    }

    @Test func aSealHoldsUntilAByteChanges() throws {
        let covered = Data(#"{"book":{"id":"dune","title":"Dune"}}"#.utf8) + Data("\n".utf8)
        let line = Seal.seal(Data(#"{"commit":{"state":"a1"},"length":38}"#.utf8), covering: covered)
        #expect(String(decoding: line, as: UTF8.self).hasPrefix(#"{"commit":{"state":"a1"},"length":38,"crc":""#))
        #expect(Seal.check(line, covering: covered) == true)
        #expect(
            Seal.check(Data(#"{"commit":{"state":"a1"}}"#.utf8)) == nil, "a line of an earlier bookclub has no seal")
        for index in [0, covered.count / 2, covered.count - 1] {
            var torn = covered
            torn[index] = 0
            #expect(Seal.check(line, covering: torn) == false, "a zeroed byte of the change at \(index)")
        }
        for index in [1, line.count / 2, line.count - 4] {
            var torn = line
            torn[index] ^= 0x20
            #expect(Seal.check(torn, covering: covered) == false, "a changed byte of the seal's line at \(index)")
        }
        var cut = line
        cut.replaceSubrange((cut.count - 12)..<(cut.count - 2), with: Data(count: 10))
        #expect(
            Seal.check(cut, covering: covered) == false,
            "a line whose seal was zeroed is torn, not of an earlier bookclub")
    }
}
