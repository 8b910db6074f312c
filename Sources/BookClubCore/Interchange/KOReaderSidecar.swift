#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A KOReader book sidecar, `Book.sdr/metadata.epub.lua`: which book, how far it was read, its status,
/// and its highlights, in either of KOReader's formats.
///
/// - KOReader 2024.07 and later keep an `annotations` array: `text` is the passage, `note` the
///   reader's note, with `pageno`, `chapter` and `datetime`; an entry without `drawer` is a page
///   bookmark, skipped.
/// - Earlier versions keep the passages in `highlight` (by page) and the notes in `bookmarks`, where
///   the meaning is inverted: `notes` holds the passage and `text` the reader's note, unless it is
///   the passage again or KOReader's own `in <chapter>`; a bookmark of no passage and not
///   `highlighted` is a page bookmark, skipped.
public enum KOReaderSidecar {
    /// Reads a sidecar: `nil` and a reason when it names no book.
    ///
    /// - Parameters:
    ///   - origin: how messages name the file.
    ///   - modified: the file's time, for progress the sidecar does not date.
    ///   - timeZone: the reader's, for KOReader's times (written without a zone).
    public static func read(_ data: Data, origin: String, modified: Date?, timeZone: Zone) throws(ReaderImport.Problem)
        -> (book: ReaderImport.Book, bookmarks: Int)
    {
        let root: LuaValue
        do {
            root = try LuaReader.read(data)
        } catch {
            throw ReaderImport.Problem(place: "\(origin), line \(error.line)", reason: error.reason)
        }
        let props = root["doc_props"]
        var title = props?["title"]?.string?.trimmed.nonBlank
        var author = props?["authors"]?.string.flatMap(authors)
        // Failing those, the file's name: `Title - Author.epub`.
        if title == nil, let path = root["doc_path"]?.string {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let stem = name.contains(".") ? String(name[..<name.lastIndex(of: ".")!]) : name
            if let dash = stem.firstRange(of: " - ") {
                title = String(stem[..<dash.lowerBound]).trimmed.nonBlank
                author = author ?? String(stem[dash.upperBound...]).trimmed.nonBlank
            } else {
                title = stem.trimmed.nonBlank
            }
        }
        guard let title else {
            throw ReaderImport.Problem(place: origin, reason: "no title in doc_props, and no doc_path")
        }
        let checksum = root["partial_md5_checksum"]?.string.flatMap(checksum)
        let isbn = props?["identifiers"]?.string.flatMap { identifiers in
            identifiers.split(whereSeparator: { $0.isNewline || $0 == "," }).lazy.compactMap { item -> String? in
                let value = item.lowercased().hasPrefix("isbn:") ? item.dropFirst(5) : item[...]
                return ISBN(String(value).trimmed)?.thirteen
            }.first
        }
        var book = ReaderImport.Book(title: title, author: author, isbn: isbn, externalID: checksum, origin: origin)

        let summary = root["summary"]
        let day = summary?["modified"]?.string.flatMap { Self.day(from: $0, timeZone: timeZone) }
        if let fraction = root["percent_finished"]?.number, fraction.isFinite, (0...1).contains(fraction),
            let time = day ?? modified
        {
            book.progress = ReaderImport.Progress(fraction: fraction, time: time)
        }
        if summary?["status"]?.string == "complete" { book.finished = day ?? modified }

        let key = checksum ?? title
        var bookmarks = 0
        if case .table = root["annotations"] {
            for item in root["annotations"]!.array {
                guard item["drawer"] != nil else {
                    bookmarks += 1
                    continue
                }
                guard let text = item["text"]?.string?.trimmed, !text.isEmpty else { continue }
                let page = item["pageno"]?.number.flatMap(Self.page(from:))
                let position = item["pos0"]?.string ?? "page \(page ?? 0) " + text
                book.highlights.append(
                    Highlight(
                        id: "koreader-" + ReaderImport.digest(key, position), text: text,
                        note: item["note"]?.string?.trimmed.nonBlank, page: page,
                        chapter: item["chapter"]?.string?.trimmed.nonBlank,
                        time: item["datetime"]?.string.flatMap { Self.time(from: $0, timeZone: timeZone) },
                        source: .koreader))
            }
        } else {
            let (highlights, skipped) = oldFormat(root, key: key, timeZone: timeZone)
            book.highlights = highlights
            bookmarks = skipped
        }
        // One highlight a place: a file that lists one twice keeps the last.
        var seen = Set<String>()
        book.highlights = book.highlights.reversed().filter { seen.insert($0.id).inserted }.reversed()
        return (book, bookmarks)
    }

    /// A passage of the old format's `highlight` table.
    private struct Passage {
        var text: String
        var page: Int?
        var pos0: LuaValue?
        var pos1: LuaValue?
        var chapter: String?
        var datetime: String?
        var note: String?
    }

