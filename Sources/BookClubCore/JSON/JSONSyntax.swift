#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a document stops being JSON, for a reader who edits a file by hand: Foundation's decoder says
/// only that it is not. `line 4, column 3: expected a value`, the column counted in characters.
enum JSONSyntax {
    /// The first place `data` is not JSON, and what was expected there; `nil` when it is JSON.
    static func error(in data: Data) -> String? {
        let bytes = [UInt8](data)
        var parser = Parser(bytes: bytes)
        do throws(Failure) {
            parser.skipSpace()
            try parser.value()
            parser.skipSpace()
            if parser.index < bytes.count {
                throw Failure(at: parser.index, expected: "expected the end of the document")
            }
            return nil
        } catch {
            return "line \(Self.line(of: error.at, in: bytes)), column \(Self.column(of: error.at, in: bytes)): "
                + error.expected
        }
    }

    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    private static func column(of offset: Int, in bytes: [UInt8]) -> Int {
        let start = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return String(decoding: bytes[start..<offset], as: UTF8.self).count + 1
    }

    private struct Failure: Error {
        var at: Int
        var expected: String
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        private var byte: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        private func fail(_ expected: String) -> Failure { Failure(at: index, expected: expected) }

        mutating func value() throws(Failure) {
            guard let byte else { throw fail("expected a value") }
            switch byte {
            case UInt8(ascii: "{"): try object()
            case UInt8(ascii: "["): try array()
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try word("true")
            case UInt8(ascii: "f"): try word("false")
            case UInt8(ascii: "n"): try word("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw fail("expected a value")
            }
        }

        private mutating func object() throws(Failure) {
            try elements(closing: UInt8(ascii: "}")) { parser throws(Failure) in
                guard parser.byte == UInt8(ascii: "\"") else { throw parser.fail("expected a key in double quotes") }
                try parser.string()
                parser.skipSpace()
                guard parser.byte == UInt8(ascii: ":") else { throw parser.fail("expected ':' after the key") }
                parser.index += 1
                parser.skipSpace()
                try parser.value()
            }
        }

        private mutating func array() throws(Failure) {
            try elements(closing: UInt8(ascii: "]")) { parser throws(Failure) in try parser.value() }
        }

        /// What follows a `{` or `[`: elements, each read by `element`, separated by commas up to `close`.
        private mutating func elements(
            closing close: UInt8, _ element: (inout Parser) throws(Failure) -> Void
        ) throws(Failure) {
            index += 1
            skipSpace()
            if byte == close {
                index += 1
                return
            }
            while true {
                try element(&self)
                skipSpace()
                switch byte {
                case UInt8(ascii: ","):
                    index += 1
                    skipSpace()
                case close:
                    index += 1
                    return
                default: throw fail("expected ',' or '\(Character(Unicode.Scalar(close)))'")
                }
            }
        }

        private mutating func string() throws(Failure) {
            index += 1
            while let byte {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = self.byte, Array("\"\\/bfnrtu".utf8).contains(escaped) else {
                        throw fail("expected an escape (\\\", \\\\, \\n, \\uXXXX…)")
                    }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let digit = self.byte, Character(Unicode.Scalar(digit)).isHexDigit else {
                                throw fail("expected 4 hexadecimal digits")
                            }
                            index += 1
                        }
                    }
                case 0..<0x20: throw fail("expected '\"' before the end of the line")
                default: index += 1
                }
            }
            throw fail("expected '\"' before the end of the file")
        }

        private mutating func word(_ word: String) throws(Failure) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw fail("expected a value (true, false, null, a number, a string, [ or {)")
            }
            index += expected.count
        }

        private mutating func number() throws(Failure) {
            func digits() throws(Failure) {
                guard let first = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                    throw fail("expected a digit")
                }
                while let next = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) { index += 1 }
            }
            if byte == UInt8(ascii: "-") { index += 1 }
            if byte == UInt8(ascii: "0") { index += 1 } else { try digits() }
            if byte == UInt8(ascii: ".") {
                index += 1
                try digits()
            }
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                index += 1
                if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { index += 1 }
                try digits()
            }
        }
    }
}
