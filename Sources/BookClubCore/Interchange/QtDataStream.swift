#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value of Qt's `QDataStream` format (Qt 5, big-endian), as a Kobo keeps the `ExtraData` of an
/// event: a `QMap<QString, QVariant>` such as `{"eventTimestamps": [1738688962, …]}`.
///
/// Only the kinds of value bookclub reads, or must step over, are known: numbers, strings, byte
/// arrays, lists, maps, dates and times. Reading is bounded whatever the bytes say: every length
/// and count is checked against the bytes left before anything is made of it, nesting stops at
/// `deepest`, and no more than `mostValues` values are read.
public indirect enum QtValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    /// A `QString`; `nil` for Qt's null string.
    case string(String?)
    case bytes([UInt8])
    case list([QtValue])
    /// A `QVariantMap` or `QVariantHash`, in the stream's order (a key may come twice).
    case map([QtEntry])
    /// A `QDateTime`, when it names a moment (in UTC, or at an offset).
    case dateTime(Date?)

    /// The value as a whole number, when it is one.
    public var integer: Int64? {
        switch self {
        case .int(let value): value
        case .uint(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .double(let value): value.isFinite && value.rounded() == value && abs(value) < 1e15 ? Int64(value) : nil
        default: nil
        }
    }

    /// The value of `key` in a map: the last one given.
    public subscript(key: String) -> QtValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.last { $0.key == key }?.value
    }
}

/// A key of a `QVariantMap` and its value.
public struct QtEntry: Equatable, Sendable {
    public var key: String
    public var value: QtValue
}

/// Reads `QDataStream` bytes; see `QtValue`.
public struct QtDataStream {
    /// Why bytes could not be read, and where.
    public struct Failure: Error, Equatable, Sendable {
        public var offset: Int
        public var reason: String
    }

    /// The deepest nesting of lists and maps read.
    public static let deepest = 8
    /// The most values read from one stream.
    public static let mostValues = 100_000

    private let bytes: [UInt8]
    private var offset = 0
    private var values = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A `QMap<QString, QVariant>` written on its own (as Kobo writes `ExtraData`), which must fill
    /// the bytes.
    public static func map(_ bytes: [UInt8]) throws(Failure) -> QtValue {
        var stream = QtDataStream(bytes)
        let value = try stream.readMap(depth: 0)
        guard stream.offset == bytes.count else {
            throw Failure(offset: stream.offset, reason: "\(bytes.count - stream.offset) bytes after the map")
        }
        return value
    }

    /// A `QVariant` (type, null flag, value), which must fill the bytes.
    public static func variant(_ bytes: [UInt8]) throws(Failure) -> QtValue {
        var stream = QtDataStream(bytes)
        let value = try stream.readVariant(depth: 0)
        guard stream.offset == bytes.count else {
            throw Failure(offset: stream.offset, reason: "\(bytes.count - stream.offset) bytes after the value")
        }
        return value
    }

    /// Bytes from hexadecimal digits (as SQLite's `hex()` prints a blob); `nil` for anything else.
    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    // MARK: - Reading

    private var left: Int { bytes.count - offset }

    private func failure(_ reason: String) -> Failure { Failure(offset: offset, reason: reason) }

