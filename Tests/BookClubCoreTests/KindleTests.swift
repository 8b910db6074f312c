import Foundation
import Testing

@testable import BookClubCore

/// `My Clippings.txt` as Kindles of every generation and language write it.
@Suite struct KindleClippingsTests {
    static let newYork = Fixture.zone("America/New_York")

    /// `2020-01-06 13:05:09` in New York, where the reader lives and the device wrote no zone.
    static let localAfternoon = Date(timeIntervalSince1970: 1_578_333_909)

    /// One header in each language a Kindle speaks, and what it says.
    static let headers:
        [(header: String, kind: KindleClippings.Clipping.Kind, page: Int?, location: ClosedRange<Int>?)] = [
            (
                "- Your Highlight on page 12 | location 123-124 | Added on Monday, January 6, 2020 1:05:09 PM",
                .highlight, 12, 123...124
            ),
            (
                "- Your Highlight on page 12 | location 123-124 | Added on Monday, 6 January 2020 13:05:09", .highlight,
                12, 123...124
            ),
            (
                "- Your Highlight at location 123-124 | Added on Monday, 6 January 2020 13:05:09", .highlight, nil,
                123...124
            ),
            ("- Your Note on page 12 | location 124 | Added on Monday, 6 January 2020 13:05:09", .note, 12, 124...124),
            (
                "- Your Bookmark on page 12 | location 123 | Added on Monday, 6 January 2020 13:05:09", .bookmark, 12,
                123...123
            ),
            (
                "- Ihre Markierung auf Seite 12 | Position 123-124 | Hinzugefügt am Montag, 6. Januar 2020 13:05:09",
                .highlight, 12, 123...124
            ),
            (
                "- Tu subrayado en la página 12 | posición 123-124 | Añadido el lunes, 6 de enero de 2020 13:05:09",
                .highlight, 12, 123...124
            ),
            (
                "- Votre surlignement sur la page 12 | emplacement 123-124 | Ajouté le lundi 6 janvier 2020 13:05:09",
                .highlight, 12, 123...124
            ),
            (
                "- La tua evidenziazione a pagina 12 | posizione 123-124 | Aggiunto il lunedì 6 gennaio 2020 13:05:09",
                .highlight, 12, 123...124
            ),
            (
                "- Uw markering op pagina 12 | locatie 123-124 | Toegevoegd op maandag 6 januari 2020 13:05:09",
                .highlight, 12, 123...124
            ),
            (
                "- Seu destaque na página 12 | posição 123-124 | Adicionado em segunda-feira, 6 de janeiro de 2020 13:05:09",
                .highlight, 12, 123...124
            ),
            (
                "- Ваше выделение на странице 12 | позиция 123–124 | Добавлено: понедельник, 6 января 2020 г. в 13:05:09",
                .highlight, 12, 123...124
            ),
            ("- 12ページ|位置No. 123-124のハイライト |作成日: 2020年1月6日月曜日 13:05:09", .highlight, 12, 123...124),
            ("- 位置No. 124のメモ |作成日: 2020年1月6日 月曜日 13:05:09", .note, nil, 124...124),
            ("- 您在第 12 页（位置 #123-124）的标注 | 添加于 2020年1月6日星期一 下午1:05:09", .highlight, 12, 123...124),
        ]

    @Test(arguments: headers.indices)
    func everyLanguageReads(_ index: Int) throws {
        let (text, kind, page, location) = Self.headers[index]
        let header = try #require(KindleClippings.header(text, timeZone: Self.newYork), "\(text)")
        #expect(header.kind == kind, "\(text)")
        #expect(header.page == page, "\(text)")
        #expect(header.location == location, "\(text)")
        #expect(header.time == Self.localAfternoon, "\(text)")
    }

