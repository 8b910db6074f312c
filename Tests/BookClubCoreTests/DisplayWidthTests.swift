import BookClubCore
import Testing

@testable import bookclub

/// Terminal columns: CJK and emoji take two, combining marks and joiners none, and every table,
/// cut and wrap measures with the one function.
@Suite struct DisplayWidthTests {
    @Test func theTablesAreFromUnicode18() {
        #expect(DisplayWidth.unicodeVersion == "18.0.0")
    }

    @Test(arguments: [
        ("Dune", 4), ("ノルウェイの森", 14), ("三体", 4), ("수학의 정석", 11), ("ＡＢＣ", 6),  // fullwidth Latin
        ("Cafe\u{301}", 4), ("Café", 4), ("e\u{301}\u{302}", 1),  // decomposed and stacked accents
        // presentation, skin tone, ZWJ, VS16, keycap, flag
        ("👍", 2), ("👍🏽", 2), ("👩‍👩‍👧", 2), ("❤️", 2), ("❤", 1), ("1️⃣", 2), ("🇯🇵", 2),
        ("a\u{200D}b", 2), ("\u{200B}", 0), ("\u{FE0F}", 0),  // joiners alone
        ("مئة عام من العزلة", 17), ("שָׁלוֹם", 4),  // Arabic; Hebrew with points
        ("한", 2), ("\u{1112}\u{1161}\u{11AB}", 2),  // a precomposed and a decomposed syllable
        ("\u{1B}[1mbold\u{1B}[0m", 4),  // bookclub's own styles take no columns
    ])
    func columns(_ text: String, _ expected: Int) {
        #expect(text.displayWidth == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// The one-pass reading of plain text's bytes (ASCII, Latin letters, box drawing and blocks,
    /// kana, ideographs, Hangul) counts as the character-by-character count does, at the edges of its ranges and past them.
    @Test func theFastCountAgreesWithTheCharacters() {
        let scalars: [UInt32] = [
            0x20, 0x41, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xE9, 0x2FF, 0x300, 0x301, 0x3B1, 0x24FF, 0x2500, 0x2588, 0x258F,
            0x2591, 0x259F, 0x25A0, 0x2026, 0x200D, 0x30CE, 0x1F44D, 0xFE0F, 0x1B,
            // Kana and their combining marks, the ideographs, Hangul syllables and trailing jamo.
            0x3000, 0x3040, 0x3041, 0x3096, 0x3097, 0x3099, 0x309A, 0x309B, 0x30FF, 0x3100, 0x4DFF, 0x4E00, 0x68EE,
            0x9FFF, 0xA000, 0xABFF, 0xAC00, 0xD7A3, 0xD7A4, 0x11A8, 0x1160, 0xE0101, 0xFE00, 0xFF01,
        ]
        var random = SeededGenerator(state: 2026)
        for _ in 0..<20_000 {
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...6, using: &random)).map { _ in
                        Unicode.Scalar(scalars.randomElement(using: &random)!)!
                    }))
            var counter = DisplayWidth.Counter()
            let expected = text.reduce(0) { $0 + counter.columns($1) }
            #expect(text.displayWidth == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test(arguments: [
        ("ノルウェイの森", 7, "ノルウ…"), ("ノルウェイの森", 8, "ノルウ…"), ("ノルウェイの森", 14, "ノルウェイの森"),
        ("👩‍👩‍👧 family", 4, "👩‍👩‍👧 …"), ("Cafe\u{301} society", 5, "Cafe\u{301}…"), ("Dune", 3, "Du…"), ("Dune", 0, ""),
    ])
    func truncationNeverCutsAGraphemeOrAWideCharacter(_ text: String, _ width: Int, _ expected: String) {
        let cut = text.truncated(toWidth: width)
        #expect(cut == expected)
        #expect(cut.displayWidth <= width)
    }

    @Test func tableColumnsLineUpWithWideTitles() {
        let rows: [[TerminalText]] = [
            ["1", "ノルウェイの森", "村上春樹", "30%"], ["2", "Dune", "Frank Herbert", "5%"], ["3", "👩‍👩‍👧 Family", "Zoë", "100%"],
            ["4", "مئة عام من العزلة", "غابرييل غارسيا ماركيز", "0%"],
            ["5", "Cafe\u{301} Society", "e\u{301}mile", "0%"],
        ]
        for width in [nil, 80, 40, 30] as [Int?] {
            let lines = Table(rows: rows, flexibleColumns: [1, 2], rightAligned: [3]).render(width: width)
            let widths = Set(lines.map(\.displayWidth))
            #expect(
                widths.count == 1,
                "every row ends in the same column at width \(width.map(String.init) ?? "none"): \(lines)")
            if let width { #expect(widths.first! <= width) }
        }
    }

    @Test func wrappingBreaksAtWordsAndInsideLongCJKRuns() {
        #expect(TextWrapping.wrap("the quick brown fox jumps", width: 10) == "the quick\nbrown fox\njumps")
        let japanese = TextWrapping.wrap("ワタナベは直子と再会する。長い会話", width: 10)
        #expect(japanese == "ワタナベは\n直子と再会\nする。長い\n会話")
        #expect(japanese.split(separator: "\n").allSatisfy { String($0).displayWidth <= 10 })
        #expect(
            TextWrapping.wrap("see https://example.com/a/very/long/path", width: 12)
                == "see\nhttps://example.com/a/very/long/path", "a long ASCII word is never broken")
        #expect(
            TextWrapping.hanging("one two three four five six seven", width: 30, firstColumn: 10, indent: 4)
                == "one two three four\n    five six seven")
        #expect(TextWrapping.hanging("one two three", width: nil, firstColumn: 10, indent: 4) == "one two three")
    }

    @Test func aWrappingLastColumnHangsUnderItself() {
        let table = Table(
            rows: [["Fri 20 Nov", "a note long enough to wrap under its own column"]], wrapsLastColumn: true)
        #expect(
            table.render(width: 34) == [
                "Fri 20 Nov  a note long enough to", "            wrap under its own", "            column",
            ])
        #expect(table.render(width: nil) == ["Fri 20 Nov  a note long enough to wrap under its own column"])
    }

    @Test func aRowEndsWhereItsTextDoes() {
        // Empty cells between others keep their columns; padding, separators and a cell's own spaces at
        // the end of a row go; a right-aligned last column keeps its padding before the text.
        let rows: [[TerminalText]] = [
            ["a", "", "", "x  "], ["bbb", "cc", "", "y"], ["", "", "d", ""], ["e", "f", "g", "hhhh"],
        ]
        #expect(
            Table(rows: rows).render(width: nil).map(\.string) == [
                "a           x", "bbb  cc     y", "         d", "e    f   g  hhhh",
            ])
        #expect(
            Table(rows: rows, rightAligned: [3]).render(width: nil).map(\.string) == [
                "a            x", "bbb  cc        y", "         d", "e    f   g  hhhh",
            ])
        let wide: [[TerminalText]] = [["ノルウェイの森", "\(String(repeating: "é", count: 70))"]]
        #expect(Table(rows: wide).render(width: nil).map(\.displayWidth) == [14 + 2 + 70])
    }
}