    private mutating func take(_ count: Int) throws(Failure) -> ArraySlice<UInt8> {
        guard count >= 0, count <= left else { throw failure("the stream ends inside a value") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func unsigned(_ size: Int) throws(Failure) -> UInt64 {
        try take(size).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private mutating func uint32() throws(Failure) -> UInt32 { UInt32(try unsigned(4)) }

    /// A count of items each at least `size` bytes long: never more than the bytes left can hold.
    private mutating func count(each size: Int) throws(Failure) -> Int {
        let count = Int(try uint32())
        guard count <= left / size else { throw failure("a count of \(count) items in \(left) bytes") }
        return count
    }

    private mutating func counted() throws(Failure) {
        values += 1
        guard values <= Self.mostValues else { throw failure("more than \(Self.mostValues) values") }
    }

    /// A `QString`: a byte length (0xFFFFFFFF for the null string), then UTF-16, big-endian.
    private mutating func readString() throws(Failure) -> String? {
        let length = try uint32()
        if length == 0xFFFF_FFFF { return nil }
        guard length % 2 == 0 else { throw failure("a string of an odd length, \(length) bytes") }
        let units = try take(Int(length))
        var utf16: [UInt16] = []
        utf16.reserveCapacity(units.count / 2)
        var index = units.startIndex
        while index < units.endIndex {
            utf16.append(UInt16(units[index]) << 8 | UInt16(units[index + 1]))
            index += 2
        }
        return String(decoding: utf16, as: UTF16.self)
    }

    /// A `QByteArray`: a length (0xFFFFFFFF for the null array), then the bytes.
    private mutating func readBytes() throws(Failure) -> [UInt8] {
        let length = try uint32()
        if length == 0xFFFF_FFFF { return [] }
        return Array(try take(Int(length)))
    }

    private mutating func readMap(depth: Int) throws(Failure) -> QtValue {
        guard depth < Self.deepest else { throw failure("values nested more than \(Self.deepest) deep") }
        // A key is at least 4 bytes, a value at least 5.
        let count = try count(each: 9)
        var entries: [QtEntry] = []
        for _ in 0..<count {
            try counted()
            guard let key = try readString() else { throw failure("a map key that is a null string") }
            entries.append(QtEntry(key: key, value: try readVariant(depth: depth + 1)))
        }
        return .map(entries)
    }

    private mutating func readVariant(depth: Int) throws(Failure) -> QtValue {
        guard depth < Self.deepest else { throw failure("values nested more than \(Self.deepest) deep") }
        try counted()
        let type = try uint32()
        let isNull = try unsigned(1) != 0
        let value: QtValue
        switch type {
        case 0:
            // An invalid QVariant is written with an empty string after it.
            _ = try readString()
            return .null
        case 1: value = .bool(try unsigned(1) != 0)
        case 2: value = .int(Int64(Int32(bitPattern: try uint32())))
        case 3: value = .uint(UInt64(try uint32()))
        case 4: value = .int(Int64(bitPattern: try unsigned(8)))
        case 5: value = .uint(try unsigned(8))
        case 6: value = .double(Double(bitPattern: try unsigned(8)))
        case 7: value = .string(String(decoding: [UInt16(try unsigned(2))], as: UTF16.self))
        case 8, 28: value = try readMap(depth: depth + 1)
        case 9:
            let count = try count(each: 5)
            var items: [QtValue] = []
            for _ in 0..<count { items.append(try readVariant(depth: depth + 1)) }
            value = .list(items)
        case 10: value = .string(try readString())
        case 11:
            let count = try count(each: 4)
            var items: [QtValue] = []
            for _ in 0..<count {
                try counted()
                items.append(.string(try readString()))
            }
            value = .list(items)
        case 12: value = .bytes(try readBytes())
        case 14: value = .int(Int64(bitPattern: try unsigned(8)))  // a QDate: its Julian day
        case 15: value = .uint(UInt64(try uint32()))  // a QTime: milliseconds since midnight
        case 16: value = .dateTime(try readDateTime())
        default: throw failure("a value of Qt type \(type), which bookclub does not read")
        }
        return isNull ? .null : value
    }

    /// A `QDateTime` (Qt 5): the Julian day, milliseconds since midnight, the time spec (local time,
    /// UTC, an offset with its seconds, or a zone with its name). A local time or a zone's is no
    /// moment bookclub can place: `nil`.
    private mutating func readDateTime() throws(Failure) -> Date? {
        let julianDay = Int64(bitPattern: try unsigned(8))
        let milliseconds = try uint32()
        let spec = try unsigned(1)
        var offset: Int64 = 0
        switch spec {
        case 0: return nil
        case 1: break
        case 2: offset = Int64(Int32(bitPattern: try uint32()))
        case 3:
            _ = try readBytes()
            return nil
        default: throw failure("a date and time of an unknown kind, \(spec)")
        }
        // The days Qt writes for a valid date lie within a few million years of now.
        guard abs(julianDay) < 1_000_000_000, milliseconds < 86_400_000 else { return nil }
        let seconds = (julianDay - 2_440_588) * 86_400 + Int64(milliseconds / 1000) - offset
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
