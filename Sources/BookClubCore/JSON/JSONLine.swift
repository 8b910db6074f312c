#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads one member of a JSON object without decoding the rest: the store finds a book's id
/// and title this way in each of thousands of lines, where Foundation's decoder would spend
/// microseconds a line. `nil` means "not found or not sure"; callers then ask the decoder.
enum JSONLine {
    /// The raw value (`"dune"`, `412`, `[...]`) of `key` among the top-level members of `object`;
    /// `nil` when the key is not there or is there twice (decoders differ on which one counts).
    ///
    /// - Parameter first: take the first one and read no further, for lines bookclub wrote itself.
    static func value(of key: StaticString, in object: UnsafeRawBufferPointer, first: Bool = false)
        -> UnsafeRawBufferPointer?
    {
        var found: UnsafeRawBufferPointer?
        var index = 0
        let count = object.count
        func skipSpace() {
            while index < count,
                object[index] == 0x20 || object[index] == 0x0A || object[index] == 0x09 || object[index] == 0x0D
            { index += 1 }
        }
        skipSpace()
        guard index < count, object[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipSpace()
        if index < count, object[index] == UInt8(ascii: "}") { return nil }
        while true {
            skipSpace()
            guard index < count, object[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(object, from: index) else {
                return nil
            }
            let isWanted =
                keyEnd - index - 2 == key.utf8CodeUnitCount
                && sameBytes(object.baseAddress! + index + 1, key.utf8Start, count: key.utf8CodeUnitCount)
            index = keyEnd
            skipSpace()
            guard index < count, object[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace()
            guard let valueEnd = valueEnd(object, from: index) else { return nil }
            if isWanted {
                if first { return UnsafeRawBufferPointer(rebasing: object[index..<valueEnd]) }
                guard found == nil else { return nil }
                found = UnsafeRawBufferPointer(rebasing: object[index..<valueEnd])
            }
            index = valueEnd
            skipSpace()
            guard index < count else { return nil }
            if object[index] == UInt8(ascii: "}") {
                index += 1
                skipSpace()
                return index == count ? found : nil
            }
            guard object[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    /// The string value of `key`, unescaped.
    static func string(_ key: StaticString, in object: UnsafeRawBufferPointer, first: Bool = false) -> String? {
        guard let raw = value(of: key, in: object, first: first), raw.count >= 2, raw.first == UInt8(ascii: "\"") else {
            return nil
        }
        let inner = UnsafeRawBufferPointer(rebasing: raw[1..<raw.count - 1])
        if !inner.contains(UInt8(ascii: "\\")) {
            return String(validating: inner, as: UTF8.self)
        }
        return JSONCoding.decodeLine([String].self, from: Data(utf8: "[") + Data(raw) + Data(utf8: "]"))?.first
    }

    /// Where `needle` first occurs in `bytes` at or after `start`: `firstByte` for its first byte, `sameBytes` for the rest.
    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first else { return nil }
        var offset = start
        while offset + needle.count <= bytes.count,
            let hit = firstByte(first, at: base + offset, count: bytes.count - offset - needle.count + 1)
        {
            let at = base.distance(to: UnsafeRawPointer(hit))
            if sameBytes(hit, needle, count: needle.count) { return at }
            offset = at + 1
        }
        return nil
    }

    /// Where `needle` first occurs in `bytes` at or after `start`, by Horspool's algorithm: for long
    /// runs of pretty-printed JSON and the index of names, where `find` would stop at every line break.
    /// Its table of shifts is on the stack and read without bounds checks: the index of names is
    /// searched several times a command.
    static func search(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        let count = needle.count
        guard count > 0, let base = bytes.baseAddress, start >= 0, bytes.count - start >= count else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { shift -> Int? in
            shift.initialize(repeating: count)
            return needle.withUnsafeBufferPointer { pattern -> Int? in
                for index in 0..<(count - 1) { shift[Int(pattern[index])] = count - 1 - index }
                let last = pattern[count - 1]
                let text = base.assumingMemoryBound(to: UInt8.self)
                var at = start
                let end = bytes.count - count
                while at <= end {
                    let byte = text[at + count - 1]
                    if byte == last, sameBytes(text + at, pattern.baseAddress!, count: count - 1) { return at }
                    at += shift[Int(byte)]
                }
                return nil
            }
        }
    }

    /// Where `needle` last occurs in `bytes`: for what lies near the end of a long file.
    static func searchBackward(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first, bytes.count >= needle.count else { return nil }
        var at = bytes.count - needle.count
        while at >= 0 {
            if bytes[at] == first, sameBytes(base + at, needle, count: needle.count) { return at }
            at -= 1
        }
        return nil
    }

    /// The index just past the string that starts at `start` (a quote).
    private static func stringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            guard let hit = firstByte(UInt8(ascii: "\""), at: bytes.baseAddress! + index, count: bytes.count - index)
            else {
                return nil
            }
            let quote = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
            var backslashes = 0
            while quote - backslashes - 1 > start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return quote + 1 }
            index = quote + 1
        }
        return nil
    }

    /// The index just past the value that starts at `start`.
    private static func valueEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, from: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte <= 0x20 {
                    break
                }
                index += 1
            }
            return index > start ? index : nil
        }
    }
}
