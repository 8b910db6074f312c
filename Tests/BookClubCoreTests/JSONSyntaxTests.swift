import Foundation
import Testing

@testable import BookClubCore

/// A file edited by hand that is no longer JSON is reported with where: the line, the column in
/// characters (not bytes), and what was expected there.
@Suite struct JSONSyntaxTests {
    @Test(arguments: [
        ("{\n  \"books\" : [\n    { \"id\": \"x\", \n  ]\n}\n", "line 4, column 3: expected a key in double quotes"),
        (
            "{\"title\": \"ノルウェイの森 📚\", \"x\": tru}",
            "line 1, column 29: expected a value (true, false, null, a number, a string, [ or {)"
        ),
        ("[1, 2 3]", "line 1, column 7: expected ',' or ']'"),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after the key"),
        ("{\"a\": \"one\ntwo\"}", "line 1, column 11: expected '\"' before the end of the line"),
        ("{\"a\": 01}", "line 1, column 8: expected ',' or '}'"),
        ("{\"a\": \"\\q\"}", "line 1, column 9: expected an escape (\\\", \\\\, \\n, \\uXXXX…)"),
        ("{} {}", "line 1, column 4: expected the end of the document"),
        ("", "line 1, column 1: expected a value"),
        ("{\"a\": [", "line 1, column 8: expected a value"),
    ])
    func whereADocumentStopsBeingJSON(_ text: String, _ expected: String) {
        #expect(JSONSyntax.error(in: Data(text.utf8)) == expected)
    }

    @Test(arguments: ["{}", "[]", " {\"a\": [1, -2.5e3, true, false, null, \"\\u00e9\\n\"]} \n", "\"ok\"", "0"])
    func jsonIsJSON(_ text: String) {
        #expect(JSONSyntax.error(in: Data(text.utf8)) == nil)
    }

    /// A comma taken out inside a book of the snapshot, as a hand edit might: said with where.
    @Test func aBookEditedByHandSaysWhereItBroke() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--author", "Frank Herbert")
        _ = try bookclub.add("ノルウェイの森", "--author", "村上春樹")
        #expect(try bookclub.run("doctor", "--fix").exitCode == 0)
        let text = try String(contentsOfFile: bookclub.storePath, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let author = try #require(lines.firstIndex { $0.contains("\"author\" : \"村上春樹\",") })
        try text.replacing("\"author\" : \"村上春樹\",", with: "\"author\" : \"村上春樹\"")
            .write(toFile: bookclub.storePath, atomically: true, encoding: .utf8)
        let list = try bookclub.run("list")
        #expect(list.exitCode == 65)
        #expect(
            list.stderr.contains("not valid JSON at line \(author + 2), column 7: expected ',' or '}'"),
            "\(list.stderr)")
    }

    @Test func aStoreEditedByHandSaysWhereItBroke() throws {
        let files = FileSystem.inMemory()
        try files.writeAtomically("/s/store.json", Data("{\n  \"books\" : [\n    { \"id\": \"x\", \n  ]\n}\n".utf8))
        #expect(
            throws: BookClubError.corruptFile(
                path: "/s/store.json", detail: "not valid JSON at line 4, column 3: expected a key in double quotes")
        ) {
            try LibraryStorage(path: "/s/store.json", fileSystem: files).history(of: nil)
        }
    }
}