    @Test func oldFirmwareWritesTheRangeEndShortAYearOfTwoDigitsAndAZone() throws {
        let header = try #require(
            KindleClippings.header(
                "- Highlight Loc. 242-43  | Added on Monday, 3 December 12 19:00:12 Greenwich Mean Time",
                timeZone: Self.newYork))
        #expect(header.kind == .highlight)
        #expect(header.location == 242...243)
        #expect(header.time == Date(timeIntervalSince1970: 1_354_561_212))  // 2012-12-03T19:00:12Z
        let shifted = try #require(
            KindleClippings.header(
                "- Highlight on Page 90 | Loc. 1456  | Added on Thursday, 24 January 13 17:55:16 GMT+01:00",
                timeZone: Self.newYork))
        #expect(shifted.page == 90)
        #expect(shifted.time == Date(timeIntervalSince1970: 1_359_046_516))  // 16:55:16Z
        for unreadable in ["Dune (Frank Herbert)", "- Something else | Added on Monday", "", "-"] {
            #expect(KindleClippings.header(unreadable, timeZone: .utc) == nil, "\(unreadable)")
        }
    }

    /// A language bookclub has no words for (Polish, as it might be): the header's shape says what
    /// each entry is, a range a highlight, a single place a note, and one with no text a bookmark.
    @Test func aHeaderInALanguageWithNoKnownWordsIsReadByItsShape() throws {
        let highlight = try #require(
            KindleClippings.header(
                "– Twoje zakreślenie na stronie 112 | lokalizacja 1300–1301 | Dodano: czwartek, 22 sierpnia 2024 18:10:53",
                timeZone: Self.newYork))
        #expect(highlight.kind == .highlight)
        #expect(highlight.inferred)
        #expect(highlight.page == 112)
        #expect(highlight.location == 1300...1301)
        #expect(highlight.time == nil, "a month bookclub cannot name")
        let file = [
            "Dune (Frank Herbert)",
            "- Twoje zakreślenie na stronie 8 | lokalizacja 90-95 | Dodano: poniedziałek, 6 January 2020 13:05:09",
            "", "Fear is the mind-killer.", "==========",
            "Dune (Frank Herbert)",
            "- Twój przypis na stronie 8 | lokalizacja 92 | Dodano: poniedziałek, 6 January 2020 13:05:09",
            "", "the litany", "==========",
            "Dune (Frank Herbert)",
            "- Twoja zakładka na stronie 8 | lokalizacja 92 | Dodano: poniedziałek, 6 January 2020 13:05:09",
            "", "", "==========",
        ].joined(separator: "\n")
        let read = KindleClippings.read(Data(file.utf8), timeZone: Self.newYork)
        #expect(read.problems.isEmpty)
        let highlights = read.books.first?.highlights ?? []
        #expect(highlights.map(\.text) == ["Fear is the mind-killer."])
        #expect(highlights.first?.note == "the litany")
        #expect(highlights.first?.page == 8)
        #expect(highlights.first?.location == "90-95")
        #expect(highlights.first?.time == Self.localAfternoon)
        #expect(read.notesAttached == 1)
        #expect(read.bookmarks == 1)
    }

    /// Past noon only by `PM` or its like: not by the `am` of `Hinzugefügt am` or of `samedi`.
    @Test func aTwelveOClockTimeIsNoonUnlessTheClockSaysAM() throws {
        let noon = Date(timeIntervalSince1970: 1_578_330_309)  // 2020-01-06 12:05:09 in New York
        for (text, time) in [
            (
                "- Deine Markierung auf Seite 12 | Position 123-124 | Hinzugefügt am Montag, 6. Januar 2020 12:05:09",
                noon
            ),
            (
                "- Votre surlignement sur la page 12 | emplacement 123-124 | Ajouté le samedi 4 janvier 2020 12:05:09",
                Date(timeIntervalSince1970: 1_578_157_509)
            ),
            ("- Your Highlight on page 12 | location 123-124 | Added on Monday, January 6, 2020 12:05:09 PM", noon),
            (
                "- Your Highlight on page 12 | location 123-124 | Added on Monday, January 6, 2020 12:05:09 AM",
                Date(timeIntervalSince1970: 1_578_287_109)
            ),
            (
                "- Tu subrayado en la página 12 | posición 123-124 | Añadido el lunes, 6 de enero de 2020 12:05:09 p. m.",
                noon
            ),
            ("- 您在第 12 页（位置 #123-124）的标注 | 添加于 2020年1月6日星期一 上午12:05:09", Date(timeIntervalSince1970: 1_578_287_109)),
        ] {
            let header = try #require(KindleClippings.header(text, timeZone: Self.newYork), "\(text)")
            #expect(header.time == time, "\(text)")
        }
    }

    @Test func rangesAreReadWithEveryDashAndWithAWordBetween() {
        func numbers(_ text: String) -> [ClosedRange<Int>] { KindleClippings.numbers(in: Array(text)) }
        #expect(numbers("место 1300–1301") == [1300...1301])
        #expect(numbers("locatie 1300 t/m 1301") == [1300...1301])
        #expect(numbers("loc. 242-43") == [242...243])
        #expect(numbers("您在第 112 页（位置 #1300-1301）的标注") == [112...112, 1300...1301])
        #expect(numbers("page 12 to 5") == [12...12, 5...5], "a word between is a range only going up")
        #expect(numbers("1300-1200") == [1300...1300])
        #expect(numbers("99999999999999999999-1 7") == [1...1, 7...7], "more than nine digits are no number")
    }

    @Test func theAuthorIsTheLastGroupInBrackets() {
        #expect(KindleClippings.titleAndAuthor("Dune (Frank Herbert)") == ("Dune", "Frank Herbert"))
        #expect(
            KindleClippings.titleAndAuthor("Spanish Tales (Spanish Edition) (E. C. (Elijah Clarence) Hills)")
                == ("Spanish Tales (Spanish Edition)", "E. C. (Elijah Clarence) Hills"))
        #expect(KindleClippings.titleAndAuthor("New Dictionary ( )") == ("New Dictionary", nil))
        #expect(KindleClippings.titleAndAuthor("ノルウェイの森") == ("ノルウェイの森", nil))
        #expect(KindleClippings.titleAndAuthor("(Only brackets)") == ("(Only brackets)", nil))
        #expect(KindleClippings.titleAndAuthor("Unbalanced (a (b)") == ("Unbalanced (a", "b"))
    }

    /// A file with every form at once: a byte-order mark at the start and before an entry, CRLF, a
    /// leading separator, an extended highlight, a note on a highlight and one on its own, a
    /// bookmark, the clipping limit, a header no Kindle wrote, and a final separator cut short.
    static let mixed = [
        "\u{FEFF}==========",
        "ノルウェイの森 (村上春樹)",
        "- 12ページ|位置No. 1300-1301のハイライト |作成日: 2020年1月6日月曜日 13:05:09",
        "",
        "僕は三十七歳で",
        "==========",
        "\u{FEFF}ノルウェイの森 (村上春樹)",
        "- 12ページ|位置No. 1300-1305のハイライト |作成日: 2020年1月6日月曜日 13:06:00",
        "",
        "僕は三十七歳で、そのときボーイング747のシートに座っていた。",
        "==========",
        "ノルウェイの森 (村上春樹)",
        "- 位置No. 1303のメモ |作成日: 2020年1月6日月曜日 13:07:00",
        "",
        "the opening",
        "==========",
        "Dune (Frank Herbert)",
        "- Your Bookmark on page 5 | location 60 | Added on Monday, 6 January 2020 13:05:09",
        "",
        "",
        "==========",
        "Dune (Frank Herbert)",
        "- Your Highlight on page 8 | location 100-101 | Added on Monday, 6 January 2020 13:05:09",
        "",
        "<You have reached the clipping limit for this item>",
        "==========",
        "Dune (Frank Herbert)",
        "- Your Highlight on page 8 | location 90-95 | Added on Monday, 6 January 2020 13:05:09",
        "",
        "Fear is the mind-killer.",
        "==========",
        "Dune (Frank Herbert)",
        "- Your Note on page 9 | location 400 | Added on Monday, 6 January 2020 13:10:00",
        "",
        "a note on no passage",
        "==========",
        "Dune (Frank Herbert)",
        "- Whatever this is",
        "",
        "text",
        "==========",
        "الخيميائي (باولو كويلو)",
        "- Your Highlight on page 3 | Added on Monday, 6 January 2020 13:05:09",
        "",
        "First on page 3 🐪",
        "==========",
        "الخيميائي (باولو كويلو)",
        "- Your Highlight on page 3 | Added on Monday, 6 January 2020 13:05:10",
        "",
        "Second on page 3",
        "=====",
    ].joined(separator: "\r\n")

    @Test func aFileOfEveryFormReadsWholeInAnyChunks() throws {
        let whole = KindleClippings.read(Data(Self.mixed.utf8), timeZone: Self.newYork)
        #expect(whole.books.map(\.title) == ["ノルウェイの森", "Dune", "الخيميائي"])
        #expect(whole.books.map(\.author) == ["村上春樹", "Frank Herbert", "باولو كويلو"])
        let norwegian = whole.books[0].highlights
        #expect(norwegian.map(\.text) == ["僕は三十七歳で、そのときボーイング747のシートに座っていた。"])
        #expect(norwegian.first?.location == "1300-1305")
        #expect(norwegian.first?.note == "the opening")
        #expect(whole.books[1].highlights.map(\.text) == ["Fear is the mind-killer.", ""])
        #expect(whole.books[1].highlights.last?.note == "a note on no passage")
        #expect(whole.books[2].highlights.map(\.text) == ["First on page 3 🐪", "Second on page 3"])
        #expect(Set(whole.books.flatMap(\.highlights).map(\.id)).count == 5)
        #expect(whole.bookmarks == 1)
        #expect(whole.clippingLimits == 1)
        #expect(whole.notesAttached == 1)
        #expect(
            whole.problems == [.init(place: "line 38", reason: "a header bookclub cannot read: - Whatever this is")])

        // The same, however the file is cut into chunks.
        let bytes = Array(Self.mixed.utf8)
        for size in [1, 2, 3, 7, 64] {
            var reader = KindleClippings(timeZone: Self.newYork)
            for start in stride(from: 0, to: bytes.count, by: size) {
                reader.read(Data(bytes[start..<min(start + size, bytes.count)]))
            }
            #expect(reader.finish() == whole, "chunks of \(size)")
        }
    }

    /// Entries of the shapes the fuzzer starts from besides `mixed`: a Russian Kindle's (an en dash
    /// first and in the range), a Japanese one's (page and location before the kind) and a Chinese
    /// one's (both in one field, 下午 for PM), each a highlight, a note on it and a bookmark.
    static let languageSeeds = [
        [
            "Мастер и Маргарита (Михаил Булгаков)",
            "– Ваш выделенный отрывок на странице 7 | Место 95–97 | Добавлено: суббота, 3 мая 2025 г. в 12:01:02",
            "", "Никогда не разговаривайте с неизвестными.", "==========",
            "Мастер и Маргарита (Михаил Булгаков)",
            "– Ваша заметка на странице 7 | Место 96 | Добавлено: суббота, 3 мая 2025 г. в 12:01:40",
            "", "первая глава", "==========",
            "Мастер и Маргарита (Михаил Булгаков)",
            "– Ваша закладка на странице 8 | Место 101 | Добавлено: суббота, 3 мая 2025 г. в 12:02:00",
            "", "", "==========",
        ].joined(separator: "\r\n"),
        [
            "\u{FEFF}吾輩は猫である (夏目漱石)",
            "- 5ページ|位置No. 40-42のハイライト |作成日: 2025年5月3日土曜日 9:15:00",
            "", "吾輩は猫である。名前はまだ無い。", "==========",
            "吾輩は猫である (夏目漱石)",
            "- 5ページ|位置No. 41のメモ |作成日: 2025年5月3日土曜日 9:16:00",
            "", "冒頭", "==========",
            "三体 (刘慈欣)",
            "- 您在第 30 页（位置 #455-460）的标注 | 添加于 2025年5月3日星期六 下午9:05:00",
            "", "不要回答！", "==========",
            "三体 (刘慈欣)",
            "- 您在第 30 页（位置 #458）的笔记 | 添加于 2025年5月3日星期六 下午9:06:00",
            "", "第一次", "==========",
            "三体 (刘慈欣)",
            "- 您在第 31 页（位置 #470）的书签 | 添加于 2025年5月3日星期六 下午9:07:00",
            "", "", "==========",
        ].joined(separator: "\n"),
    ]

    /// Random cuts, flips and repeats of real entries, of every language's shape: the reader never
    /// traps or hangs, and whatever it reads is a highlight with text or a note.
    @Test func fuzzedFilesNeverTrap() throws {
        // Each seed reads whole as it is, before it is cut up.
        for (seed, count) in zip(Self.languageSeeds, [1, 2]) {
            let read = KindleClippings.read(Data(seed.utf8), timeZone: Self.newYork)
            #expect(read.problems.isEmpty, "\(read.problems)")
            #expect(read.books.flatMap(\.highlights).count == count)
            #expect(read.books.flatMap(\.highlights).allSatisfy { $0.note != nil && $0.time != nil })
            #expect(read.bookmarks == 1)
        }
        var random = SeededGenerator(state: 2026)
        let seeds = ([Self.mixed] + Self.languageSeeds).map { Array($0.utf8) }
        let snippets = ["- 1-2 99999999999999999999 | :: 年月日", "– 1300–1301 t/m 9 | 下午12:60 年 | 1-", "|||-"]
        for _ in 0..<3000 {
            let seed = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            var bytes = seed
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &random)))
                case 2:
                    let snippet = snippets[Int.random(in: 0..<snippets.count, using: &random)]
                    bytes.insert(contentsOf: Array(snippet.utf8), at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 80)], at: at)
                }
                if bytes.isEmpty { bytes = seed }
            }
            let read = KindleClippings.read(Data(bytes), timeZone: Self.newYork)
            for highlight in read.books.flatMap(\.highlights) {
                #expect(!highlight.text.isEmpty || highlight.note != nil)
            }
        }
    }
}

