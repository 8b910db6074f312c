#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads flat JSON objects of strings without escapes, numbers and nested objects, with or without
/// blanks between their tokens: the fast path of readers whose every "no" falls back to Foundation's
/// decoder (`HistoryLine`, `ReadingEvent`).
struct JSONScanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    /// At the end, blanks aside.
    var atEnd: Bool {
        mutating get {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D {
                index += 1
            }
            return index == bytes.count
        }
    }

    /// Passes over blanks, then takes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string with no escape; `nil` for any other value.
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
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        return nil
    }

    /// The text of a number as JSON writes one (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// for `Int(_:)` or `Double(_:)` to read.
    mutating func number() -> String? {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        _ = take(UInt8(ascii: "-"))
        let integer = index
        let count = digits()
        guard count > 0, count == 1 || bytes[integer] != UInt8(ascii: "0") else { return nil }
        if take(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// A UUID string, read without `UUID(uuidString:)` (which goes through sscanf).
    mutating func uuid() -> UUID? {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        guard index + 38 <= bytes.count, bytes[index] == UInt8(ascii: "\""),
            bytes[index + 37] == UInt8(ascii: "\""),
            let id = HistoryLine.uuid(UnsafeRawBufferPointer(rebasing: bytes[index + 1..<index + 37]))
        else { return nil }
        index += 38
        return id
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
