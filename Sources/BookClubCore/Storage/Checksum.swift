#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// CRC-32C (Castagnoli), the checksum of ext4's metadata, iSCSI and LevelDB's log: what tells a
/// journal transaction or an undo record written whole from one a power cut left torn.
enum CRC32C {
    /// Eight tables of 256 entries, one after the other, for the slicing-by-8 method: eight bytes a step.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[byte] = crc
        }
        for index in 256..<(8 * 256) {
            tables[index] = (tables[index - 256] >> 8) ^ tables[Int(tables[index - 256] & 0xFF)]
        }
        return tables
    }()

    /// The checksum of `bytes` following those a running checksum `crc` has seen (0 to start).
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        // The running value is the closure's own, so that it stays in a register.
        tables.withUnsafeBufferPointer { t in
            var crc = ~crc
            var offset = 0
            while offset + 8 <= bytes.count {
                // Eight bytes in one load, little-endian as the method reads them.
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let low = crc ^ UInt32(truncatingIfNeeded: word)
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                offset += 8
            }
            while offset < bytes.count {
                crc = (crc >> 8) ^ t[Int((crc ^ UInt32(bytes[offset])) & 0xFF)]
                offset += 1
            }
            return ~crc
        }
    }

    static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { update(0, $0) }
    }
}

/// FNV-1a, 64 bits: a short hash of bytes, the same on every machine (names of paths, ids derived
/// from text, the buckets of the index of names).
enum FNV1a {
    static let start: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of `bytes` following those a running hash `value` has seen (`start` to start).
    static func hash(_ bytes: some Sequence<UInt8>, from value: UInt64 = start) -> UInt64 {
        var value = value
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return value
    }
}

/// A JSON Lines record that carries its own checksum: `{…}` sealed is `{…,"crc":"1a2b3c4d"}`, the
/// CRC-32C of what the record covers before it (a journal's transaction) and of the record up to `,"crc"`.
/// A record without the key is one of an earlier bookclub, taken as it is.
enum Seal {
    static let key = Data(utf8: #","crc":""#)
    /// `,"crc":"` and eight hex digits and `"}`.
    static let sealLength = key.count + 10

    /// The object, sealed, with the checksum of `covered` then the object without its closing brace.
    static func seal(_ object: Data, covering covered: Data = Data()) -> Data {
        let open = object.dropLast()
        let crc = checksum(covered, open)
        let hex = String(crc, radix: 16)
        return Data(open) + key + Data(utf8: hex.zeroPadded(to: 8)) + Data(utf8: #""}"#)
    }

    /// `true` when the line is sealed and its checksum holds, `false` when it is sealed and does not
    /// (it was torn), `nil` when it carries no seal.
    static func check(_ line: Data, covering covered: Data = Data()) -> Bool? {
        line.withUnsafeBytes { line in covered.withUnsafeBytes { check(line, covering: $0) } }
    }

    /// As `check(_:covering:)`, of bytes in place (a journal's lines, read where they lie).
    static func check(_ line: UnsafeRawBufferPointer, covering covered: UnsafeRawBufferPointer) -> Bool? {
        let count = line.count
        guard count > sealLength, line[count - 1] == UInt8(ascii: "}"),
            key.withUnsafeBytes({
                sameBytes(line.baseAddress! + (count - sealLength), $0.baseAddress!, count: $0.count)
            })
        else {
            // A line that names a checksum but has none where it belongs was torn.
            return JSONLine.find(Array(key.dropLast(2)), in: line) == nil ? nil : false
        }
        let digits = String(decoding: UnsafeRawBufferPointer(rebasing: line[(count - 10)..<(count - 2)]), as: UTF8.self)
        guard let expected = UInt32(digits, radix: 16) else { return false }
        let crc = CRC32C.update(0, covered)
        return CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: line[..<(count - sealLength)])) == expected
    }

    private static func checksum(_ covered: Data, _ object: Data) -> UInt32 {
        let crc = covered.withUnsafeBytes { CRC32C.update(0, $0) }
        return object.withUnsafeBytes { CRC32C.update(crc, $0) }
    }
}
