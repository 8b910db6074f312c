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
    /// The lines of the entry being read, back to back, each followed by a line feed: the lines of
    /// its text are then one run of bytes.
    private var entryBytes: [UInt8] = []
    /// Where each line of the entry is in `entryBytes`, and its line number.
    private var entry: [(number: Int, bytes: Range<Int>)] = []
    private var lineNumber = 0
    /// A line cut by the end of a chunk (the file has no line break there).
    private var carry: [UInt8] = []
    /// Books by their key, as indexes into `file.books`.
    private var bookIndex: [String: Int] = [:]
    /// Books by the bytes of their title line, as indexes into `file.books`: a file holds many
    /// entries of each book, whose title line is read once.
    private var bookByTitleLine: [TitleLine: Int] = [:]

    /// The bytes of a title line as a key, hashed at once: an array of bytes hashes a byte at a time,
    /// some 50 calls a clipping.
    private struct TitleLine: Hashable {
        var bytes: [UInt8]
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
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
        chunk.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while let hit = firstByte(0x0A, at: base + start, count: bytes.count - start) {
                let end = base.distance(to: UnsafeRawPointer(hit))
                if carry.isEmpty {
                    line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                } else {
                    var cut = carry
                    carry = []
                    cut.append(contentsOf: bytes[start..<end])
                    cut.withUnsafeBytes { line($0) }
                }
                start = end + 1
            }
            carry.append(contentsOf: bytes[start...])
        }
    }

    /// What the file held.
    public mutating func finish() -> ReaderImport {
        if !carry.isEmpty {
            let cut = carry
            carry = []
            cut.withUnsafeBytes { line($0) }
        }
        // A last entry whose separator the end of the file cut short.
        while let last = entry.last,
            text(last.bytes).allSatisfy({ $0 == "=" || $0.isWhitespace })
        {
            entry.removeLast()
        }
        endEntry()
        for (book, notes) in notes.sorted(by: { $0.key < $1.key }) {
            for note in notes { attach(note, to: book) }
        }
        notes = [:]
        return file
    }

    /// A line of the file, without its line feed.
    private mutating func line(_ bytes: UnsafeRawBufferPointer) {
        lineNumber += 1
        var (start, end) = (0, bytes.count)
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        // A byte-order mark starts the file, and some devices write one before each entry.
        while end - start >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF { start += 3 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        if Self.isSeparator(line) {
            endEntry()
        } else {
            entryBytes.append(contentsOf: line)
            entry.append((lineNumber, (entryBytes.count - line.count)..<entryBytes.count))
            entryBytes.append(0x0A)
        }
    }

    /// Whether a line starts with `==========`, ten characters `=` (an accent after the last makes it
    /// another character).
    private static func isSeparator(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count >= 10, line.prefix(10).allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
        guard line.count > 10, line[10] >= 0x80 else { return true }
        return Substring(String(decoding: line, as: UTF8.self)).hasPrefix("==========")
    }

    /// The text of lines of the entry.
    private func text(_ bytes: Range<Int>) -> String {
        String(decoding: entryBytes[bytes], as: UTF8.self)
    }

    /// Whether lines of the entry are all white space (or empty).
    private func isBlank(_ bytes: Range<Int>) -> Bool {
        for byte in entryBytes[bytes] {
            // Past ASCII, read by characters.
            guard byte < 0x80 else { return text(bytes).allSatisfy(\.isWhitespace) }
            guard byte == 0x20 || (0x09...0x0D).contains(byte) else { return false }
        }
        return true
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
        defer {
            entry.removeAll(keepingCapacity: true)
            entryBytes.removeAll(keepingCapacity: true)
        }
        var lines = entry[...].drop { isBlank($0.bytes) }
        guard let title = lines.popFirst() else { return }
        guard let header = lines.popFirst() else {
            file.problems.append(.init(place: "line \(title.number)", reason: "an entry with a title and nothing else"))
            return
        }
        let headerText = text(header.bytes)
        guard let parsed = Self.header(headerText, timeZone: timeZone) else {
            file.problems.append(
                .init(
                    place: "line \(header.number)", reason: "a header bookclub cannot read: \(headerText.prefix(80))")
            )
            return
        }
        // The lines of the text, joined by their line feeds.
        var text = ""
        if let first = lines.first, let last = lines.last {
            text = self.text(first.bytes.lowerBound..<last.bytes.upperBound).trimmed
        }
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
        let titleLine = TitleLine(bytes: Array(entryBytes[title.bytes]))
        guard let index = bookByTitleLine[titleLine] ?? book(titleLine, line: title.number) else { return }
        let clipping = Clipping(
            kind: parsed.kind, page: parsed.page, location: parsed.location, time: parsed.time, text: text,
            line: header.number)
        if clipping.kind == .note {
            notes[index, default: []].append(clipping)
        } else {
            add(clipping, to: index)
        }
    }

    /// The book of a title line not met before, added when it is new to the file (a title line that
    /// differs only in case or spaces names the same book); `nil`, and a problem, for no title.
    private mutating func book(_ titleLine: TitleLine, line: Int) -> Int? {
        let (name, author) = Self.titleAndAuthor(String(decoding: titleLine.bytes, as: UTF8.self))
        guard !name.isEmpty else {
            file.problems.append(.init(place: "line \(line)", reason: "an entry with no title"))
            return nil
        }
        let key = BookMatcher.titleKey(Book(id: "", title: name, author: author, added: .distantPast))
        let index =
            bookIndex[key]
            ?? {
                file.books.append(ReaderImport.Book(title: name, author: author, origin: "line \(line)"))
                bookIndex[key] = file.books.count - 1
                return file.books.count - 1
            }()
        bookByTitleLine[titleLine] = index
        return index
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
            // The same text again (a file read twice over) is the same bytes, most often.
            let same = Self.sameBytes(held.text, highlight.text)
            if same || held.text.hasPrefix(highlight.text) || highlight.text.hasPrefix(held.text) {
                if same || highlight.text.count >= held.text.count {
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

    /// Whether two texts are the same bytes.
    private static func sameBytes(_ one: String, _ other: String) -> Bool {
        guard one.utf8.count == other.utf8.count else { return false }
        var (one, other) = (one, other)
        return one.withUTF8 { one in other.withUTF8 { one.elementsEqual($0) } }
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
        if let spelled = spelledRange(text) { return spelled }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard let first = parts.first, let last = parts.last, first <= last else { return nil }
        return first...last
    }

    /// `range(_:)` of what `spell(_:)` writes, `12` or `12-15`, read without splitting (a note is
    /// matched against every highlight of its book); `nil` for other text.
    private static func spelledRange(_ text: String) -> ClosedRange<Int>?? {
        var (first, number, digits, dashes) = (0, 0, 0, 0)
        for byte in text.utf8 {
            if isDigit(byte), digits < 18 {
                (number, digits) = (number * 10 + Int(byte &- 0x30), digits + 1)
            } else if byte == UInt8(ascii: "-"), digits > 0, dashes == 0 {
                (first, number, digits, dashes) = (number, 0, 0, 1)
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        let lower = dashes == 0 ? number : first
        return .some(lower <= number ? lower...number : nil)
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
    static let bookmarkWords = [
        "bookmark", "marcador", "lesezeichen", "signet", "segnalibro", "bladwijzer", "закладк", "ブックマーク", "书签",
        "書籤", "북마크",
    ]
    static let highlightWords = [
        "highlight", "subrayado", "destaque", "markierung", "surlignement", "surlignage", "evidenziazione", "markering",
        "выделен", "ハイライト", "标注", "標註", "하이라이트", "clip", "recorte", "ausschnitt", "extrait", "ritaglio",
        "knipsel", "вырезк", "クリップ", "剪贴",
    ]
    static let noteWords = ["note", "nota", "notiz", "notitie", "заметк", "メモ", "笔记", "筆記", "메모"]
    /// Words for a page, for a header with a single number (`- Highlight on Page 7`): without one, the
    /// number is a location (`- Your Highlight at location 200`).
    static let pageWords = ["page", "página", "pagina", "seite", "страниц", "ページ", "页", "頁", "페이지"]
    /// The first character of a header: a hyphen, or the en dash a Russian Kindle writes, or another dash.
    static let dashes: Set<Character> = ["-", "–", "—", "‐", "‑", "‒", "−", "﹣", "－"]

    struct Header: Equatable {
        var kind: Clipping.Kind
        var page: Int?
        var location: ClosedRange<Int>?
        var time: Date?
        /// The kind was told by the shape of the header, not by a word: an entry with no text is then
        /// a bookmark.
        var inferred = false
    }

    /// The words of each kind and for a page, as UTF-8.
    private static let bookmarkUTF8 = bookmarkWords.map { Array($0.utf8) }
    private static let highlightUTF8 = highlightWords.map { Array($0.utf8) }
    private static let noteUTF8 = noteWords.map { Array($0.utf8) }
    private static let pageUTF8 = pageWords.map { Array($0.utf8) }
    /// Whether a character (one scalar) is one of the `dashes` or the tildes `~〜～`, that join the two
    /// numbers of a range.
    private static func isRangeDash(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "-", "–", "—", "‐", "‑", "‒", "−", "﹣", "－", "~", "〜", "～": true
        default: false
        }
    }

    /// Reads a header line by its shape: a dash, then fields between `|` (or, in Chinese, one field
    /// holding the page and the location), numbers and ranges, and last the date. Japanese puts the
    /// page and location before the kind (`- 112ページ|位置No. 1300-1301のハイライト |作成日: …`), Chinese
    /// in one field (`- 您在第 112 页（位置 #1300-1301）的标注 | 添加于 …`). The first number is the page
    /// and the second the location; a single number is a location unless a page word is beside it. The
    /// kind is its word in a language bookclub knows; failing one, a header with a date and a number
    /// still reads: a range is a highlight, a single place a note (and no text, a bookmark). `nil`
    /// for a line of another shape.
    ///
    /// The line is read by its UTF-8 bytes, lowercased, when each character is one scalar (nearly
    /// always); else by its characters (`characterHeader(_:timeZone:)`), with the same result.
    static func header(_ line: String, timeZone: Zone) -> Header? {
        let text = line.trimmed
        guard let first = text.first, dashes.contains(first) else { return nil }
        guard let (lowered, isASCII) = lowercasedUTF8(text.dropFirst()) else {
            return characterHeader(line, timeZone: timeZone)
        }
        // Fields between `|` and `｜`.
        var fields: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < lowered.count {
            if lowered[index] == UInt8(ascii: "|") {
                fields.append(start..<index)
                index += 1
                start = index
            } else if lowered[index] == 0xEF, index + 2 < lowered.count, lowered[index + 1] == 0xBD,
                lowered[index + 2] == 0x9C
            {
                fields.append(start..<index)
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        fields.append(start..<lowered.count)
        // The date is the last field, when it holds a clock; the words are looked for before it (no
        // word holds a `|`, so the fields between need not be joined).
        var dateField: Range<Int>?
        var head = 0..<lowered.count
        if fields.count >= 2, let last = fields.last, hasClock(lowered[last]) {
            dateField = fields.removeLast()
            head = 0..<(fields.last?.upperBound ?? 0)
        }
        let time = dateField.flatMap { date(utf8: lowered[$0], isASCII: isASCII, timeZone: timeZone) }
        var places: [(range: ClosedRange<Int>, field: Range<Int>)] = []
        for field in fields {
            for range in numbers(utf8: lowered[field]) { places.append((range, field)) }
        }
        var page: Int?
        var location: ClosedRange<Int>?
        if places.count >= 2 {
            (page, location) = (places[0].range.lowerBound, places[1].range)
        } else if let place = places.first {
            if pageUTF8.contains(where: { occurs($0, in: lowered[place.field], isASCII: isASCII) }) {
                page = place.range.lowerBound
            } else {
                location = place.range
            }
        }
        if bookmarkUTF8.contains(where: { occurs($0, in: lowered[head], isASCII: isASCII) }) {
            return Header(kind: .bookmark, page: page, location: location, time: time)
        } else if highlightUTF8.contains(where: { occurs($0, in: lowered[head], isASCII: isASCII) }) {
            return Header(kind: .highlight, page: page, location: location, time: time)
        } else if noteUTF8.contains(where: { occurs($0, in: lowered[head], isASCII: isASCII) }) {
            return Header(kind: .note, page: page, location: location, time: time)
        }
        // A kind in words bookclub does not know: told by the shape, which must then be a Kindle's.
        guard dateField != nil, !places.isEmpty else { return nil }
        let kind: Clipping.Kind = location.map { $0.count == 1 } == true ? .note : .highlight
        return Header(kind: kind, page: page, location: location, time: time, inferred: true)
    }

    /// The UTF-8 of text lowercased, and whether it is ASCII, when every character of the lowercased
    /// text is one scalar (see `singleScalarUTF8`); else `nil`.
    static func lowercasedUTF8(_ text: Substring) -> (bytes: [UInt8], isASCII: Bool)? {
        var bytes = text.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return singleScalarUTF8(text.lowercased()).map { ($0, false) } }
        // ASCII is lowercased byte by byte, and each of its characters is one scalar but CR LF.
        for index in bytes.indices where (0x41...0x5A).contains(bytes[index]) { bytes[index] |= 0x20 }
        for index in bytes.indices.dropFirst() where bytes[index - 1] == 0x0D && bytes[index] == 0x0A { return nil }
        return (bytes, true)
    }

    /// The UTF-8 of lowercased text whose every character is one scalar, none of them a CJK
    /// compatibility ideograph (U+F98E is 年 as a character, not as bytes); else `nil`. In such text a
    /// character is a scalar, `Character.isLetter` is the scalar's `isAlphabetic`, `isWhitespace` its
    /// `isWhitespace`, and the words bookclub looks for are found by their bytes (UTF-8 is
    /// self-synchronizing: a match starts at a scalar).
    static func singleScalarUTF8(_ lowered: String) -> [UInt8]? {
        var scalars = 0
        for scalar in lowered.unicodeScalars {
            if (0xF900...0xFAFF).contains(scalar.value) || (0x2F800...0x2FA1F).contains(scalar.value) { return nil }
            scalars += 1
        }
        guard lowered.count == scalars else { return nil }
        return Array(lowered.utf8)
    }

    /// Whether the bytes of `word` are in `text` (never, for a word past ASCII in text that is not).
    private static func occurs(_ word: [UInt8], in text: ArraySlice<UInt8>, isASCII: Bool) -> Bool {
        guard let first = word.first, text.count >= word.count, first < 0x80 || !isASCII else { return false }
        for start in text.startIndex...(text.endIndex - word.count) where text[start] == first {
            if text[start..<(start + word.count)].elementsEqual(word) { return true }
        }
        return false
    }

    /// The start of a byte run equal to `word` in `text`, or `nil`.
    private static func start(of word: [UInt8], in text: ArraySlice<UInt8>) -> Int? {
        guard let first = word.first, text.count >= word.count else { return nil }
        for start in text.startIndex...(text.endIndex - word.count) where text[start] == first {
            if text[start..<(start + word.count)].elementsEqual(word) { return start }
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The value of a run of at most nine ASCII digits.
    private static func value(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 &- 0x30) }
    }

    /// The scalar that starts at `index` of UTF-8 text, and where the next one starts (U+FFFD for
    /// bytes that are no scalar).
    private static func scalar(at index: Int, in text: ArraySlice<UInt8>) -> (Unicode.Scalar, next: Int) {
        let lead = text[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), index + 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= text.endIndex else { return ("\u{FFFD}", text.endIndex) }
        var value = UInt32(lead & (lead >= 0xF0 ? 0x07 : lead >= 0xE0 ? 0x0F : 0x1F))
        for offset in 1..<length { value = value << 6 | UInt32(text[index + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", index + length)
    }

    /// `Character.isLetter` of a character that is this one scalar.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (0x61...0x7A).contains(scalar.value | 0x20) : scalar.properties.isAlphabetic
    }

    /// `Character.isWhitespace` of a character that is this one scalar.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// Whether a field holds a time of day, `18:10:53` (`下午6:10:53`).
    private static func hasClock(_ field: ArraySlice<UInt8>) -> Bool {
        field.indices.contains { index in
            field[index] == UInt8(ascii: ":") && index > field.startIndex && index + 1 < field.endIndex
                && isDigit(field[index - 1]) && isDigit(field[index + 1])
        }
    }

    /// The numbers and ranges of a field, in order: `242`, `242-243`, `1300–1301`, `1300 t/m 1301`
    /// (Dutch), and old firmware's `242-43` (the end written short). A run of more than nine digits is
    /// no number.
    static func numbers(utf8 field: ArraySlice<UInt8>) -> [ClosedRange<Int>] {
        var found: [ClosedRange<Int>] = []
        var index = field.startIndex
        while index < field.endIndex {
            guard isDigit(field[index]) else {
                index += 1
                continue
            }
            var end = index
            while end < field.endIndex, isDigit(field[end]) { end += 1 }
            let first = field[index..<end]
            index = end
            guard first.count <= 9 else { continue }
            let from = value(first)
            if let (to, next) = rangeEnd(after: end, in: field, first: first) {
                index = next
                // A range that ends before it starts is its start.
                found.append(from...max(from, to))
            } else {
                found.append(from...from)
            }
        }
        return found
    }

    /// The end of a range whose start (the digits `first`) ends at `start`: after a dash (`-`, `–`,
    /// `—`, `~`), or after a short word between spaces (`t/m`, `to`, `bis`) when it is past the
    /// start; and where it ends.
    private static func rangeEnd(after start: Int, in field: ArraySlice<UInt8>, first: ArraySlice<UInt8>) -> (
        Int, Int
    )? {
        let space = UInt8(ascii: " ")
        var index = start
        while index < field.endIndex, field[index] == space { index += 1 }
        var isDash = false
        if index < field.endIndex {
            let (dash, next) = scalar(at: index, in: field)
            if isRangeDash(dash) { (isDash, index) = (true, next) }
        }
        if !isDash {
            // A word of one to three letters (or `/`), with spaces on both sides.
            guard index > start else { return nil }
            var end = index
            var count = 0
            var letters = true
            while end < field.endIndex, count <= 3, field[end] != space {
                let (character, next) = scalar(at: end, in: field)
                letters = letters && (character == "/" || (isLetter(character) && character.value < 0x2E80))
                (end, count) = (next, count + 1)
            }
            guard (1...3).contains(count), end < field.endIndex, field[end] == space, letters else { return nil }
            index = end
        }
        while index < field.endIndex, field[index] == space { index += 1 }
        var end = index
        while end < field.endIndex, isDigit(field[end]) { end += 1 }
        guard end > index, end - index <= 9 else { return nil }
        let second = field[index..<end]
        // `242-43` is 242 to 243.
        let to =
            isDash && second.count < first.count
            ? value(first.dropLast(second.count)) * (0..<second.count).reduce(1) { product, _ in product * 10 }
                + value(second)
            : value(second)
        guard isDash || to > value(first) else { return nil }
        return (to, end)
    }

    // MARK: - Dates

    static let months: [String: Int] = {
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

    /// The names of the months as UTF-8.
    private static let monthsUTF8 = Dictionary(uniqueKeysWithValues: months.map { (Array($0.key.utf8)[...], $0.value) })
    /// 午後, 下午, 오후: after noon; 午前, 上午, 오전: before.
    private static let afterNoonUTF8 = ["午後", "下午", "오후"].map { Array($0.utf8) }
    private static let beforeNoonUTF8 = ["午前", "上午", "오전"].map { Array($0.utf8) }
    /// Which of 年月日년월일 a character (one scalar) is, the year, month and day of a Chinese,
    /// Japanese or Korean date (2024年1月1日, 2024년 1월 1일); else `nil`.
    private static func cjkDateUnit(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "年": 0
        case "月": 1
        case "日": 2
        case "년": 3
        case "월": 4
        case "일": 5
        default: nil
        }
    }
    private static let gmtUTF8 = Array("gmt".utf8)
    private static let utcUTF8 = Array("utc".utf8)
    private static let greenwichUTF8 = Array("greenwich mean time".utf8)

    /// A date as a Kindle writes it after "Added on", in any of its languages: `Monday, 3 December 12
    /// 19:00:12 GMT+01:00`, `Friday, January 1, 2024 10:30:45 AM`, `vendredi 1 janvier 2024 10:30:45`,
    /// `2024年1月1日金曜日 10:30:45`. Without a zone it is the reader's time.
    ///
    /// Read by its UTF-8 bytes, lowercased, when each character is one scalar; else by its characters
    /// (`characterDate(_:timeZone:)`), with the same result.
    static func date(_ text: String, timeZone: Zone) -> Date? {
        guard let (lowered, isASCII) = lowercasedUTF8(text[...]) else { return characterDate(text, timeZone: timeZone) }
        return date(utf8: lowered[...], isASCII: isASCII, timeZone: timeZone)
    }

    /// `date(_:timeZone:)` of lowercased text whose every character is one scalar, as UTF-8.
    private static func date(utf8 text: ArraySlice<UInt8>, isASCII: Bool, timeZone: Zone) -> Date? {
        // The time: the first run of digits and colons that is two or three numbers.
        guard let (clock, clockRange) = clock(in: text) else { return nil }
        var hour = clock.hour
        let (minute, second) = (clock.minute, clock.second)
        // `PM`, `a.m.` right after the clock (not the `am` of `Hinzugefügt am` or `samedi`); 下午,
        // 午後, 오후 anywhere (before the clock).
        let meridiem = meridiem(after: clockRange.upperBound, in: text)
        let afterNoon =
            meridiem == UInt8(ascii: "p") || (!isASCII && afterNoonUTF8.contains { start(of: $0, in: text) != nil })
        let beforeNoon =
            meridiem == UInt8(ascii: "a") || (!isASCII && beforeNoonUTF8.contains { start(of: $0, in: text) != nil })
        if afterNoon, hour < 12 { hour += 12 }
        if beforeNoon, !afterNoon, hour == 12 { hour = 0 }
        // The day: 2024年1月1日 (and Korean 2024년 1월 1일), else a month's name among numbers: a number
        // of four digits (the year) and the first of one or two (the day), or two of one or two.
        var full: Int?
        var short: (first: Int?, second: Int?)
        var monthByName: Int?
        var cjk: (year: Int?, month: Int?, day: Int?, nyeon: Int?, wol: Int?, il: Int?)
        // The word being read: letters that follow one another, but for the clock between.
        var word = text.startIndex..<text.startIndex
        var wordAcrossClock: [UInt8]?
        var digits = text.startIndex..<text.startIndex
        func flush() {
            if !digits.isEmpty {
                let value = value(text[digits].prefix(9))
                if digits.count == 4, full == nil { full = value }
                if digits.count <= 2 {
                    if short.first == nil { short.first = value } else if short.second == nil { short.second = value }
                }
            }
            if !word.isEmpty || wordAcrossClock != nil, monthByName == nil {
                monthByName = monthsUTF8[wordAcrossClock?[...] ?? text[word]]
            }
            word = text.startIndex..<text.startIndex
            wordAcrossClock = nil
            digits = text.startIndex..<text.startIndex
        }
        var index = text.startIndex
        while index < text.endIndex {
            if clockRange.contains(index) {
                index = clockRange.upperBound
                continue
            }
            let (character, next) = scalar(at: index, in: text)
            let unit = cjkDateUnit(character)
            if isDigit(text[index]) {
                if !word.isEmpty || wordAcrossClock != nil { flush() }
                // Digits follow one another: before the clock comes no digit.
                digits = (digits.isEmpty ? index : digits.lowerBound)..<next
            } else if isLetter(character), unit == nil {
                if !digits.isEmpty { flush() }
                if wordAcrossClock != nil {
                    wordAcrossClock?.append(contentsOf: text[index..<next])
                } else if word.isEmpty {
                    word = index..<next
                } else if word.upperBound == index {
                    word = word.lowerBound..<next
                } else {
                    wordAcrossClock = Array(text[word] + text[index..<next])
                }
            } else {
                if let unit, !digits.isEmpty {
                    let value = value(text[digits].prefix(9))
                    switch unit {
                    case 0: cjk.year = value
                    case 1: cjk.month = value
                    case 2: cjk.day = value
                    case 3: cjk.nyeon = value
                    case 4: cjk.wol = value
                    default: cjk.il = value
                    }
                    digits = text.startIndex..<text.startIndex
                }
                flush()
            }
            index = next
        }
        flush()
        let (year, month, day): (Int, Int, Int)
        if let y = cjk.year ?? cjk.nyeon, let m = cjk.month ?? cjk.wol, let d = cjk.day ?? cjk.il {
            (year, month, day) = (y, m, d)
        } else if let m = monthByName {
            if let full {
                guard let d = short.first else { return nil }
                (year, month, day) = (full, m, d)
            } else {
                // Old firmware: `3 December 12`, the day then a year of two digits.
                guard let d = short.first, let y = short.second else { return nil }
                (year, month, day) = (2000 + y, m, d)
            }
        } else {
            return nil
        }
        let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard local.isValid, (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else {
            return nil
        }
        // The zone, when the device wrote one.
        if let gmt = start(of: gmtUTF8, in: text) ?? start(of: utcUTF8, in: text) {
            // The sign and the numbers of the six characters after it.
            var end = gmt + 3
            for _ in 0..<6 where end < text.endIndex { end = scalar(at: end, in: text).next }
            let after = text[(gmt + 3)..<end]
            var offset = 0
            if let sign = after.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                let parts = after.dropFirst().split(separator: UInt8(ascii: ":")).compactMap(integer)
                guard let hours = parts.first, hours <= 14 else { return nil }
                offset = (hours * 3600 + (parts.count > 1 ? parts[1] * 60 : 0)) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
            return Zone(name: "GMT", fixedOffset: offset).date(from: local)
        }
        if start(of: greenwichUTF8, in: text) != nil { return Zone(name: "GMT", fixedOffset: 0).date(from: local) }
        return timeZone.date(from: local)
    }

    /// The first run of digits and colons that is two or three numbers, `18:10:53`, `6:10`, and
    /// where it is.
    private static func clock(in text: ArraySlice<UInt8>) -> ((hour: Int, minute: Int, second: Int), Range<Int>)? {
        var index = text.startIndex
        while index < text.endIndex {
            guard isDigit(text[index]) else {
                index += 1
                continue
            }
            var end = index
            var parts: (count: Int, values: (Int, Int, Int), allNumbers: Bool) = (0, (0, 0, 0), true)
            var current: Int? = 0
            var digits = 0
            /// The number read ends: none when it has no digit or is past `Int.max`, as
            /// `Int("…")` has it.
            func endPart() {
                let part = digits > 0 ? current ?? -1 : -1
                switch parts.count {
                case 0: parts.values.0 = part
                case 1: parts.values.1 = part
                case 2: parts.values.2 = part
                default: break
                }
                parts.count += 1
                parts.allNumbers = parts.allNumbers && part >= 0
                (current, digits) = (0, 0)
            }
            while end < text.endIndex, isDigit(text[end]) || text[end] == UInt8(ascii: ":") {
                if text[end] == UInt8(ascii: ":") {
                    endPart()
                } else {
                    let (times, overflow) = (current ?? 0).multipliedReportingOverflow(by: 10)
                    let (sum, carried) = times.addingReportingOverflow(Int(text[end] &- 0x30))
                    current = current == nil || overflow || carried ? nil : sum
                    digits += 1
                }
                end += 1
            }
            endPart()
            if (2...3).contains(parts.count), parts.allNumbers {
                return ((parts.values.0, parts.values.1, parts.count == 3 ? parts.values.2 : 0), index..<end)
            }
            index = end
        }
        return nil
    }

    /// `Int(_:)` of a few bytes: a sign or none, then ASCII digits.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        let digits = bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(isDigit) else { return nil }
        return bytes.first == UInt8(ascii: "-") ? -value(digits) : value(digits)
    }

    /// `a` or `p` for `AM`, `pm`, `a.m.`, `p. m.` at `start` (after spaces), a word of its own; else `nil`.
    private static func meridiem(after start: Int, in text: ArraySlice<UInt8>) -> UInt8? {
        var index = start
        while index < text.endIndex, case (let character, let next) = scalar(at: index, in: text),
            isWhitespace(character)
        {
            index = next
        }
        guard index < text.endIndex, text[index] == UInt8(ascii: "a") || text[index] == UInt8(ascii: "p") else {
            return nil
        }
        let letter = text[index]
        index += 1
        while index < text.endIndex, case (let character, let next) = scalar(at: index, in: text),
            character == "." || isWhitespace(character)
        {
            index = next
        }
        guard index < text.endIndex, text[index] == UInt8(ascii: "m") else { return nil }
        index += 1
        guard index == text.endIndex || !isLetter(scalar(at: index, in: text).0) else { return nil }
        return letter
    }
}
