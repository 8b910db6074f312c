#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads JSON objects and arrays of strings and numbers, with or without blanks between their tokens:
/// the fast path of readers whose every "no" falls back to Foundation's decoder (`HistoryLine`,
/// `ReadingEvent`, `StoredBook`, `Settings`).
struct JSONScanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    /// The keys of an object read so far, a bit each (numbered by the reader), so that a key given
    /// twice gives up, as Foundation's decoder would not (it takes the last).
    struct SeenKeys {
        private var bits: UInt32 = 0

        /// Whether key `bit` comes for the first time; it counts as seen from now on.
        mutating func first(_ bit: Int) -> Bool {
            defer { bits |= 1 << bit }
            return bits & 1 << bit == 0
        }
    }

    /// At the end, blanks aside.
    var atEnd: Bool {
        mutating get {
            skipBlanks()
            return index == bytes.count
        }
    }

    /// Passes over spaces, tabs and line breaks.
    mutating func skipBlanks() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09
                || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    /// Passes over blanks, then takes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipBlanks()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Takes the string `expected` if it comes next, written as it is (no escapes in it, none needed).
    ///
    /// - Parameter isPlain: the caller has found that `expected` needs no escape.
    mutating func take(string expected: String, isPlain: Bool = false) -> Bool {
        skipBlanks()
        var expected = expected
        return expected.withUTF8 { utf8 in
            let count = utf8.count
            guard index + count + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\""),
                bytes[index + count + 1] == UInt8(ascii: "\""),
                count == 0 || Self.same(bytes.baseAddress! + index + 1, utf8.baseAddress!, count: count),
                isPlain || JSONText.needsNoEscape(UnsafeRawBufferPointer(utf8))
            else { return false }
            index += count + 2
            return true
        }
    }

    /// A string; `nil` for any other value, and for an escape Foundation might read otherwise (a lone
    /// surrogate).
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                // Bytes that are not UTF-8 are the decoder's to refuse.
                return isASCII ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
            if byte < 0x20 { return nil }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        return nil
    }

    /// Passes over a string that `string()` would read, making none where it is ASCII without escapes.
    mutating func skipString() -> Bool {
        guard take(UInt8(ascii: "\"")) else { return false }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 {
                index = start - 1
                return string() != nil
            }
            if byte < 0x20 { return false }
            index += 1
        }
        return false
    }

    /// The rest of a string that has an escape, from its first byte at `start`.
    private mutating func escapedString(from start: Int) -> String? {
        var text: [UInt8] = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hexUnit() else { return nil }
                    var scalar = Unicode.Scalar(unit)
                    if (0xD800..<0xDC00).contains(unit) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { return nil }
                        index += 2
                        guard let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00))
                    }
                    guard let scalar else { return nil }
                    text.append(contentsOf: String(scalar).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                text.append(byte)
            }
        }
        return nil
    }

    /// Four hex digits of a `\u` escape.
    private mutating func hexUnit() -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Reads a string into `value`; `false` when the value is not one.
    mutating func read(_ value: inout String?) -> Bool {
        value = string()
        return value != nil
    }

    /// Reads a date as bookclub writes one (`2026-11-20T19:00:00Z`) into `value`.
    mutating func read(_ value: inout Date?) -> Bool {
        skipBlanks()
        // As bookclub writes it, read in place: `"2026-11-20T19:00:00Z"`.
        if index + 22 <= bytes.count, bytes[index] == UInt8(ascii: "\""), bytes[index + 21] == UInt8(ascii: "\""),
            let date = JSONText.date(UnsafeRawBufferPointer(rebasing: bytes[index + 1..<index + 21]))
        {
            index += 22
            value = date
            return true
        }
        value = string().flatMap(JSONText.date)
        return value != nil
    }

    mutating func read(_ value: inout Int?) -> Bool {
        skipBlanks()
        // A whole number of up to 18 digits, as bookclub writes them, read in place; any other
        // number as text.
        var at = index
        let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        var result = 0
        let first = at
        while at < bytes.count, at - first < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) {
            result = result * 10 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        let isPlain =
            at > first && (at - first == 1 || bytes[first] != UInt8(ascii: "0"))
            && (at == bytes.count
                || (bytes[at] != UInt8(ascii: ".") && bytes[at] | 0x20 != UInt8(ascii: "e")
                    && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at])))
        if isPlain {
            index = at
            value = negative ? -result : result
            return true
        }
        value = number().flatMap { Int($0) }
        return value != nil
    }

    /// Reads a finite number into `value`: one of up to 15 significant digits and a power of ten of
    /// at most 22 in place (both exact as doubles, so one multiplication or division rounds as
    /// `strtod` does), any other through `Double(_:)`.
    mutating func read(_ value: inout Double?) -> Bool {
        skipBlanks()
        let start = index
        guard let end = numberEnd() else { return false }
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        value =
            Self.shortDouble(text) ?? Double(String(decoding: text, as: UTF8.self))
        return value?.isFinite == true
    }

    private static let powersOfTen: [Double] = (0...22).map { Double("1e\($0)")! }

    /// The number `text` (checked as JSON already) when it is short enough to read in place.
    private static func shortDouble(_ text: UnsafeRawBufferPointer) -> Double? {
        var at = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { at = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var afterPoint = false
        while at < text.count {
            let byte = text[at]
            if byte == UInt8(ascii: ".") {
                afterPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                if mantissa > 0 || byte != UInt8(ascii: "0") {
                    significant += 1
                    guard significant <= 15 else { return nil }
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                }
                if afterPoint { exponent -= 1 }
            } else {
                break
            }
            at += 1
        }
        if at < text.count {  // `e` or `E`, a sign maybe, and one or two digits
            at += 1
            var sign = 1
            if text[at] == UInt8(ascii: "-") || text[at] == UInt8(ascii: "+") {
                if text[at] == UInt8(ascii: "-") { sign = -1 }
                at += 1
            }
            var power = 0
            while at < text.count {
                power = power * 10 + Int(text[at] - UInt8(ascii: "0"))
                at += 1
            }
            exponent += sign * power
        }
        guard (-22...22).contains(exponent) else { return nil }
        let magnitude =
            exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
        return negative ? -magnitude : magnitude
    }

    /// `[value,...]`, each element read by `element`, which returns `false` to give up.
    mutating func array(_ element: (inout JSONScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// The text of a number as JSON writes one (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// for `Int(_:)` or `Double(_:)` to read.
    mutating func number() -> String? {
        skipBlanks()
        let start = index
        guard let end = numberEnd() else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Takes a number and returns where it ends; `nil` if none comes next.
    private mutating func numberEnd() -> Int? {
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        // A number has no blanks inside it.
        func next(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        _ = next(UInt8(ascii: "-"))
        let integer = index
        let count = digits()
        guard count > 0, count == 1 || bytes[integer] != UInt8(ascii: "0") else { return nil }
        if next(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
        if next(UInt8(ascii: "e")) || next(UInt8(ascii: "E")) {
            if !next(UInt8(ascii: "+")) { _ = next(UInt8(ascii: "-")) }
            // bookclub writes two digits at most; a longer exponent is left to Foundation, which
            // refuses what a Double cannot hold.
            guard (1...2).contains(digits()) else { return nil }
        }
        return index
    }

    /// A UUID string, read without `UUID(uuidString:)` (which goes through sscanf).
    mutating func uuid() -> UUID? {
        skipBlanks()
        guard index + 38 <= bytes.count, bytes[index] == UInt8(ascii: "\""),
            bytes[index + 37] == UInt8(ascii: "\""),
            let id = JSONText.uuid(UnsafeRawBufferPointer(rebasing: bytes[index + 1..<index + 37]))
        else { return nil }
        index += 38
        return id
    }

    /// Passes over one value of any kind, nested no deeper than `JSONCoding.maximumDepth`; `false`
    /// when it is not one.
    mutating func skipValue(depth: Int = 0) -> Bool {
        guard depth < JSONCoding.maximumDepth else { return false }
        skipBlanks()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "{"): return object { _, scanner in scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["): return array { $0.skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"): return take(literal: "true")
        case UInt8(ascii: "f"): return take(literal: "false")
        case UInt8(ascii: "n"): return take(literal: "null")
        default: return number() != nil
        }
    }

    /// Whether the `count` bytes at `a` and `b` are the same, eight at a time: the keys and ids a line
    /// is read by are a few dozen bytes, which `memcmp` takes longer to be called for than to compare.
    @inline(__always)
    static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var at = 0
        while at + 8 <= count {
            guard
                a.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            else { return false }
            at += 8
        }
        while at < count {
            guard a.load(fromByteOffset: at, as: UInt8.self) == b.load(fromByteOffset: at, as: UInt8.self) else {
                return false
            }
            at += 1
        }
        return true
    }

    /// Takes `expected`'s bytes if they come next.
    mutating func take(bytes expected: [UInt8]) -> Bool {
        let count = expected.count
        guard index + count <= bytes.count,
            count == 0
                || expected.withUnsafeBytes({ Self.same(bytes.baseAddress! + index, $0.baseAddress!, count: count) })
        else { return false }
        index += count
        return true
    }

    /// Takes `word` if it comes next, as it is (no blanks before it).
    @inline(__always)
    mutating func take(literal word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, Self.same(bytes.baseAddress! + index, word.utf8Start, count: count) else {
            return false
        }
        index += count
        return true
    }

    /// `{"key":value,...}`, each value read by `member` with its key's place in `keys`, found without
    /// making a string of it: -1 for any other key, or one written with an escape. `member` returns
    /// `false` to give up. Keys in the order of `keys`, as bookclub writes them, are found first.
    mutating func object(keys: [StaticString], _ member: (Int, inout JSONScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        var next = 0
        repeat {
            guard let key = key(among: keys, from: next), take(UInt8(ascii: ":")), member(key, &self) else {
                return false
            }
            if key >= 0 { next = key + 1 }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// The place in `keys` of the key that comes next, those from `next` on tried in place first.
    private mutating func key(among keys: [StaticString], from next: Int) -> Int? {
        skipBlanks()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            for place in keys.indices[next...] {
                let count = keys[place].utf8CodeUnitCount
                if index + count + 1 < bytes.count, bytes[index + count + 1] == UInt8(ascii: "\""),
                    Self.same(bytes.baseAddress! + index + 1, keys[place].utf8Start, count: count)
                {
                    index += count + 2
                    return place
                }
            }
        }
        guard take(UInt8(ascii: "\"")) else { return nil }
        // Keys are a few bytes long: read a byte at a time, an escape left to `string()`.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") || bytes[end] < 0x20 {
                index = start
                return string() == nil ? nil : -1
            }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let key = UnsafeRawBufferPointer(rebasing: bytes[index..<end])
        index = end + 1
        for (place, candidate) in keys.enumerated() where candidate.utf8CodeUnitCount == key.count {
            let expected = candidate.utf8Start
            var offset = 0
            while offset < key.count, key[offset] == expected[offset] { offset += 1 }
            if offset == key.count { return place }
        }
        return -1
    }

    /// Passes over an object whose every member's value `value` passes over, its keys as `skipString`.
    mutating func skipObject(_ value: (inout JSONScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard skipString(), take(UInt8(ascii: ":")), value(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// `{"key":value,...}`, each value read by `member`, which returns `false` to give up.
    mutating func object(_ member: (String, inout JSONScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), member(key, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }
}
