import Foundation
import Testing

@testable import BookClubCore

/// The RFC 4180 reader under the importers: what it reads, and what it refuses, naming the line.
@Suite struct CSVTableTests {
    func table(_ text: String) throws -> CSVTable {
        try CSVTable(parsing: Data(text.utf8), path: "t.csv")
    }

    func rows(_ text: String) throws -> [[String]] {
        try table(text).rows.map(\.fields)
    }

    @Test func plainFieldsAndTheHeader() throws {
        let table = try table("Title,Author\nDune,Frank Herbert\nKindred,Octavia E. Butler\n")
        #expect(table.header == ["Title", "Author"])
        #expect(
            table.rows == [
                .init(line: 2, fields: ["Dune", "Frank Herbert"]),
                .init(line: 3, fields: ["Kindred", "Octavia E. Butler"]),
            ])
    }

    @Test func quotedFieldsHoldCommasDoubledQuotesAndLineBreaks() throws {
        let text = "a,b,c\n\"Herbert, Frank\",\"say \"\"hi\"\"\",\"one\ntwo\"\nx,\"\",\"=\"\"0140236666\"\"\"\n"
        #expect(try rows(text) == [["Herbert, Frank", "say \"hi\"", "one\ntwo"], ["x", "", "=\"0140236666\""]])
    }

    @Test func aRowAfterALineBreakInQuotesStartsOnItsOwnLine() throws {
        let table = try table("a,b\n\"1\n2\n3\",x\ny,z\n")
        #expect(table.rows.map(\.line) == [2, 5])
    }

    @Test(arguments: [
        "a,b\r\n1,2\r\n3,4\r\n", "a,b\n1,2\n3,4\n", "a,b\n1,2\n3,4", "a,b\r\n1,2\r\n3,4", "\u{FEFF}a,b\n1,2\n3,4\n",
    ])
    func lineEndingsAByteOrderMarkAndTheLastLine(_ text: String) throws {
        let table = try table(text)
        #expect(table.header == ["a", "b"])
        #expect(table.rows.map(\.fields) == [["1", "2"], ["3", "4"]])
    }

    @Test func lineBreaksInsideQuotesAreReadAsLF() throws {
        #expect(try rows("a\r\n\"one\r\ntwo\"\r\n") == [["one\ntwo"]])
    }

    @Test func emptyLinesArePassedOverAndEmptyFieldsKept() throws {
        let table = try table("a,b,c\n\n,,\n\r\n1,,3\n\n")
        #expect(table.rows == [.init(line: 3, fields: ["", "", ""]), .init(line: 5, fields: ["1", "", "3"])])
    }

    @Test func strayQuotesAreKeptAsTheyAreAsOtherReadersDo() throws {
        #expect(try rows("a,b\nsay \"hi\",\"quoted\" then\n") == [["say \"hi\"", "quoted then"]])
    }

    @Test func unicodeIsKept() throws {
        #expect(
            try rows("t\nEl guardián invisible\n\"🦄, é\u{301}\"\n") == [["El guardián invisible"], ["🦄, é\u{301}"]])
    }

    @Test(arguments: [
        ("a,b\n1,2\n3\n", BookClubError.badImport(path: "t.csv", line: 3, detail: "1 field where the header has 2")),
        ("a,b\n1,2,3\n", .badImport(path: "t.csv", line: 2, detail: "3 fields where the header has 2")),
        ("a,b\n\"1\n2\",x\n3,4,5\n", .badImport(path: "t.csv", line: 4, detail: "3 fields where the header has 2")),
        ("a,b\n1,\"never\nclosed\n", .badImport(path: "t.csv", line: 2, detail: "a quoted field is never closed")),
        ("a,\"b\n", .badImport(path: "t.csv", line: 1, detail: "a quoted field is never closed")),
        ("", .badImport(path: "t.csv", line: nil, detail: "empty; expected a header line")),
        ("\n\r\n", .badImport(path: "t.csv", line: nil, detail: "empty; expected a header line")),
    ])
    func malformedFilesAreRefusedNamingTheLine(_ text: String, _ error: BookClubError) throws {
        #expect(throws: error) { try table(text) }
    }

    @Test func textThatIsNotUTF8IsRefusedNamingTheLine() throws {
        let latin1 = Data("a,b\n1,2\nCaf".utf8) + Data([0xE9]) + Data(",x\n".utf8)
        #expect(
            throws: BookClubError.badImport(
                path: "t.csv", line: 3, detail: "not UTF-8 text; export or save it as UTF-8")
        ) {
            try CSVTable(parsing: latin1, path: "t.csv")
        }
    }

    @Test func theMessageNamesTheFileTheLineAndThatNothingWasImported() {
        let error = BookClubError.badImport(path: "export.csv", line: 7, detail: "3 fields where the header has 2")
        #expect(
            error.localizedDescription == "export.csv: line 7: 3 fields where the header has 2; nothing was imported.")
        #expect(error.kind == .dataFile)
    }

    @Test func theHeaderIsCheckedBeforeAnyRow() throws {
        struct WrongFile: Error {}
        #expect(throws: WrongFile.self) {
            try CSVTable(parsing: Data("x\n1,2,3\n".utf8), path: "t.csv") { _ in throw WrongFile() }
        }
    }

    /// An export's field is quoted, looked at a byte at a time, where it holds a comma, a quote or any
    /// line break `Character` knows: among letters of many scripts, marks that combine (a quote with an
    /// accent on it is still a quote: looked for among characters, it was not, and went unquoted), and
    /// the bytes that start and go on the breaks of more than one.
    @Test func aFieldIsQuotedForTheLineBreaksCharactersKnow() {
        let pieces = [
            "a", ",", "\"", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\t", "é",
            "\u{301}",
            "ノ", "ש", "📚", "\u{2027}", "\u{202A}", "\u{C5}", "\u{105}", " ",
        ]
        var random = SeededGenerator(state: 11)
        var quotedCount = 0
        for _ in 0..<5_000 {
            let field = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            let needsQuotes =
                field.unicodeScalars.contains { $0 == "," || $0 == "\"" } || field.contains { $0.isNewline }
            let doubled = String(
                String.UnicodeScalarView(field.unicodeScalars.flatMap { $0 == "\"" ? [$0, $0] : [$0] }))
            let expected = needsQuotes ? "\"" + doubled + "\"" : field
            #expect(GoodreadsCSV.quoted(field) == expected, "\(field.debugDescription)")
            if expected != field { quotedCount += 1 }
        }
        #expect(quotedCount > 1_000)
    }
}
