#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Kindle's `My Clippings.txt`, read a chunk at a time (a file of hundreds of megabytes is read in
/// bounded memory). Each entry is a title line `Title (Author)`, a header line, a blank line and the
/// text, then a line `==========`:
///
/// ```text
/// Dune (Frank Herbert)
/// - Your Highlight on page 12 | location 123-124 | Added on Monday, 1 January 2020 12:00:00
///
/// Fear is the mind-killer.
/// ==========
/// ```
///
/// Headers are read by their shape (a dash, fields between `|`, numbers and ranges, a date last),
/// so that old firmware (`- Highlight Loc. 242-43  | Added on Monday, 3 December 12 19:00:12 Greenwich
/// Mean Time`) reads as well as new, in every language a Kindle speaks (English, German, Spanish,
/// French, Italian, Dutch, Portuguese, Russian, Japanese, Chinese, Korean) and in one bookclub has not
/// met: words say only whether an entry is a highlight, a note or a bookmark, and without them the
/// shape does. A header that cannot be read is reported with its line and skipped.
public struct KindleClippings {
    private var file = ReaderImport(source: .kindle)
    private var timeZone: Zone
    /// The lines of the entry being read, with the line number of each.
    private var entry: [(number: Int, text: Substring)] = []
    private var lineNumber = 0
    /// A line cut by the end of a chunk (the file has no line break there).
    private var carry = Data()
    /// Books by their key, as indexes into `file.books`.
    private var bookIndex: [String: Int] = [:]
    /// Notes, by book, put with their highlight at the end.
    private var notes: [Int: [Clipping]] = [:]
    /// Where each highlight is, by book and id.
    private var highlightIndex: [Int: [String: Int]] = [:]
    /// The line of each highlight's header, by book, in the order of `file.books[book].highlights`.
    private var highlightLines: [Int: [Int]] = [:]

    /// - Parameters:
    ///   - timeZone: the reader's, for a time the device wrote without a zone.
    public init(timeZone: Zone) {
        self.timeZone = timeZone
    }

    /// Reads the whole file at once.
    public static func read(_ data: Data, timeZone: Zone) -> ReaderImport {
        var reader = KindleClippings(timeZone: timeZone)
        reader.read(data)
        return reader.finish()
    }