/// `kindle-multilang-2024.txt`: the same highlight, note and bookmark written by Kindles set to 11
/// languages, each block read on its own and the whole file at once.
@Suite(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
struct KindleLanguagesTests {
    /// How each block's texts name its language, in the file's order.
    static let languages = [
        "Deutsch", "Español", "Français", "Italiano", "Japanese", "Nederlands", "Português (Brasil)", "Russian",
        "Chinese", "English (US)", "English (UK)",
    ]

    /// 22 August 2024 18:10:53 in New York (every device wrote that wall-clock time, with no zone).
    static let time = Date(timeIntervalSince1970: 1_724_364_653)

    /// The file's 33 clippings, each with its separator line.
    static func clippings() throws -> [String] {
        let text = try String(
            contentsOfFile: RealExports.shared("ereaders/kindle-multilang-2024.txt"), encoding: .utf8)
        let clippings = text.components(separatedBy: "==========\n").filter {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }.map { $0 + "==========\n" }
        try #require(clippings.count == 33)
        return clippings
    }

    @Test(arguments: languages.indices)
    func eachLanguageReadsOnItsOwn(_ index: Int) throws {
        let language = Self.languages[index]
        let block = try Self.clippings()[(index * 3)..<(index * 3 + 3)].joined()
        let read = KindleClippings.read(Data(block.utf8), timeZone: KindleClippingsTests.newYork)
        #expect(read.problems.isEmpty, "\(language): \(read.problems)")
        #expect(read.books.map(\.title) == ["Hexagonal Architecture Explained"], "\(language)")
        #expect(read.books.first?.author == "Cockburn, Alistair", "\(language)")
        let highlights = read.books.first?.highlights ?? []
        try #require(highlights.count == 1, "\(language): \(highlights)")
        #expect(highlights[0].text == "My highlight in \(language)")
        #expect(highlights[0].page == 112, "\(language)")
        #expect(highlights[0].location == "1300-1301", "\(language)")
        #expect(highlights[0].time == Self.time, "\(language)")
        #expect(highlights[0].note == "My note in \(language)")
        #expect(read.notesAttached == 1, "\(language)")
        #expect(read.bookmarks == 1, "\(language): a bookmark is counted and skipped")
    }

    @Test func theWholeFileGivesEachLanguageItsHighlightWithItsOwnNote() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RealExports.shared("ereaders/kindle-multilang-2024.txt")))
        let read = KindleClippings.read(data, timeZone: KindleClippingsTests.newYork)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.books.count == 1)
        let highlights = read.books.first?.highlights ?? []
        #expect(highlights.map(\.text) == Self.languages.map { "My highlight in \($0)" })
        #expect(highlights.map(\.note) == Self.languages.map { "My note in \($0)" })
        #expect(highlights.allSatisfy { $0.page == 112 && $0.location == "1300-1301" && $0.time == Self.time })
        #expect(Set(highlights.map(\.id)).count == 11)
        #expect(read.notesAttached == 11)
        #expect(read.bookmarks == 11)
    }
}

