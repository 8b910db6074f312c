import BookClubCore
import Testing

@testable import bookclub

/// The one rule for text for people: what bookclub's code writes goes out as it is, every value put
/// into it with its control characters shown; colours and tables work on the shown text.
@Suite struct TerminalTextTests {
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{7F}\u{0}\u{202E}\t\n"
    static let shown = "\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{9B}31m\\u{7F}\\u{0}\\u{202E}\\t\\n"

    @Test func aValuePutInIsShownAndTheCodesOwnTextIsKept() {
        let title = "Dune" + Self.hostile
        let line: TerminalText = "Added '\(title)', \(412) pages.\n\t"
        #expect(line.string == "Added 'Dune\(Self.shown)', 412 pages.\n\t")
        #expect(TerminalText(title).string == "Dune" + Self.shown)
        let plain = "ノルウェイの森 🦄"
        #expect(TerminalText(plain).string == plain, "only controls and reordering marks are shown")
        let nested: TerminalText = "'\(TerminalText(title))'"
        #expect(nested.string == "'Dune\(Self.shown)'", "text for people already is not shown twice")
    }

    /// A value is shown as it is exactly when none of its scalars is unsafe (what is cleared by its
    /// bytes): every scalar, alone and between others of the same first bytes.
    @Test func exactlyTheSafeScalarsGoOutAsTheyAre() {
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            #expect((TerminalText(text).string == text) == !scalar.isTerminalUnsafe, "U+\(String(value, radix: 16))")
            if value < 0x100 || (0x600...0x700).contains(value) || (0x2000...0x2100).contains(value) {
                let among = "a\u{2588}\u{A0}" + text + "\u{2588}"
                #expect((TerminalText(among).string == among) == !scalar.isTerminalUnsafe)
            }
        }
    }

    @Test func aValueOfSeveralLinesKeepsOnlyItsLineBreaks() {
        let note = TerminalText(keepingLineBreaks: "one\u{1B}[2J\ntwo\tthree\n")
        #expect(note.string == "one\\u{1B}[2J\ntwo\\tthree\n")
        #expect(note.lines.map(\.string) == ["one\\u{1B}[2J", "two\\tthree", ""])
        #expect(note.lines.joined(separator: "\n  ").string == "one\\u{1B}[2J\n  two\\tthree\n  ")
    }

    @Test func colourGoesRoundTheShownValue() {
        let title = "a\u{1B}[31mb"
        #expect(Style(isEnabled: true).bold("\(title)").string == "\u{1B}[1ma\\u{1B}[31mb\u{1B}[0m")
        #expect(Style(isEnabled: false).bold("\(title)").string == "a\\u{1B}[31mb")
        #expect(Style(isEnabled: true).dim("").string == "", "nothing to colour, no sequence")
    }

    @Test func tablesMeasureAndCutTheShownText() {
        let value = "a\u{1B}[2J"
        let rows: [[TerminalText]] = [[TerminalText(value), "b"], ["long", "c"]]
        #expect(Table(rows: rows).render(width: nil).map(\.string) == ["a\\u{1B}[2J  b", "long        c"])
        let cut = Table(rows: rows, flexibleColumn: 0).render(width: 11).map(\.string)
        #expect(
            cut == ["a\\u{1B}…  b", "long      c"], "a shown escape is cut as text, not as the character it stands for"
        )
    }
}
