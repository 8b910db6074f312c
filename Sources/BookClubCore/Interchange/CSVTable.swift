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

    /// Calls `body` with each record and the line it starts on.
    private static func forEachRecord(in bytes: [UInt8], path: String, _ body: (Int, [String]) throws -> Void) throws {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        try checkUTF8(bytes[start...], path: path)
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

        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == quote {
                    if index < bytes.count && bytes[index] == quote {
                        field.append(quote)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else if byte == cr || byte == lf {
                    if byte == cr && index < bytes.count && bytes[index] == lf { index += 1 }
                    field.append(lf)
                    line += 1
                } else {
                    field.append(byte)
                }
                continue
            }
            if recordIsEmpty && byte != cr && byte != lf {
                recordIsEmpty = false
                recordLine = line
            }
            switch byte {
            case quote where field.isEmpty && !fieldWasQuoted:
                inQuotes = true
                fieldWasQuoted = true
                quoteLine = line
            case comma:
                endField()
            case cr, lf:
                if byte == cr && index < bytes.count && bytes[index] == lf { index += 1 }
                try endRecord()
                line += 1
            default:
                field.append(byte)
            }
        }
        if inQuotes {
            throw BookClubError.badImport(path: path, line: quoteLine, detail: "a quoted field is never closed")
        }
        try endRecord()
    }

    /// Refuses bytes that are not UTF-8, naming the line of the first bad one.
    private static func checkUTF8(_ bytes: ArraySlice<UInt8>, path: String) throws {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
            case .emptyInput:
                return
            case .error:
                throw BookClubError.badImport(
                    path: path, line: line, detail: "not UTF-8 text; export or save it as UTF-8")
            }
        }
    }
}
