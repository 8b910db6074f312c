#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON of the model's values written by hand, keys in sorted order, as JSONEncoder writes it: pretty
/// (two spaces an indent level) for exports, compact for the history's lines. JSONEncoder spends about
/// 10 µs an entry; the keys and values are those of `Codable`, so the decoders read it back (tests
/// hold the two to each other).
struct JSONWriter {
    private static let lowerHex = Array("0123456789abcdef".utf8)
    var bytes: [UInt8] = []
    /// No line breaks or indents, and `"key":` rather than `"key" : `.
    var compact = false
    /// An empty array as JSONEncoder writes one when pretty, `[`, an empty line and `]`, rather than `[]`.
    var spreadsEmptyArrays = false
    private var depth: Int
    /// Whether the object being written has no field yet.
    private var isFirst = true
    /// The starts of an entry's fields when pretty (`entryField(_:)`) at one indent.
    private var entryStarts: (depth: Int, starts: [(first: [UInt8], later: [UInt8])])?

    /// - Parameter depth: the indent level of what is written first.
    init(compact: Bool = false, depth: Int = 2) {
        self.compact = compact
        self.depth = depth
    }

    mutating func take() -> Data {
        defer { bytes.removeAll(keepingCapacity: true) }
        return Data(bytes)
    }

    /// Hands what is written so far to `body` and starts again, once it is `count` bytes or more: a
    /// long text written a part at a time, never held whole.
    mutating func handOver(atLeast count: Int, to body: ([UInt8]) throws -> Void) rethrows {
        guard bytes.count >= count else { return }
        try body(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func text(_ text: String) { bytes += text.utf8 }
    /// Bytes that are already JSON of this layout.
    mutating func raw(_ data: Data) { bytes += data }

    /// A line break and the spaces of 40 indent levels, for `newline()` to take its part of.
    private static let indents: [UInt8] = [0x0A] + Array(repeating: 0x20, count: 80)

    private mutating func newline() {
        guard !compact else { return }
        if depth <= 40 {
            bytes += Self.indents[...(depth * 2)]
        } else {
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(0x20, count: depth * 2))
        }
    }

    /// `{ … }` at the current indent, its fields written by `body`.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        let outer = isFirst
        isFirst = true
        body(&self)
        isFirst = outer
        depth -= 1
        newline()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func array<T>(_ items: [T], _ item: (inout JSONWriter, T) -> Void) {
        guard !items.isEmpty else {
            guard spreadsEmptyArrays, !compact else { return text("[]") }
            bytes.append(UInt8(ascii: "["))
            bytes.append(0x0A)
            newline()
            return bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "["))
        depth += 1
        for (index, element) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline()
            item(&self, element)
        }
        depth -= 1
        newline()
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func colon() {
        if compact {
            bytes.append(UInt8(ascii: ":"))
        } else {
            bytes.append(0x20)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(0x20)
        }
    }

    /// Starts the field `name`; its value follows. The comma, the line break and indent, the name and
    /// the colon are laid out on the stack and added in one go (the many appends took a third of an
    /// export).
    mutating func field(_ name: StaticString) {
        let comma = isFirst ? 0 : 1
        let indent = compact ? 0 : 1 + depth * 2
        let count = comma + indent + name.utf8CodeUnitCount + 2 + (compact ? 1 : 3)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { out in
            out.initialize(repeating: 0x20)
            if comma == 1 { out[0] = UInt8(ascii: ",") }
            if indent > 0 { out[comma] = 0x0A }
            // Field names are plain ASCII: no escaping to do.
            let start = comma + indent
            out[start] = UInt8(ascii: "\"")
            UnsafeMutableRawPointer(out.baseAddress! + start + 1).copyMemory(
                from: name.utf8Start, byteCount: name.utf8CodeUnitCount)
            out[start + 1 + name.utf8CodeUnitCount] = UInt8(ascii: "\"")
            out[count - (compact ? 1 : 2)] = UInt8(ascii: ":")
            bytes.append(contentsOf: out)
        }
        isFirst = false
    }

    /// The fields of an entry, in the order written.
    static let entryFields: [StaticString] = ["id", "listened", "minutes", "note", "page", "progress", "time"]

    /// Starts the field `entryFields[index]` as `field(_:)` does, from starts made once: compact ones
    /// once a process (a line of the history, of the journal, of a sync log), pretty ones once an
    /// indent (an export starts the fields of a million entries, at one indent).
    mutating func entryField(_ index: Int) {
        if compact {
            bytes += isFirst ? Self.compactEntryStarts[index].first : Self.compactEntryStarts[index].later
        } else {
            if entryStarts?.depth != depth { entryStarts = (depth, Self.entryStarts(compact: false, depth: depth)) }
            bytes += isFirst ? entryStarts!.starts[index].first : entryStarts!.starts[index].later
        }
        isFirst = false
    }

    private static let compactEntryStarts = entryStarts(compact: true, depth: 0)

    /// The starts of an entry's fields, first in their object and not.
    private static func entryStarts(compact: Bool, depth: Int) -> [(first: [UInt8], later: [UInt8])] {
        entryFields.map { name in
            var writer = JSONWriter(compact: compact, depth: depth)
            writer.field(name)
            return (first: writer.bytes, later: [UInt8(ascii: ",")] + writer.bytes)
        }
    }

    /// The field `entryFields[index]` with its whole number, when it has one.
    mutating func entryField(_ index: Int, _ value: Int?) {
        guard let value else { return }
        entryField(index)
        number(value)
    }

    /// Starts a field whose name came from outside (a column of an export), escaped as a string is.
    mutating func escapedField(_ name: String) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        isFirst = false
        newline()
        string(name)
        colon()
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        field(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        field(name)
        number(value)
    }

