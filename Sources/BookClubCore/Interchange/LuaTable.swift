#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value of the Lua subset KOReader writes its sidecar files in: `return { ["key"] = value, … }`,
/// with strings, numbers, booleans, `nil` and tables. Read by a small, strict reader that evaluates
/// nothing: anything else (a function call, an operator, a table nested deeper than `maximumDepth`,
/// a string that never ends) is refused with its line.
public indirect enum LuaValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case `nil`
    case table([LuaKey: LuaValue])

    public subscript(key: String) -> LuaValue? {
        if case .table(let table) = self { return table[.string(key)] }
        return nil
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The values of a table's whole-number keys, in their order (a Lua array, `[1] = …, [2] = …`).
    public var array: [LuaValue] {
        guard case .table(let table) = self else { return [] }
        return table.compactMap { key, value -> (Double, LuaValue)? in
            if case .number(let index) = key { return (index, value) }
            return nil
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The entries of a table, whatever their keys.
    public var entries: [(key: LuaKey, value: LuaValue)] {
        guard case .table(let table) = self else { return [] }
        return table.map { ($0.key, $0.value) }
    }
}

public enum LuaKey: Hashable, Sendable {
    case string(String)
    case number(Double)
}

/// Reads a sidecar's text.
struct LuaReader {
    public struct Failure: Error, Equatable {
        public var line: Int
        public var reason: String
    }

    /// How deep tables may nest: KOReader's go four or five levels down.
    public static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    /// Reads `return { … }`, or a bare table, and nothing after it but comments and space.
    public static func read(_ data: Data) throws(Failure) -> LuaValue {
        var reader = LuaReader(bytes: Array(data))
        reader.skipSpace()
        if reader.word("return") { reader.skipSpace() }
        guard reader.peek == UInt8(ascii: "{") else { throw reader.failure("expected a table (`return { … }`)") }
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.failure("something after the table") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A byte-order mark is passed over.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func failure(_ reason: String) -> Failure { Failure(line: line, reason: reason) }

    private mutating func word(_ text: String) -> Bool {
        let word = Array(text.utf8)
        guard bytes.count - index >= word.count, Array(bytes[index..<(index + word.count)]) == word else {
            return false
        }
        let end = index + word.count
        if end < bytes.count, Self.isIdentifier(bytes[end]) { return false }
        index = end
        return true
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F
    }

    /// Spaces, line breaks and `--` comments (to the end of the line; long comments are not KOReader's).
    private mutating func skipSpace() {
        while let byte = peek {
            if byte == 0x0A {
                line += 1
                index += 1
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                index += 1
            } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                while let next = peek, next != 0x0A { index += 1 }
            } else {
                return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> LuaValue {
        skipSpace()
        guard let byte = peek else { throw failure("the file ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw failure("tables nested more than \(Self.maximumDepth) deep") }
            return try table(depth: depth + 1)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default:
            if word("true") { return .bool(true) }
            if word("false") { return .bool(false) }
            if word("nil") { return .nil }
            throw failure(
                "expected a value, found `\(String(decoding: bytes[index..<min(index + 12, bytes.count)], as: UTF8.self))`"
            )
        }
    }

    private mutating func table(depth: Int) throws(Failure) -> LuaValue {
        index += 1  // {
        var table: [LuaKey: LuaValue] = [:]
        var next = 1.0  // the key of a value given without one
        while true {
            skipSpace()
            guard let byte = peek else { throw failure("a table that never ends") }
            if byte == UInt8(ascii: "}") {
                index += 1
                return .table(table)
            }
            let key: LuaKey
            if byte == UInt8(ascii: "[") {
                index += 1
                skipSpace()
                switch try value(depth: depth) {
                case .string(let text): key = .string(text)
                case .number(let number): key = .number(number)
                default: throw failure("a key that is neither a string nor a number")
                }
                skipSpace()
                guard peek == UInt8(ascii: "]") else { throw failure("expected `]`") }
                index += 1
                try expect("=")
            } else if Self.isIdentifier(byte), !(0x30...0x39).contains(byte),
                let name = identifier(), (skipSpace(), peek).1 == UInt8(ascii: "=")
            {
                index += 1
                key = .string(name)
            } else {
                key = .number(next)
                next += 1
            }
            let item = try value(depth: depth)
            if table[key] != nil { throw failure("a key given twice") }
            if item != .nil { table[key] = item }
            skipSpace()
            if peek == UInt8(ascii: ",") || peek == UInt8(ascii: ";") {
                index += 1
            } else if peek != UInt8(ascii: "}") {
                throw failure("expected `,` or `}`")
            }
        }
    }

    private mutating func identifier() -> String? {
        let start = index
        while let byte = peek, Self.isIdentifier(byte) { index += 1 }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        if ["true", "false", "nil"].contains(name) {
            index = start
            return nil
        }
        return name
    }

    private mutating func expect(_ character: Character) throws(Failure) {
        skipSpace()
        guard let byte = peek, byte == character.asciiValue else { throw failure("expected `\(character)`") }
        index += 1
    }

    private mutating func number() throws(Failure) -> Double {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        while let byte = peek,
            (0x30...0x39).contains(byte) || [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
                || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))
                    && [UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index - 1]))
        {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard text.count <= 40, let value = Double(text), value.isFinite else {
            throw failure("`\(text.prefix(40))` is not a number")
        }
        return value
    }

    /// A string in double or single quotes, with Lua's escapes: `\n`, `\"`, `\\`, `\ddd`, `\xhh`,
    /// `\u{…}`, and a backslash before a line break (which `%q` writes for a line break).
    private mutating func string() throws(Failure) -> String {
        let quote = bytes[index]
        let startLine = line
        index += 1
        var out: [UInt8] = []
        while true {
            guard let byte = peek else {
                throw Failure(line: startLine, reason: "a string that never ends")
            }
            index += 1
            if byte == quote { return String(decoding: out, as: UTF8.self) }
            if byte == 0x0A { throw Failure(line: startLine, reason: "a string that never ends on its line") }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard let escaped = peek else { throw Failure(line: startLine, reason: "a string that never ends") }
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case 0x0A:
                out.append(0x0A)
                line += 1
            case 0x0D:
                out.append(0x0A)
                if peek == 0x0A { index += 1 }
                line += 1
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): out.append(escaped)
            case UInt8(ascii: "x"):
                guard index + 2 <= bytes.count,
                    let value = UInt8(String(decoding: bytes[index..<(index + 2)], as: UTF8.self), radix: 16)
                else { throw failure("a `\\x` escape without two hexadecimal digits") }
                out.append(value)
                index += 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var value = Int(escaped - 0x30)
                var count = 1
                while count < 3, let digit = peek, (0x30...0x39).contains(digit) {
                    value = value * 10 + Int(digit - 0x30)
                    index += 1
                    count += 1
                }
                guard value <= 255 else { throw failure("a `\\ddd` escape past 255") }
                out.append(UInt8(value))
            case UInt8(ascii: "u"):
                guard peek == UInt8(ascii: "{"), let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")),
                    close - index <= 9,
                    let code = UInt32(String(decoding: bytes[(index + 1)..<close], as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(code)
                else { throw failure("a `\\u{…}` escape that is not a character") }
                out += Array(String(Character(scalar)).utf8)
                index = close + 1
            case UInt8(ascii: "z"):
                skipSpace()
            default:
                throw failure("an unknown escape `\\\(Character(Unicode.Scalar(escaped)))`")
            }
        }
    }
}
