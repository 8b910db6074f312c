import Foundation
import Testing

@testable import BookClubCore

/// The CSV reader that takes runs of bytes at once (`CSVTable`) held to the reader it replaced, which
/// took a byte at a time and checked UTF-8 with the standard library's decoder (kept here as
/// `ByteAtATimeCSV`), on the real exports mutated every way a hand, a spreadsheet or a broken disk
/// might, and on random runs of the bytes that matter: both read the same header and rows on the same
/// lines, or refuse with the same message. `BOOKCLUB_FUZZ_COUNT` and `BOOKCLUB_FUZZ_SEED` as in
/// `FuzzTests`.
@Suite struct CSVFuzzTests {
    static let exports = ["goodreads-2024-24col.csv", "goodreads-legacy-31col.csv", "storygraph.csv"]

    /// What a reader made of `data`: the header and each row with its line, or the error's words.
    static func reading(_ read: (Data) throws -> ([String], [CSVTable.Row])) -> String {
        do {
            let (header, rows) = try read(Data())
            return "\(header) \(rows.map { "\($0.line): \($0.fields)" })"
        } catch {
            return "refused: \(error)"
        }
    }

    static func both(_ data: Data) -> (runs: String, bytes: String) {
        let runs = reading { _ in
            let table = try CSVTable(parsing: data, path: "fuzz.csv")
            return (table.header, table.rows)
        }
        let bytes = reading { _ in try ByteAtATimeCSV.read(data, path: "fuzz.csv") }
        return (runs, bytes)
    }

    /// Bytes that matter to the reader, and some that break UTF-8 (a lone continuation, an overlong
    /// form, a surrogate, past U+10FFFF, a sequence cut short).
    static let pieces: [[UInt8]] = [
        Array("\"".utf8), Array("\"\"".utf8), Array(",".utf8), Array("\r\n".utf8), Array("\n".utf8), Array("\r".utf8),
        Array("a".utf8), Array("Dune".utf8), Array(" ".utf8), Array("é".utf8), Array("ノルウェイの森".utf8),
        Array("🦄".utf8), Array("كتاب".utf8), [0xEF, 0xBB, 0xBF], [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xE2, 0x82], [0xF0, 0x9F, 0xA6], [0xFF], [0x00],
        Array(String(repeating: "x", count: 9).utf8),
    ]

    @Test(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
    func runsReadAsBytesOnTheRealExportsMutated() throws {
        var random = SeededGenerator(state: FuzzTests.seed &+ 11)
        let texts = try Self.exports.map { try String(decoding: RealExports.data($0), as: UTF8.self) }
        for text in texts {
            let whole = Self.both(Data(text.utf8))
            #expect(whole.runs == whole.bytes)
            #expect(!whole.runs.hasPrefix("refused"), "a real export is read")
        }
        var refused = 0
        for _ in 0..<FuzzTests.count / 4 {
            // A stretch of a real export, mutated.
            let text = texts.randomElement(using: &random)!
            let start = Int.random(in: 0..<max(1, text.utf8.count - 4_000), using: &random)
            var bytes = Array(text.utf8.dropFirst(start).prefix(Int.random(in: 0...4_000, using: &random)))
            if Bool.random(using: &random) { bytes = Array(text.utf8.prefix(600)) + bytes }
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let piece = Self.pieces.randomElement(using: &random)!
                let at = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.insert(contentsOf: piece, at: at)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random)))
                default: bytes.replaceSubrange(at..<min(bytes.count, at + piece.count), with: piece)
                }
            }
            let read = Self.both(Data(bytes))
            #expect(read.runs == read.bytes, "\(bytes)")
            if read.runs.hasPrefix("refused") { refused += 1 }
        }
        #expect(refused > 0 && refused < FuzzTests.count / 4, "both kinds of outcome were tried")
    }

    @Test func runsReadAsBytesOnRandomBytes() {
        var random = SeededGenerator(state: FuzzTests.seed &+ 12)
        var outcomes = Set<Bool>()
        for _ in 0..<FuzzTests.count / 4 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) { bytes += Self.pieces.randomElement(using: &random)! }
            let read = Self.both(Data(bytes))
            #expect(read.runs == read.bytes, "\(bytes)")
            outcomes.insert(read.runs.hasPrefix("refused"))
        }
        #expect(outcomes == [true, false])
    }

    @Test func theUTF8CheckAgreesWithTheStandardLibrary() {
        var random = SeededGenerator(state: FuzzTests.seed &+ 13)
        for _ in 0..<FuzzTests.count {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                bytes +=
                    Bool.random(using: &random)
                    ? Self.pieces.randomElement(using: &random)! : [UInt8.random(in: 0...255, using: &random)]
            }
            #expect((CSVTable.firstNonUTF8(bytes, from: 0) == nil) == (String(validating: bytes, as: UTF8.self) != nil))
        }
    }
}

/// `CSVTable`'s reader as it was before it took runs of bytes: the reference the fuzz tests hold it to.
enum ByteAtATimeCSV {
    static func read(_ data: Data, path: String) throws -> ([String], [CSVTable.Row]) {
        var header: [String]?
        var rows: [CSVTable.Row] = []
        try forEachRecord(in: Array(data), path: path) { line, fields in
            guard let header else {
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
            rows.append(CSVTable.Row(line: line, fields: fields))
        }
        guard let header else {
            throw BookClubError.badImport(path: path, line: nil, detail: "empty; expected a header line")
        }
        return (header, rows)
    }

    static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"),
        lf = UInt8(ascii: "\n")

    /// Calls `body` with each record and the line it starts on.
    static func forEachRecord(in bytes: [UInt8], path: String, _ body: (Int, [String]) throws -> Void) throws {
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
    static func checkUTF8(_ bytes: ArraySlice<UInt8>, path: String) throws {
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
