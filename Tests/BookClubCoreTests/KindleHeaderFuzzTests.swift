import Foundation
import Testing

@testable import BookClubCore

/// The reading of headers and dates by their UTF-8 bytes (`KindleClippings.header(_:timeZone:)`,
/// `date(_:timeZone:)`, `numbers(utf8:)`) held to the reading by characters it replaced
/// (`characterHeader`, `characterDate`, `numbers(in:)`), on the real files' headers mutated every
/// way a device, a hand or a broken disk might: both give the same for every line.
@Suite(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
struct KindleHeaderFuzzTests {
    static let files = ["kindle-2012-my-clippings.txt", "kindle-multilang-2024.txt", "kindle-edge-no-page.txt"]

    /// The header lines of the three real files, and those of every language the unit tests know.
    static func headers() throws -> [String] {
        var headers = KindleClippingsTests.headers.map(\.header)
        for name in files {
            let text = try String(contentsOfFile: RealExports.shared("ereaders/" + name), encoding: .utf8)
            for line in text.split(whereSeparator: \.isNewline) {
                let line = line.trimmingCharacters(in: .whitespaces)
                if let first = line.first, KindleClippings.dashes.contains(first) { headers.append(line) }
            }
        }
        return headers
    }

    /// What is put into a header: words of every script, marks, separators, dashes, clocks, zones.
    static let snippets = [
        "|", "｜", " | ", "-", "–", "—", "−", "－", "~", "〜", "～", " t/m ", " to ", " bis ", " до ", " 至 ", "/", ":",
        " 12:00:00", "0:00", "12:", ":30", "99:99:99", "25:00", " am", " pm", " AM", " P.M.", " a. m.", " p. m.",
        "amiga", "午後", "午前", "下午", "上午", "오후", "오전", " GMT", " GMT+01:00", " gmt-5", " UTC+14:30", " UTC+15",
        "GMT+-9999", " Greenwich Mean Time", "January", "märz", "ma\u{308}rz", "Février", "Января", "декабря", "août",
        "2024年", "1月", "6日", "2020년", "1월", "6일", "年", "月", "日", "년", "월", "일", "\u{F98E}", "書", "\u{2F8CC}",
        "Highlight", "Note", "Bookmark", "page", "Página", "Seite", "страница", "закладка", "выделение", "заметка",
        "ページ", "ハイライト", "メモ", "ブックマーク", "标注", "笔记", "书签", "页", "頁", "하이라이트", "메모", "북마크", "페이지",
        "clip", "Loc.", "location", "位置No.", "#", "（", "）", "\u{301}", "\u{308}", "\u{20DD}", "\u{200D}", "\u{200F}",
        "\u{202E}", "مرحبا", "שלום", "🐪", "👨‍👩‍👧", "🇫🇷", "🇫", "\u{1100}\u{1161}", "İ", "ẞ", "Σ", "ǅ", "\u{212A}",
        "\u{FEFF}", "\u{00A0}", "\u{3000}", "\t", "\r", "\r\n", "\u{0}", "\u{FFFD}", " ", "  ", "99999999999999999999",
        "1234567890", "123456789", "0000000000000000000012", "42-43", "1300–1301", "12-5",
    ]

    /// One mutation of a header.
    static func mutate(_ header: String, _ random: inout SeededGenerator) -> String {
        var characters = Array(header)
        func at() -> Int { Int.random(in: 0...characters.count, using: &random) }
        switch Int.random(in: 0..<10, using: &random) {
        case 0:  // a digit changed, or a run of them
            let digits = characters.indices.filter { characters[$0].isASCII && characters[$0].isNumber }
            guard let index = digits.randomElement(using: &random) else { break }
            let run = String(
                (0..<Int.random(in: 0...12, using: &random)).map { _ in "0123456789".randomElement(using: &random)! })
            characters.replaceSubrange(index...index, with: run)
        case 1:  // two words swapped
            var words = characters.split(separator: " ", omittingEmptySubsequences: false).map { String($0) }
            guard words.count >= 2 else { break }
            let (a, b) = (
                Int.random(in: 0..<words.count, using: &random), Int.random(in: 0..<words.count, using: &random)
            )
            words.swapAt(a, b)
            characters = Array(words.joined(separator: " "))
        case 2:  // a field dropped or repeated
            var fields = characters.split(separator: "|", omittingEmptySubsequences: false).map { String($0) }
            let index = Int.random(in: 0..<fields.count, using: &random)
            if Bool.random(using: &random), fields.count > 1 {
                fields.remove(at: index)
            } else {
                fields.insert(fields[index], at: Int.random(in: 0...fields.count, using: &random))
            }
            characters = Array(fields.joined(separator: Bool.random(using: &random) ? "|" : "｜"))
        case 3:  // upper case, in part or whole
            let from = at()
            let to = Int.random(in: from...characters.count, using: &random)
            characters.replaceSubrange(from..<to, with: String(characters[from..<to]).uppercased())
        case 4:  // a character removed
            guard !characters.isEmpty else { break }
            characters.remove(at: Int.random(in: 0..<characters.count, using: &random))
        case 5:  // random bytes, read as UTF-8 is
            var bytes = Array(String(characters).utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes.insert(
                    UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
            }
            characters = Array(String(decoding: bytes, as: UTF8.self))
        case 6:  // random scalars of the scripts near the ones a Kindle writes
            let ranges: [ClosedRange<UInt32>] = [
                0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x400...0x4FF, 0x590...0x6FF,
                0x2000...0x206F, 0x2E80...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x1F300...0x1FAFF,
            ]
            let range = ranges.randomElement(using: &random)!
            let scalars = (0..<Int.random(in: 1...3, using: &random)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: range, using: &random))
            }
            characters.insert(contentsOf: String(String.UnicodeScalarView(scalars)), at: at())
        default:  // a snippet put in, or put in place of a character
            let snippet = snippets.randomElement(using: &random)!
            let index = at()
            if index < characters.count, Bool.random(using: &random) {
                characters.replaceSubrange(index...index, with: snippet)
            } else {
                characters.insert(contentsOf: snippet, at: index)
            }
        }
        return String(characters)
    }

    /// 24,000 headers, each the real one mutated one to four times; of each, the header, the date
    /// of its last field and of the whole line, and the numbers of each field, read both ways.
    @Test func headersReadByBytesAsByCharacters() throws {
        let headers = try Self.headers()
        try #require(headers.count > 300)
        var random = SeededGenerator(state: 2027)
        let zones = [KindleClippingsTests.newYork, Fixture.zone("Asia/Kolkata")]
        var byBytes = 0
        var read = 0
        var dated = 0
        func check(_ line: String, _ zone: Zone) {
            let lowered = line.trimmed.dropFirst().lowercased()
            if KindleClippings.singleScalarUTF8(lowered) != nil { byBytes += 1 }
            let header = KindleClippings.header(line, timeZone: zone)
            #expect(header == KindleClippings.characterHeader(line, timeZone: zone), "\(line.debugDescription)")
            if header != nil { read += 1 }
            let last = String(line.split(separator: "|", omittingEmptySubsequences: false).last ?? "")
            for text in [last, line] {
                let date = KindleClippings.date(text, timeZone: zone)
                #expect(date == KindleClippings.characterDate(text, timeZone: zone), "\(text.debugDescription)")
                if date != nil { dated += 1 }
            }
            for field in lowered.split(separator: "|") where KindleClippings.singleScalarUTF8(String(field)) != nil {
                #expect(
                    KindleClippings.numbers(utf8: Array(field.utf8)[...]) == KindleClippings.numbers(in: Array(field)),
                    "\(field.debugDescription)")
            }
        }
        for header in headers { check(header, zones[0]) }
        let cases = 24_000
        for index in 0..<cases {
            var line = headers.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...4, using: &random) { line = Self.mutate(line, &random) }
            check(line, zones[index % 2])
        }
        // Most lines take the bytes' way, and most still read: the mutations are not all noise.
        #expect(byBytes > cases / 2, "\(byBytes) of \(cases) by bytes")
        #expect(read > cases / 2, "\(read) of \(cases) read")
        #expect(dated > cases / 2, "\(dated) dates of \(2 * cases) read")
    }

    /// A highlight's location read back (`range(_:)`, which reads what `spell(_:)` wrote without
    /// splitting) as it was by splitting at `-`, for what `spell` writes and for any other text.
    @Test func locationsReadAsBySplitting() {
        func split(_ text: String) -> ClosedRange<Int>? {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard let first = parts.first, let last = parts.last, first <= last else { return nil }
            return first...last
        }
        var random = SeededGenerator(state: 2028)
        let alphabet = Array("0123456789-+ x٣")
        for index in 0..<5000 {
            let text =
                index % 2 == 0
                ? KindleClippings.spell(
                    Int.random(in: 0...99999, using: &random)...Int.random(in: 99999...999_999_999, using: &random))
                : String(
                    (0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            #expect(KindleClippings.range(text) == split(text), "\(text)")
        }
    }

    /// The whole of each real file reads as it did when headers were read by characters: the same
    /// books, passages, notes, places and times (what the import of each is known to give), in any
    /// chunks.
    @Test(arguments: files)
    func eachFileReadsWholeAsInChunks(_ name: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RealExports.shared("ereaders/" + name)))
        let whole = KindleClippings.read(data, timeZone: KindleClippingsTests.newYork)
        #expect(whole.problems.isEmpty, "\(whole.problems)")
        let bytes = Array(data)
        for size in [1, 5, 64, 4093] {
            var reader = KindleClippings(timeZone: KindleClippingsTests.newYork)
            for start in stride(from: 0, to: bytes.count, by: size) {
                reader.read(Data(bytes[start..<min(start + size, bytes.count)]))
            }
            #expect(reader.finish() == whole, "\(name) in chunks of \(size)")
        }
        let summary = Self.summary(whole)
        #expect(summary == Self.expected[name], "\(name): \(summary)")
    }

    /// What the import of each file gave before its headers were read by bytes (taken from the reader
    /// by characters, commit 99806e4): books, highlights, notes attached, bookmarks, clipping limits,
    /// problems, and a digest of every book's title, author and origin and every highlight's id,
    /// text, note, page, location and time.
    static let expected = [
        "kindle-2012-my-clippings.txt":
            "20 books, 457 highlights, 4 notes, 5 bookmarks, 0 limits, 0 problems, 3c61b36aa4e377db",
        "kindle-multilang-2024.txt":
            "1 books, 11 highlights, 11 notes, 11 bookmarks, 0 limits, 0 problems, e9164db1c2a2d07e",
        "kindle-edge-no-page.txt":
            "2 books, 2 highlights, 0 notes, 0 bookmarks, 0 limits, 0 problems, dc501bc9a065f392",
    ]

    static func summary(_ read: ReaderImport) -> String {
        let highlights = read.books.flatMap(\.highlights)
        var fields: [String] = []
        for book in read.books {
            fields += [book.title, book.author ?? "-", book.origin]
            for highlight in book.highlights {
                let page = highlight.page.map { "\($0)" } ?? "-"
                let time = highlight.time.map { "\($0.timeIntervalSince1970)" } ?? "-"
                fields += [highlight.id, highlight.text, highlight.note ?? "-", page, highlight.location ?? "-", time]
            }
        }
        return "\(read.books.count) books, \(highlights.count) highlights, \(read.notesAttached) notes, "
            + "\(read.bookmarks) bookmarks, \(read.clippingLimits) limits, \(read.problems.count) problems, "
            + ReaderImport.digest(fields)
    }
}