    /// The highlights of the format before 2024.07, and how many page bookmarks it has. `highlight`,
    /// keyed by page, holds the passages (`text`); `bookmarks` holds page bookmarks and, for some
    /// passages, a bookmark of the same place (the same `pos0` and `pos1`, or without them the same
    /// page and text) whose `notes` is the passage again and whose `text` is the reader's note, unless
    /// it is the passage or KOReader's own `in <chapter>`. A highlighted bookmark of no passage of
    /// `highlight` is a highlight of its own (a file of before `highlight`); any other is a page
    /// bookmark.
    private static func oldFormat(_ root: LuaValue, key: String, timeZone: Zone) -> ([Highlight], Int) {
        var passages: [(page: Int, index: Int, passage: Passage)] = []
        // The page of each time, for a highlighted bookmark of no passage (its entry shares its time).
        var pageByTime: [String: Int] = [:]
        for (pageKey, entries) in root["highlight"]?.entries ?? [] {
            var page: Int?
            if case .number(let number) = pageKey { page = Self.page(from: number) }
            for (index, entry) in entries.array.enumerated() {
                if let page, let time = entry["datetime"]?.string {
                    pageByTime[time] = min(page, pageByTime[time] ?? page)
                }
                guard let text = entry["text"]?.string?.trimmed, !text.isEmpty else { continue }
                let passage = Passage(
                    text: text, page: page, pos0: entry["pos0"], pos1: entry["pos1"],
                    chapter: entry["chapter"]?.string?.trimmed.nonBlank, datetime: entry["datetime"]?.string)
                passages.append((page ?? Int.max, index, passage))
            }
        }
        // In the book's order: the table's order is not the file's.
        passages.sort { ($0.page, $0.index, $0.passage.text) < ($1.page, $1.index, $1.passage.text) }
        var found = passages.map(\.passage)
        // The passages by place, and by text: on any page (`nil`) and on theirs, among all of them or
        // among those of no place only. A file of many is read in linear time.
        struct TextKey: Hashable {
            var text: String
            var page: Int?
            var unplaced: Bool
        }
        var byPlace: [[LuaValue?]: Int] = [:]
        var byText: [TextKey: Int] = [:]
        for (index, passage) in found.enumerated().reversed() {
            let unplaced = passage.pos0 == nil && passage.pos1 == nil
            if !unplaced { byPlace[[passage.pos0, passage.pos1]] = index }
            for page in [nil, passage.page] {
                byText[TextKey(text: passage.text, page: page, unplaced: false)] = index
                if unplaced { byText[TextKey(text: passage.text, page: page, unplaced: true)] = index }
            }
        }
        var extra: [Passage] = []
        var bookmarks = 0
        for item in root["bookmarks"]?.array ?? [] {
            let text = item["notes"]?.string?.trimmed ?? ""
            let chapter = item["chapter"]?.string?.trimmed.nonBlank
            let page = item["page"]?.number.flatMap(Self.page(from:))
            let (pos0, pos1) = (item["pos0"], item["pos1"])
            // The same place; else, where one of the two has none, the same passage (on the same page).
            let hasPlace = pos0 != nil && pos1 != nil
            let match =
                (hasPlace ? byPlace[[pos0, pos1]] : nil)
                ?? (text.isEmpty ? nil : byText[TextKey(text: text, page: page, unplaced: hasPlace)])
            var note = item["text"]?.string?.trimmed.nonBlank
            if let written = note, written == text || isAutomatic(written, chapter: chapter) { note = nil }
            if let match {
                if let note, found[match].note == nil, note != found[match].text { found[match].note = note }
            } else if item["highlighted"]?.bool == true, !text.isEmpty, !isAutomatic(text, chapter: chapter) {
                let datetime = item["datetime"]?.string
                extra.append(
                    Passage(
                        text: text, page: page ?? datetime.flatMap { pageByTime[$0] }, pos0: pos0, pos1: pos1,
                        chapter: chapter, datetime: datetime, note: note))
            } else {
                bookmarks += 1
            }
        }
        let highlights = (found + extra).map { passage in
            let position = passage.pos0?.string ?? "page \(passage.page ?? 0) " + passage.text
            return Highlight(
                id: "koreader-" + ReaderImport.digest(key, position), text: passage.text, note: passage.note,
                page: passage.page, chapter: passage.chapter,
                time: passage.datetime.flatMap { Self.time(from: $0, timeZone: timeZone) }, source: .koreader)
        }
        return (highlights, bookmarks)
    }

    /// KOReader's authors, one a line, as bookclub writes several: `Ann, Bo`.
    static func authors(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).map { String($0).trimmed }.filter { !$0.isEmpty }
            .joined(separator: ", ").nonBlank
    }

    /// KOReader's checksum of a book's file (32 hexadecimal digits), in lowercase; `nil` for anything else.
    static func checksum(_ text: String) -> String? {
        text.count == 32 && text.allSatisfy(\.isHexDigit) ? text.lowercased() : nil
    }

    /// KOReader's own text on a highlight of the old format: `in Chapter 3`, or an early version's
    /// `Page 12 Chapter 3 @ 2020-01-05 10:00:00`.
    static func isAutomatic(_ text: String, chapter: String?) -> Bool {
        if let chapter, text == "in " + chapter { return true }
        return text.hasPrefix("Page ") && text.contains(" @ ")
    }

    private static func page(from number: Double) -> Int? {
        number.rounded() == number && number >= 0 && number <= Double(Library.pageCounts.upperBound)
            ? Int(number) : nil
    }

    /// `2024-08-01 19:05:33`, the reader's local time.
    static func time(from text: String, timeZone: Zone) -> Date? {
        let parts = text.trimmed.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == ":" || $0 == "T" })
            .compactMap { Int($0) }
        guard parts.count >= 3 else { return nil }
        let local = LocalDateTime(
            year: parts[0], month: parts[1], day: parts[2], hour: parts.count > 3 ? parts[3] : 12,
            minute: parts.count > 4 ? parts[4] : 0, second: parts.count > 5 ? parts[5] : 0)
        guard local.isValid, (0..<24).contains(local.hour), (0..<60).contains(local.minute),
            (0..<61).contains(local.second)
        else { return nil }
        return timeZone.date(from: local)
    }

    /// `2024-08-02`, noon of that day, as an import reads a day.
    static func day(from text: String, timeZone: Zone) -> Date? {
        let parts = text.trimmed.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return time(from: "\(parts[0])-\(parts[1])-\(parts[2]) 12:00:00", timeZone: timeZone)
    }
}