    /// Reads the next chunk of the file.
    public mutating func read(_ chunk: Data) {
        var bytes = carry
        carry = Data()
        bytes.append(chunk)
        var start = bytes.startIndex
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            line(bytes[start..<end])
            start = end + 1
        }
        carry = Data(bytes[start...])
    }

    /// What the file held.
    public mutating func finish() -> ReaderImport {
        if !carry.isEmpty { line(carry) }
        carry = Data()
        // A last entry whose separator the end of the file cut short.
        while let last = entry.last, last.text.allSatisfy({ $0 == "=" || $0.isWhitespace }) { entry.removeLast() }
        endEntry()
        for (book, notes) in notes.sorted(by: { $0.key < $1.key }) {
            for note in notes { attach(note, to: book) }
        }
        notes = [:]
        return file
    }

    private mutating func line(_ bytes: Data) {
        lineNumber += 1
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        if text.hasSuffix("\r") { text = text.dropLast() }
        // A byte-order mark starts the file, and some devices write one before each entry.
        while text.first == "\u{FEFF}" { text = text.dropFirst() }
        if text.hasPrefix("==========") {
            endEntry()
        } else {
            entry.append((lineNumber, text))
        }
    }

    /// One entry read: a title, a header, the text.
    struct Clipping {
        enum Kind { case highlight, note, bookmark }

        var kind: Kind
        var page: Int?
        var location: ClosedRange<Int>?
        var time: Date?
        var text: String
        var line: Int
    }

    private mutating func endEntry() {
        defer { entry = [] }
        var lines = entry[...].drop { $0.text.allSatisfy(\.isWhitespace) }
        guard let title = lines.popFirst() else { return }
        guard let header = lines.popFirst() else {
            file.problems.append(.init(place: "line \(title.number)", reason: "an entry with a title and nothing else"))
            return
        }
        guard let parsed = Self.header(String(header.text), timeZone: timeZone) else {
            file.problems.append(
                .init(
                    place: "line \(header.number)", reason: "a header bookclub cannot read: \(header.text.prefix(80))")
            )
            return
        }
        let text = lines.map(\.text).joined(separator: "\n").trimmed
        if parsed.kind == .bookmark || (parsed.inferred && text.isEmpty) {
            file.bookmarks += 1
            return
        }
        if text.hasPrefix("<") && text.hasSuffix(">") && !text.contains("\n") && text.lowercased().contains("limit") {
            file.clippingLimits += 1
            return
        }
        guard !text.isEmpty else {
            file.problems.append(.init(place: "line \(header.number)", reason: "a highlight with no text"))
            return
        }
        let (name, author) = Self.titleAndAuthor(String(title.text))
        guard !name.isEmpty else {
            file.problems.append(.init(place: "line \(title.number)", reason: "an entry with no title"))
            return
        }
        let key = BookMatcher.titleKey(Book(id: "", title: name, author: author, added: .distantPast))
        let index =
            bookIndex[key]
            ?? {
                file.books.append(ReaderImport.Book(title: name, author: author, origin: "line \(title.number)"))
                bookIndex[key] = file.books.count - 1
                return file.books.count - 1
            }()
        let clipping = Clipping(
            kind: parsed.kind, page: parsed.page, location: parsed.location, time: parsed.time, text: text,
            line: header.number)
        if clipping.kind == .note {
            notes[index, default: []].append(clipping)
        } else {
            add(clipping, to: index)
        }
    }

    /// A highlight's id is its book's and its start: a highlight extended on the device (the same
    /// start, a text that begins as the one before) replaces it, keeping its id. Another highlight
    /// of the same start (a page with no location holds several) has its text in its id too.
    private mutating func add(_ clipping: Clipping, to book: Int) {
        let (title, author) = (file.books[book].title, file.books[book].author ?? "")
        let place =
            clipping.location.map { "loc \($0.lowerBound)" } ?? clipping.page.map { "page \($0)" } ?? clipping.text
        var highlight = Highlight(
            id: "kindle-" + ReaderImport.digest(title, author, place), text: clipping.text, page: clipping.page,
            location: clipping.location.map(Self.spell), time: clipping.time, source: .kindle)
        if let at = highlightIndex[book]?[highlight.id] {
            let held = file.books[book].highlights[at]
            if held.text.hasPrefix(highlight.text) || highlight.text.hasPrefix(held.text) {
                if highlight.text.count >= held.text.count {
                    file.books[book].highlights[at] = highlight
                    highlightLines[book, default: []][at] = clipping.line
                }
                return
            }
            highlight.id = "kindle-" + ReaderImport.digest(title, author, place, clipping.text)
            guard highlightIndex[book]?[highlight.id] == nil else { return }
        }
        highlightIndex[book, default: [:]][highlight.id] = file.books[book].highlights.count
        highlightLines[book, default: []].append(clipping.line)
        file.books[book].highlights.append(highlight)
    }

    /// A note goes with the highlight whose range holds its location (or, without locations, that is
    /// on its page); else it is kept on its own, as a highlight with no passage. Of several such
    /// highlights, it goes with the last one before it in the file (a Kindle writes a note after its
    /// highlight), else the first after it.
    private mutating func attach(_ note: Clipping, to book: Int) {
        let highlights = file.books[book].highlights
        let lines = highlightLines[book] ?? []
        let candidates = highlights.indices.filter { index in
            let highlight = highlights[index]
            guard highlight.source == .kindle, !highlight.text.isEmpty else { return false }
            if let location = note.location, let range = highlight.location.flatMap(Self.range) {
                return range.contains(location.lowerBound)
            }
            return note.location == nil && highlight.location == nil && note.page != nil && note.page == highlight.page
        }
        func line(_ index: Int) -> Int { lines.indices.contains(index) ? lines[index] : 0 }
        let target =
            candidates.filter { line($0) < note.line }.max { line($0) < line($1) }
            ?? candidates.min { line($0) < line($1) }
        if let target {
            let existing = highlights[target].note
            if existing?.contains(note.text) != true {
                file.books[book].highlights[target].note = existing.map { $0 + "\n\n" + note.text } ?? note.text
            }
            file.notesAttached += 1
            return
        }
        let place =
            note.location.map { "note loc \($0.lowerBound)" } ?? note.page.map { "note page \($0)" } ?? note.text
        let id = "kindle-" + ReaderImport.digest(file.books[book].title, file.books[book].author ?? "", place)
        guard highlightIndex[book]?[id] == nil else { return }
        highlightIndex[book, default: [:]][id] = highlights.count
        highlightLines[book, default: []].append(note.line)
        file.books[book].highlights.append(
            Highlight(
                id: id, text: "", note: note.text, page: note.page, location: note.location.map(Self.spell),
                time: note.time, source: .kindle))
    }

    static func spell(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
    }

    static func range(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard let first = parts.first, let last = parts.last, first <= last else { return nil }
        return first...last
    }

    // MARK: - Title line

    /// `Title (Author)`: the author is the last group in brackets, which may hold brackets of its own
    /// (`Spanish Tales (Spanish Edition) (E. C. (Elijah Clarence) Hills)`).
    static func titleAndAuthor(_ line: String) -> (title: String, author: String?) {
        let text = line.trimmed
        guard text.hasSuffix(")") else { return (text, nil) }
        var depth = 0
        var index = text.endIndex
        while index > text.startIndex {
            index = text.index(before: index)
            if text[index] == ")" { depth += 1 }
            if text[index] == "(" {
                depth -= 1
                if depth == 0 { break }
            }
        }
        guard depth == 0, text[index] == "(" else { return (text, nil) }
        let author = String(text[text.index(after: index)..<text.index(before: text.endIndex)]).trimmed
        let title = String(text[..<index]).trimmed
        guard !title.isEmpty else { return (text, nil) }
        return (title, author.isEmpty ? nil : author)
    }

    // MARK: - Header line

    /// The words that say what an entry is, lowercased: the only words a header is read by. An entry
    /// whose kind is said in none of them (a language not listed) is told by its shape instead.
    private static let bookmarkWords = [
        "bookmark", "marcador", "lesezeichen", "signet", "segnalibro", "bladwijzer", "закладк", "ブックマーク", "书签",
        "書籤", "북마크",
    ]
    private static let highlightWords = [
        "highlight", "subrayado", "destaque", "markierung", "surlignement", "surlignage", "evidenziazione", "markering",
        "выделен", "ハイライト", "标注", "標註", "하이라이트", "clip", "recorte", "ausschnitt", "extrait", "ritaglio",
        "knipsel", "вырезк", "クリップ", "剪贴",
    ]
    private static let noteWords = ["note", "nota", "notiz", "notitie", "заметк", "メモ", "笔记", "筆記", "메모"]
    /// Words for a page, for a header with a single number (`- Highlight on Page 7`): without one, the
    /// number is a location (`- Your Highlight at location 200`).
    private static let pageWords = ["page", "página", "pagina", "seite", "страниц", "ページ", "页", "頁", "페이지"]
    /// The first character of a header: a hyphen, or the en dash a Russian Kindle writes, or another dash.
    private static let dashes: Set<Character> = ["-", "–", "—", "‐", "‑", "‒", "−", "﹣", "－"]

    struct Header: Equatable {
        var kind: Clipping.Kind
        var page: Int?
        var location: ClosedRange<Int>?
        var time: Date?
        /// The kind was told by the shape of the header, not by a word: an entry with no text is then
        /// a bookmark.
        var inferred = false
    }

    /// Reads a header line by its shape: a dash, then fields between `|` (or, in Chinese, one field
    /// holding the page and the location), numbers and ranges, and last the date. Japanese puts the
    /// page and location before the kind (`- 112ページ|位置No. 1300-1301のハイライト |作成日: …`), Chinese
    /// in one field (`- 您在第 112 页（位置 #1300-1301）的标注 | 添加于 …`). The first number is the page
    /// and the second the location; a single number is a location unless a page word is beside it. The
    /// kind is its word in a language bookclub knows; failing one, a header with a date and a number
    /// still reads: a range is a highlight, a single place a note (and no text, a bookmark). `nil`
    /// for a line of another shape.
    static func header(_ line: String, timeZone: Zone) -> Header? {
        let text = line.trimmed
        guard let first = text.first, dashes.contains(first) else { return nil }
        var fields = text.dropFirst().lowercased().split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "|" || $0 == "｜" }
        ).map { Array($0) }
        // The date is the last field, when it holds a clock.
        var dateField: [Character]?
        if fields.count >= 2, let last = fields.last, hasClock(last) { dateField = fields.removeLast() }
        let time = dateField.flatMap { date(String($0), timeZone: timeZone) }
        let places = fields.flatMap { field in numbers(in: field).map { (range: $0, field: field) } }
        var page: Int?
        var location: ClosedRange<Int>?
        if places.count >= 2 {
            (page, location) = (places[0].range.lowerBound, places[1].range)
        } else if let place = places.first {
            if pageWords.contains(where: { find($0, in: place.field) != nil }) {
                page = place.range.lowerBound
            } else {
                location = place.range
            }
        }
        let head = Array(fields.joined(separator: "|"))
        if bookmarkWords.contains(where: { find($0, in: head) != nil }) {
            return Header(kind: .bookmark, page: page, location: location, time: time)
        } else if highlightWords.contains(where: { find($0, in: head) != nil }) {
            return Header(kind: .highlight, page: page, location: location, time: time)
        } else if noteWords.contains(where: { find($0, in: head) != nil }) {
            return Header(kind: .note, page: page, location: location, time: time)
        }
        // A kind in words bookclub does not know: told by the shape, which must then be a Kindle's.
        guard dateField != nil, !places.isEmpty else { return nil }
        let kind: Clipping.Kind = location.map { $0.count == 1 } == true ? .note : .highlight
        return Header(kind: kind, page: page, location: location, time: time, inferred: true)
    }

    private static func find(_ word: String, in text: [Character]) -> Range<Int>? {
        let word = Array(word)
        guard !word.isEmpty, text.count >= word.count else { return nil }
        for start in 0...(text.count - word.count) where text[start] == word[0] {
            if text[start..<(start + word.count)].elementsEqual(word) { return start..<(start + word.count) }
        }
        return nil
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    /// Whether a field holds a time of day, `18:10:53` (`下午6:10:53`).
    private static func hasClock(_ field: [Character]) -> Bool {
        field.indices.contains { index in
            field[index] == ":" && index > 0 && index + 1 < field.count && isDigit(field[index - 1])
                && isDigit(field[index + 1])
        }
    }

    /// The numbers and ranges of a field, in order: `242`, `242-243`, `1300–1301`, `1300 t/m 1301`
    /// (Dutch), and old firmware's `242-43` (the end written short). A run of more than nine digits is
    /// no number.
    static func numbers(in field: [Character]) -> [ClosedRange<Int>] {
        var found: [ClosedRange<Int>] = []
        var index = 0
        /// The digits at `index`, which moves past them.
        func digits() -> String? {
            var end = index
            while end < field.count, isDigit(field[end]) { end += 1 }
            defer { index = end }
            return end > index && end - index <= 9 ? String(field[index..<end]) : nil
        }
        while index < field.count {
            guard isDigit(field[index]) else {
                index += 1
                continue
            }
            guard let first = digits(), let from = Int(first) else { continue }
            if let (to, next) = rangeEnd(after: index, in: field, first: first) {
                index = next
                // A range that ends before it starts is its start.
                found.append(from...max(from, to))
            } else {
                found.append(from...from)
            }
        }
        return found
    }

    /// The end of a range whose start (`first`) ends at `start`: after a dash (`-`, `–`, `—`, `~`), or
    /// after a short word between spaces (`t/m`, `to`, `bis`) when it is past the start; and where it
    /// ends.
    private static func rangeEnd(after start: Int, in field: [Character], first: String) -> (Int, Int)? {
        var index = start
        while index < field.count, field[index] == " " { index += 1 }
        let isDash = index < field.count && (dashes.contains(field[index]) || "~〜～".contains(field[index]))
        if isDash {
            index += 1
        } else {
            // A word of one to three letters (or `/`), with spaces on both sides.
            guard index > start else { return nil }
            var end = index
            while end < field.count, end - index <= 3, field[end] != " " { end += 1 }
            let word = field[index..<end]
            guard (1...3).contains(word.count), end < field.count, field[end] == " ",
                word.allSatisfy({ $0 == "/" || ($0.isLetter && !isCJK($0)) })
            else { return nil }
            index = end
        }
        while index < field.count, field[index] == " " { index += 1 }
        var end = index
        while end < field.count, isDigit(field[end]) { end += 1 }
        guard end > index, end - index <= 9 else { return nil }
        let second = String(field[index..<end])
        // `242-43` is 242 to 243.
        let full =
            isDash && second.count < first.count ? String(first.dropLast(second.count)) + second : second
        guard let to = Int(full), isDash || to > (Int(first) ?? Int.max) else { return nil }
        return (to, end)
    }

    /// A character of the Chinese, Japanese or Korean scripts (or past them).
    private static func isCJK(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.value >= 0x2E80 }
    }

    // MARK: - Dates

    private static let months: [String: Int] = {
        let names = [
            // English, German, Spanish, French, Italian, Dutch, Portuguese, Russian (as dates spell them)
            "january february march april may june july august september october november december",
            "januar februar märz april mai juni juli august september oktober november dezember",
            "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
            "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
            "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
            "januari februari maart april mei juni juli augustus september oktober november december",
            "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
            "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
        ]
        var months: [String: Int] = [:]
        for language in names {
            for (index, name) in language.split(separator: " ").enumerated() { months[String(name)] = index + 1 }
        }
        return months
    }()

    /// A date as a Kindle writes it after "Added on", in any of its languages: `Monday, 3 December 12
    /// 19:00:12 GMT+01:00`, `Friday, January 1, 2024 10:30:45 AM`, `vendredi 1 janvier 2024 10:30:45`,
    /// `2024年1月1日金曜日 10:30:45`. Without a zone it is the reader's time.
    static func date(_ text: String, timeZone: Zone) -> Date? {
        let characters = Array(text.lowercased())
        // The time, and whether it is after noon.
        var clock: (hour: Int, minute: Int, second: Int)?
        var clockRange = 0..<0
        var index = 0
        while index < characters.count, clock == nil {
            if characters[index].isASCII, characters[index].isNumber {
                var end = index
                var parts: [Int] = []
                var current = ""
                while end < characters.count, characters[end].isASCII,
                    characters[end].isNumber || characters[end] == ":"
                {
                    if characters[end] == ":" {
                        parts.append(Int(current) ?? -1)
                        current = ""
                    } else {
                        current.append(characters[end])
                    }
                    end += 1
                }
                parts.append(Int(current) ?? -1)
                if parts.count >= 2, parts.count <= 3, parts.allSatisfy({ $0 >= 0 }) {
                    clock = (parts[0], parts[1], parts.count == 3 ? parts[2] : 0)
                    clockRange = index..<end
                }
                index = end
            } else {
                index += 1
            }
        }
        guard let clock else { return nil }
        var hour = clock.hour
        let (minute, second) = (clock.minute, clock.second)
        let lowered = String(characters)
        // `PM`, `a.m.` right after the clock (not the `am` of `Hinzugefügt am` or `samedi`); 下午,
        // 午後, 오후 anywhere (before the clock).
        let meridiem = meridiem(after: clockRange.upperBound, in: characters)
        let afterNoon = meridiem == "p" || ["午後", "下午", "오후"].contains { lowered.contains($0) }
        let beforeNoon = meridiem == "a" || ["午前", "上午", "오전"].contains { lowered.contains($0) }
        if afterNoon, hour < 12 { hour += 12 }
        if beforeNoon, !afterNoon, hour == 12 { hour = 0 }
        // The day: 2024年1月1日 (and Korean 2024년 1월 1일), else a month's name among numbers.
        var numbers: [(value: Int, digits: Int, end: Int)] = []
        var monthByName: Int?
        var word = ""
        var digits = ""
        var cjk: [Character: Int] = [:]
        func flush(at end: Int) {
            if !digits.isEmpty, let value = Int(digits.prefix(9)) { numbers.append((value, digits.count, end)) }
            if !word.isEmpty, monthByName == nil, let month = months[word] { monthByName = month }
            (word, digits) = ("", "")
        }
        for (offset, character) in characters.enumerated() where !clockRange.contains(offset) {
            if character.isASCII, character.isNumber {
                if !word.isEmpty { flush(at: offset) }
                digits.append(character)
            } else if character.isLetter, !"年月日년월일".contains(character) {
                if !digits.isEmpty { flush(at: offset) }
                word.append(character)
            } else {
                if "年月日년월일".contains(character), let value = Int(digits.prefix(9)) {
                    cjk[character] = value
                    digits = ""
                }
                flush(at: offset)
            }
        }
        flush(at: characters.count)
        let (year, month, day): (Int, Int, Int)
        if let y = cjk["年"] ?? cjk["년"], let m = cjk["月"] ?? cjk["월"], let d = cjk["日"] ?? cjk["일"] {
            (year, month, day) = (y, m, d)
        } else if let m = monthByName {
            let full = numbers.first { $0.digits == 4 }
            let rest = numbers.filter { $0.digits <= 2 }
            if let full {
                guard let d = rest.first?.value else { return nil }
                (year, month, day) = (full.value, m, d)
            } else {
                // Old firmware: `3 December 12`, the day then a year of two digits.
                guard rest.count >= 2 else { return nil }
                (year, month, day) = (2000 + rest[1].value, m, rest[0].value)
            }
        } else {
            return nil
        }
        let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard local.isValid, (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else {
            return nil
        }
        // The zone, when the device wrote one.
        if let gmt = lowered.firstRange(of: "gmt") ?? lowered.firstRange(of: "utc") {
            let after = lowered[gmt.upperBound...].prefix(6)
            var offset = 0
            if let sign = after.first, sign == "+" || sign == "-" {
                let parts = after.dropFirst().split(separator: ":").compactMap { Int($0) }
                guard let hours = parts.first, hours <= 14 else { return nil }
                offset = (hours * 3600 + (parts.count > 1 ? parts[1] * 60 : 0)) * (sign == "-" ? -1 : 1)
            }
            return Zone(name: "GMT", fixedOffset: offset).date(from: local)
        }
        if lowered.contains("greenwich mean time") { return Zone(name: "GMT", fixedOffset: 0).date(from: local) }
        return timeZone.date(from: local)
    }

    /// `a` or `p` for `AM`, `pm`, `a.m.`, `p. m.` at `start` (after spaces), a word of its own; else `nil`.
    private static func meridiem(after start: Int, in characters: [Character]) -> Character? {
        var index = start
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count, characters[index] == "a" || characters[index] == "p" else { return nil }
        let letter = characters[index]
        index += 1
        while index < characters.count, characters[index] == "." || characters[index].isWhitespace { index += 1 }
        guard index < characters.count, characters[index] == "m" else { return nil }
        index += 1
        guard index == characters.count || !characters[index].isLetter else { return nil }
        return letter
    }
}
