import BookClubCore
import Testing

/// `trimmed` takes white space off both ends as `Character.isWhitespace` has it, whether or not its
/// ends are ASCII.
@Suite struct TrimmingTests {
    @Test(
        arguments: [
            ("dune", "dune"), (" dune\t", "dune"), ("\r\n{\"book\": 1}\n", "{\"book\": 1}"), ("", ""), (" \n\t ", ""),
            ("\u{85}dune\u{A0}", "dune"), ("\u{3000}ノルウェイの森\u{2003}", "ノルウェイの森"), ("ノルウェイの森", "ノルウェイの森"),
            ("a\u{301}", "a\u{301}"), ("\u{301}a", "\u{301}a"), ("📚 a b 📚", "📚 a b 📚"),
            ("\u{1F}x\u{1C}", "\u{1F}x\u{1C}"),
            ("\u{0600}1", "\u{0600}1"), ("x\u{0B}", "x"),
        ] as [(String, String)])
    func whiteSpaceComesOffBothEnds(_ text: String, _ expected: String) {
        #expect(text.trimmed == expected)
        let first = text.firstIndex { !$0.isWhitespace }
        let last = text.lastIndex { !$0.isWhitespace }
        #expect(text.trimmed == (first.map { String(text[$0...last!]) } ?? ""))
    }
}
