#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A fast reader for the history lines bookclub itself writes: a flat JSON object, compact, whose
/// strings have no escapes and whose dates are `YYYY-MM-DDTHH:MM:SSZ`. Foundation's decoder spends
/// about 10 µs a line on them, which `export` and `stats` pay once per entry; this reads one in well
/// under a microsecond. Any line of another shape (an escaped note, a hand-edited file) is left to
/// the decoder: `nil` means "not sure", never "invalid".
enum HistoryLine {
    static func record(_ line: UnsafeRawBufferPointer) -> HistoryRecord? {
        var scanner = JSONScanner(bytes: line)
        var book: String?
        var reading: UUID?
        var entry: ReadingProgress.Entry?
        var previous: Int?
        let complete = scanner.object { key, scanner in
            // A key that comes twice gives up (Foundation's decoder would take the last).
            switch key {
            case "previous" where previous == nil: return scanner.read(&previous)
            case "book" where book == nil:
                book = scanner.string()
                return book != nil
            case "reading" where reading == nil:
                reading = scanner.uuid()
                return reading != nil
            case "entry" where entry == nil:
                entry = self.entry(&scanner)
                return entry != nil
            default: return false
            }
        }
        guard complete, scanner.atEnd, let book, let reading, let entry else { return nil }
        return HistoryRecord(book: book, reading: reading, entry: entry, previous: previous)
    }

    /// The book of a line as bookclub writes one, `{"book":"ID",…`, read from its first bytes alone;
    /// `nil` for a line of any other form.
    static func bookID(_ line: UnsafeRawBufferPointer) -> Book.ID? {
        let prefix: StaticString = #"{"book":""#
        let count = prefix.utf8CodeUnitCount
        guard line.count > count + 1, let base = line.baseAddress, sameBytes(base, prefix.utf8Start, count: count),
            let quote = firstByte(UInt8(ascii: "\""), at: base + count, count: line.count - count)
        else { return nil }
        let id = UnsafeRawBufferPointer(rebasing: line[count..<base.distance(to: UnsafeRawPointer(quote))])
        guard !id.contains(UInt8(ascii: "\\")) else { return nil }
        return String(validating: id, as: UTF8.self)
    }

    static func entry(_ scanner: inout JSONScanner) -> ReadingProgress.Entry? {
        var id: UUID?
        var progress: Double?
        var page: Int?
        var time: Date?
        var note: String?
        let complete = scanner.object { key, scanner in
            switch key {
            case "id" where id == nil:
                id = scanner.uuid()
                return id != nil
            case "progress" where progress == nil:
                progress = scanner.number().flatMap { Double($0) }
                return progress != nil
            case "page" where page == nil:
                page = scanner.number().flatMap { Int($0) }
                return page != nil
            case "time" where time == nil:
                time = scanner.string().flatMap(date)
                return time != nil
            case "note" where note == nil:
                note = scanner.string()
                return note != nil
            default: return false
            }
        }
        guard complete, let id, let progress, progress.isFinite, (0...1).contains(progress), let time else {
            return nil
        }
        return ReadingProgress.Entry(id: id, progress: progress, page: page, time: time, note: note)
    }

    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case; `nil` for anything else.
    static func uuid(_ text: UnsafeRawBufferPointer) -> UUID? {
        guard text.count == 36 else { return nil }
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        let complete = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var index = 0
            for position in 0..<16 {
                if position == 4 || position == 6 || position == 8 || position == 10 {
                    guard text[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                }
                guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return false }
                out[position] = high << 4 | low
                index += 2
            }
            return true
        }
        return complete ? UUID(uuid: bytes) : nil
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// `2026-11-20T19:00:00Z`, as JSONEncoder's `.iso8601` writes it; `nil` for anything else.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        // Before 1583 Foundation's calendar is Julian: such dates are left to the decoder.
        guard let year = number(0..<4), year >= 1583, let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month),
            (1...31).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = LocalDateTime.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