/// `bookclub import kindle`, run as a reader would.
@Suite(.enabled(if: RealExports.isPresent, "the real files are not here (../shared/fixtures); skipped"))
struct KindleImportEndToEndTests {
    let bookclub: BookClubRunner

    init() throws {
        bookclub = try BookClubRunner()
    }

    @Test func the2012FileImportsIntoItsTwentyBooksWithEveryPassageAndASecondImportAddsNothing() throws {
        defer { bookclub.cleanUp() }
        let file = RealExports.shared("ereaders/kindle-2012-my-clippings.txt")
        let dry = try bookclub.run("import", "kindle", file, "--dry-run")
        #expect(dry.exitCode == 0, "\(dry.stderr)")
        #expect(dry.stdout.split(separator: "\n").count == 20)
        #expect(dry.stdout.contains("add   'Dracula' by Bram Stoker (line 46): 6 new highlights\n"))
        #expect(try bookclub.run("list", "--all").stdout.isEmpty)

        let imported = try bookclub.run("import", "kindle", file)
        #expect(imported.exitCode == 0)
        #expect(
            imported.stderr
                == "Imported 457 highlights of 20 books (20 new to bookclub); 4 notes put with their highlights, 5 bookmarks skipped.\n"
        )
        let books = try #require(try bookclub.json("list", "--all", "--json") as? [[String: Any]])
        #expect(books.count == 20)