    mutating func number(_ value: Int) {
        if value >= 0 { digits(value) } else { text(String(value)) }
    }

    /// `value` (0 or more) in decimal.
    private mutating func digits(_ value: Int) {
        // Written from the last digit back into a buffer that holds any Int, then added in one go.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = 20
            var rest = value
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                rest /= 10
            } while rest > 0
            bytes += buffer[start...]
        }
    }

    mutating func field(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        field(name)
        number(value)
    }

    mutating func number(_ value: Double) {
        if shortFraction(value) { return }
        // The shortest text that reads back as the same number, a whole one without its `.0`, as
        // JSONEncoder writes it; finite, as the store's values are.
        let number = value.isFinite ? value.description : "0"
        bytes += number.hasSuffix(".0") ? number.utf8.dropLast(2) : number.utf8[...]
    }

    /// Writes `value`, when it is from 0.0001 to 1 (not 1) and of at most 8 decimal places, as its
    /// `description` spells it (a progress, most often): the fewest places that read back as the same
    /// number, without printing it in full. `false` for any other number.
    private mutating func shortFraction(_ value: Double) -> Bool {
        guard value >= 0.0001, value < 1 else { return false }
        var scale = 1.0
        for places in 1...8 {
            scale *= 10
            // Exact as a double; the division rounds as reading `0.` and the digits does.
            let digits = (value * scale).rounded()
            guard digits / scale == value else { continue }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: places + 2) { out in
                out[0] = UInt8(ascii: "0")
                out[1] = UInt8(ascii: ".")
                var rest = Int(digits)
                for index in stride(from: places + 1, through: 2, by: -1) {
                    out[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                    rest /= 10
                }
                bytes.append(contentsOf: out)
            }
            return true
        }
        return false
    }

    mutating func field(_ name: StaticString, _ value: Date?) {
        guard let value else { return }
        field(name)
        date(value)
    }

    /// A UUID as `uuidString` spells it, without its trip through printf: its four words of four
    /// bytes spelt as `JSONText.hexDigits`, a dash between the groups.
    mutating func uuid(_ id: UUID) {
        withUnsafeBytes(of: id.uuid) { raw in
            func digits(_ word: Int) -> UInt64 {
                JSONText.hexDigits(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * word, as: UInt32.self)))
            }
            let words = (digits(0), digits(1), digits(2), digits(3))
            withUnsafeTemporaryAllocation(byteCount: 38, alignment: 1) { out in
                // `"` 8 `-` 4 `-` 4 `-` 4 `-` 4 8 `"`, a group of four the half of a word.
                func put(_ word: UInt64, _ count: Int, at offset: Int) {
                    withUnsafeBytes(of: word.littleEndian) {
                        out.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: count)
                    }
                }
                out[0] = UInt8(ascii: "\"")
                put(words.0, 8, at: 1)
                out[9] = UInt8(ascii: "-")
                put(words.1, 4, at: 10)
                out[14] = UInt8(ascii: "-")
                put(words.1 >> 32, 4, at: 15)
                out[19] = UInt8(ascii: "-")
                put(words.2, 4, at: 20)
                out[24] = UInt8(ascii: "-")
                put(words.2 >> 32, 4, at: 25)
                put(words.3, 8, at: 29)
                out[37] = UInt8(ascii: "\"")
                bytes.append(contentsOf: UnsafeRawBufferPointer(out))
            }
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape, and are added in one go.
        var value = value
        let isPlain = value.withUTF8 { utf8 in
            guard JSONText.needsNoEscape(UnsafeRawBufferPointer(utf8)) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if isPlain { return bytes.append(UInt8(ascii: "\"")) }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): text("\\\"")
            case UInt8(ascii: "\\"): text("\\\\")
            case 0x0A: text("\\n")
            case 0x0D: text("\\r")
            case 0x09: text("\\t")
            case 0x08: text("\\b")
            case 0x0C: text("\\f")
            case 0..<0x20:
                // In lower case, as JSONEncoder writes them.
                bytes += Array("\\u00".utf8) + [Self.lowerHex[Int(byte >> 4)], Self.lowerHex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `2026-11-20T19:00:00Z`, the whole seconds of `date` in UTC, as `.iso8601` writes it.
    mutating func date(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        // Before 1583 Foundation's calendar is Julian, and so must this be to read back the same.
        guard seconds >= -12_212_553_600 else { return string(Date.ISO8601FormatStyle().format(date)) }
        let t = LocalDateTime(secondsSinceEpoch: Int64(seconds))
        let y = t.year < 10_000 ? 4 : String(t.year).utf8.count  // digits of the year
        // Spelt out on the stack, then added in one go.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: y + 18) { out in
            func put(_ value: Int, _ width: Int, before end: Int) {
                guard width == 2 else {
                    var rest = value
                    for index in stride(from: end - 1, through: end - width, by: -1) {
                        out[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                        rest /= 10
                    }
                    return
                }
                out[end - 2] = UInt8(truncatingIfNeeded: 48 + value / 10)
                out[end - 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
            }
            out[0] = UInt8(ascii: "\"")
            put(t.year, y, before: y + 1)
            out[y + 1] = UInt8(ascii: "-")
            put(t.month, 2, before: y + 4)
            out[y + 4] = UInt8(ascii: "-")
            put(t.day, 2, before: y + 7)
            out[y + 7] = UInt8(ascii: "T")
            put(t.hour, 2, before: y + 10)
            out[y + 10] = UInt8(ascii: ":")
            put(t.minute, 2, before: y + 13)
            out[y + 13] = UInt8(ascii: ":")
            put(t.second, 2, before: y + 16)
            out[y + 16] = UInt8(ascii: "Z")
            out[y + 17] = UInt8(ascii: "\"")
            bytes.append(contentsOf: out)
        }
    }
}
