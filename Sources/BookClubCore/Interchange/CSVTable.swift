#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A CSV file read as RFC 4180 describes it: a header line, then rows with as many fields.
///
/// ```swift
/// let table = try CSVTable(parsing: Data("Title,Author\r\n\"Dune\",\"Herbert, Frank\"\r\n".utf8), path: "books.csv")
/// table.rows[0].fields  // ["Dune", "Herbert, Frank"], on line 2
/// ```
///
/// Fields may be quoted; a quoted field may hold commas, line breaks (read as LF, whatever the file
/// used) and doubled quotes (`""`). Lines end with CRLF or LF, the last one with or without; a UTF-8
/// byte order mark is dropped, and wholly empty lines are passed over. Like most readers (Python's, Excel's), a quote inside an unquoted
/// field and text after a closing quote are kept as they are. Refused, naming the line: text that is
/// not UTF-8, a quote that is never closed, a row with more or fewer fields than the header.
struct CSVTable: Equatable, Sendable {
    /// One row: its fields, and the line of the file it starts on (the header is line 1).
    public struct Row: Equatable, Sendable {
        public var line: Int
        public var fields: [String]

        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }
    }

    public var header: [String]
    public var rows: [Row]

    /// - Parameters:
    ///   - path: names the file in errors.
    ///   - checkHeader: called with the header before any row is read, so that a file of the wrong
    ///     kind is refused as such rather than for its first odd row.
    /// - Throws: `BookClubError.badImport`, with the line.
    public init(parsing data: Data, path: String, checkHeader: ([String]) throws -> Void = { _ in }) throws {
        var header: [String]?
        var rows: [Row] = []
        try Self.forEachRecord(in: Array(data), path: path) { line, fields in
            guard let header else {
                try checkHeader(fields)
                header = fields
                return
            }
            guard fields.count == header.count else {
                throw BookClubError.badImport(
                    path: path, line: line,
                    detail:
                        "\(fields.count) \(fields.count == 1 ? "field" : "fields") where the header has \(header.count)"
                )
            }
            rows.append(Row(line: line, fields: fields))
        }
        guard let header else {
            throw BookClubError.badImport(path: path, line: nil, detail: "empty; expected a header line")
        }
        self.header = header
        self.rows = rows
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"),
        lf = UInt8(ascii: "\n")

    /// Calls `body` with each record and the line it starts on. The bytes between two that matter (a
    /// quote, a comma, a line break) are taken as one run: a field is copied at once, not byte by byte.
    private static func forEachRecord(in bytes: [UInt8], path: String, _ body: (Int, [String]) throws -> Void) throws {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        try checkUTF8(bytes, from: start, path: path)
        var fields: [String] = []
        var field: [UInt8] = []
        var fieldWasQuoted = false
        var inQuotes = false
        var recordIsEmpty = true
        var line = 1
        var recordLine = 1
        var quoteLine = 1

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        func endRecord() throws {
            endField()
            if !recordIsEmpty { try body(recordLine, fields) }
            fields.removeAll(keepingCapacity: true)
            recordIsEmpty = true
        }
        /// Where the run from `index` ends: at the first quote or line break, or comma too outside quotes.
        func runEnd(from index: Int, quoted: Bool) -> Int {
            var end = index
            while end < bytes.count {
                let byte = bytes[end]
                if byte == quote || byte == cr || byte == lf || (byte == comma && !quoted) { break }
                end += 1
            }
            return end
        }

        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == quote {
                    index += 1
                    if index < bytes.count && bytes[index] == quote {
                        field.append(quote)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else if byte == cr || byte == lf {
                    index += 1
                    if byte == cr && index < bytes.count && bytes[index] == lf { index += 1 }
                    field.append(lf)
                    line += 1
                } else {
                    let end = runEnd(from: index, quoted: true)
                    field.append(contentsOf: bytes[index..<end])
                    index = end
                }
                continue
            }
            if recordIsEmpty && byte != cr && byte != lf {
                recordIsEmpty = false
                recordLine = line
            }
            switch byte {
            case quote where field.isEmpty && !fieldWasQuoted:
                index += 1
                inQuotes = true
                fieldWasQuoted = true
                quoteLine = line
            case comma:
                index += 1
                endField()
            case cr, lf:
                index += 1
                if byte == cr && index < bytes.count && bytes[index] == lf { index += 1 }
                try endRecord()
                line += 1
            default:
                // A quote inside a field, or after its closing quote, is kept as it is.
                let end = runEnd(from: index + 1, quoted: false)
                field.append(contentsOf: bytes[index..<end])
                index = end
            }
        }
        if inQuotes {
            throw BookClubError.badImport(path: path, line: quoteLine, detail: "a quoted field is never closed")
        }
        try endRecord()
    }

    /// Refuses bytes that are not UTF-8, naming the line of the first bad one.
    private static func checkUTF8(_ bytes: [UInt8], from start: Int, path: String) throws {
        guard let bad = firstNonUTF8(bytes, from: start) else { return }
        let line = 1 + bytes[start..<bad].reduce(0) { $0 + ($1 == lf ? 1 : 0) }
        throw BookClubError.badImport(path: path, line: line, detail: "not UTF-8 text; export or save it as UTF-8")
    }

    /// Where the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no overlong
    /// forms, no surrogates, nothing past U+10FFFF) is, or `nil`; ASCII is passed eight bytes at a time.
    static func firstNonUTF8(_ bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            let count = buffer.count
            var index = start
            while index < count {
                if index + 8 <= count,
                    UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                        & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                    continue
                }
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                // The range of the byte after the lead, and how many follow the lead in all.
                let second: ClosedRange<UInt8>
                let following: Int
                switch lead {
                case 0xC2...0xDF: (second, following) = (0x80...0xBF, 1)
                case 0xE0: (second, following) = (0xA0...0xBF, 2)
                case 0xE1...0xEC, 0xEE...0xEF: (second, following) = (0x80...0xBF, 2)
                case 0xED: (second, following) = (0x80...0x9F, 2)
                case 0xF0: (second, following) = (0x90...0xBF, 3)
                case 0xF1...0xF3: (second, following) = (0x80...0xBF, 3)
                case 0xF4: (second, following) = (0x80...0x8F, 3)
                default: return index
                }
                guard index + following < count, second.contains(buffer[index + 1]) else { return index }
                for next in stride(from: index + 2, through: index + following, by: 1)
                where buffer[next] & 0xC0 != 0x80 {
                    return index
                }
                index += following + 1
            }
            return nil
        }
    }
}