        // Every distinct passage of the file is there (an extended one holds the shorter).
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var passages = Set<String>()
        for entry in text.replacingOccurrences(of: "\r", with: "").components(separatedBy: "==========") {
            let lines = entry.trimmingCharacters(in: .newlines).components(separatedBy: "\n")
            if lines.count > 2, lines[1].contains("Highlight") {
                passages.insert(lines[2...].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        #expect(passages.count == 458)
        try bookclub.run("export", "--format", "json", "--output", "library.json")
        let library = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: bookclub.home + "/library.json")))
                as? [String: Any])
        let kept = ((library["books"] as? [[String: Any]]) ?? []).flatMap { book in
            ((book["readings"] as? [[String: Any]]) ?? []).flatMap { ($0["highlights"] as? [[String: Any]]) ?? [] }
        }.compactMap { $0["text"] as? String }
        #expect(passages.filter { passage in !kept.contains { $0.contains(passage) } }.isEmpty)

        let again = try bookclub.run("import", "kindle", file, "--json")
        #expect(again.exitCode == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let entries = try #require(summary["books"] as? [[String: Any]])
        #expect(entries.allSatisfy { $0["highlightsAdded"] as? Int == 0 && $0["added"] as? Bool == false })
        #expect(summary["bookmarksSkipped"] as? Int == 5)
        #expect(try bookclub.json("list", "--all", "--json") as? [[String: Any]] != nil)
        let history = try #require(try bookclub.json("history", "--json") as? [[String: Any]])
        #expect(history.count == 1, "the second import changed nothing")
    }

    @Test func aBookAlreadyThereGetsTheHighlightsAndNotesComeToTheMeeting() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dracula", "--author", "Bram Stoker", "--pages", "418")
        try bookclub.run("progress", "dracula", "40")
        let result = try bookclub.run(
            "import", "kindle", RealExports.shared("ereaders/kindle-2012-my-clippings.txt"))
        #expect(result.exitCode == 0)
        let notes = try bookclub.run("notes", "dracula").stdout
        #expect(
            notes.contains("## Highlights\n\n> agreeing with the cardinal points of the compass.\n> — loc. 965-966\n"))
        let shown = try #require(try bookclub.json("show", "dracula", "--json") as? [String: Any])
        #expect((shown["readings"] as? [[String: Any]])?.count == 1, "the reading going on got them")
        #expect(shown["page"] as? Int == 40)
    }

    @Test func aRussianKindlesClippingsImportWithTheirPageLocationTimeAndNote() throws {
        defer { bookclub.cleanUp() }
        let russian = try KindleLanguagesTests.clippings()[21..<24].joined()
        try russian.write(toFile: bookclub.home + "/My Clippings.txt", atomically: true, encoding: .utf8)
        let imported = try bookclub.run(
            ["import", "kindle", "My Clippings.txt"], environment: ["TZ": "America/New_York"])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(
            imported.stderr.hasPrefix(
                "Imported 1 highlight of 1 book (1 new to bookclub); 1 note put with its highlight, "))
        #expect(imported.stderr.hasSuffix(", 1 bookmark skipped.\n"))
        let shown = try #require(try bookclub.json("show", "hexagonal", "--json") as? [String: Any])
        let highlights = (shown["readings"] as? [[String: Any]])?.first?["highlights"] as? [[String: Any]]
        #expect(highlights?.count == 1)
        #expect(highlights?.first?["text"] as? String == "My highlight in Russian")
        #expect(highlights?.first?["note"] as? String == "My note in Russian")
        #expect(highlights?.first?["page"] as? Int == 112)
        #expect(highlights?.first?["location"] as? String == "1300-1301")
        #expect(highlights?.first?["time"] as? String == "2024-08-22T22:10:53Z")
    }

    @Test func aFileThatIsNoClippingsIsRefusedAndHostileTextIsShownSafely() throws {
        defer { bookclub.cleanUp() }
        let goodreads = RealExports.shared("imports/goodreads-2024-24col.csv")
        let refused = try bookclub.run("import", "kindle", goodreads)
        #expect(refused.exitCode == 65, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("Error: "))
        #expect(refused.stderr.contains("no Kindle clipping in it"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(try bookclub.run("import", "kindle", "missing.txt").exitCode == 74)

        let hostile =
            "Evil \u{1B}]0;owned\u{07} (Some\u{1B}[2J One)\r\n- Your Highlight at location 1-2 | Added on Monday, 6 January 2020 13:05:09\r\n\r\nText \u{1B}[31mred\r\n==========\r\n"
        try hostile.write(toFile: bookclub.home + "/clippings.txt", atomically: true, encoding: .utf8)
        let imported = try bookclub.run("import", "kindle", "clippings.txt", "--dry-run")
        #expect(imported.exitCode == 0)
        #expect(!imported.stdout.contains("\u{1B}") && !imported.stderr.contains("\u{1B}"))
        try bookclub.run("import", "kindle", "clippings.txt")
        let shown = try bookclub.run("show", "evil")
        #expect(shown.exitCode == 0)
        #expect(!shown.stdout.contains("\u{1B}"))
        #expect(shown.stdout.contains("Text \\u{1B}[31mred"))
    }
}
