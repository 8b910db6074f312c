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
    private static let recordKeys: [StaticString] = ["previous", "book", "reading", "entry"]
    private static let entryKeys: [StaticString] = ["id", "progress", "page", "time", "note", "minutes"]

    /// - Parameter expected: the book the line should be of: when it is, its id is compared in place
    ///   rather than read into a string.
    static func record(_ line: UnsafeRawBufferPointer, ofBook expected: Book.ID? = nil) -> HistoryRecord? {
        var scanner = JSONScanner(bytes: line)
        var book: String?
        var reading: UUID?
        var entry: ReadingProgress.Entry?
        var previous: Int?
        let complete = scanner.object(keys: recordKeys) { key, scanner in
            // A key that comes twice gives up (Foundation's decoder would take the last).
            switch key {
            case 0 where previous == nil: return scanner.read(&previous)
            case 1 where book == nil:
                if let expected, scanner.take(string: expected) {
                    book = expected
                } else {
                    book = scanner.string()
                }
                return book != nil
            case 2 where reading == nil:
                reading = scanner.uuid()
                return reading != nil
            case 3 where entry == nil:
                entry = self.entry(&scanner)
                return entry != nil
            default: return false
            }
        }
        guard complete, scanner.atEnd, let book, let reading, let entry else { return nil }
        return HistoryRecord(book: book, reading: reading, entry: entry, previous: previous)
    }

    /// The bytes of the book id of a line as bookclub writes one, `{"book":"ID",…`, read from its first
    /// bytes alone; `nil` for a line of any other form.
    static func bookID(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let prefix: StaticString = #"{"book":""#
        let count = prefix.utf8CodeUnitCount
        guard line.count > count + 1, let base = line.baseAddress, sameBytes(base, prefix.utf8Start, count: count),
            let quote = firstByte(UInt8(ascii: "\""), at: base + count, count: line.count - count)
        else { return nil }
        let id = UnsafeRawBufferPointer(rebasing: line[count..<base.distance(to: UnsafeRawPointer(quote))])
        return id.contains(UInt8(ascii: "\\")) ? nil : id
    }

    static func entry(_ scanner: inout JSONScanner) -> ReadingProgress.Entry? {
        var id: UUID?
        var progress: Double?
        var page: Int?
        var time: Date?
        var note: String?
        var minutes: Int?
        let complete = scanner.object(keys: entryKeys) { key, scanner in
            switch key {
            case 0 where id == nil:
                id = scanner.uuid()
                return id != nil
            case 1 where progress == nil: return scanner.read(&progress)
            case 2 where page == nil: return scanner.read(&page)
            case 3 where time == nil: return scanner.read(&time)
            case 4 where note == nil:
                note = scanner.string()
                return note != nil
            case 5 where minutes == nil: return scanner.read(&minutes)
            default: return false
            }
        }
        guard complete, let id, let progress, progress.isFinite, (0...1).contains(progress), let time else {
            return nil
        }
        return ReadingProgress.Entry(id: id, progress: progress, page: page, time: time, note: note, minutes: minutes)
    }

    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case; `nil` for anything else.
    static func uuid(_ text: UnsafeRawBufferPointer) -> UUID? {
        guard text.count == 36, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
            text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-")
        else { return nil }
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        let complete = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            // Any byte that is not a hex digit sets the high bit of `invalid`.
            var invalid: UInt8 = 0
            for position in 0..<16 {
                let index = hexOffsets[position]
                let high = nibbles[Int(text[index])]
                let low = nibbles[Int(text[index + 1])]
                invalid |= high | low
                out[position] = high << 4 | low & 0x0F
            }
            return invalid & 0x80 == 0
        }
        return complete ? UUID(uuid: bytes) : nil
    }

    /// Where each byte's two hex digits begin in `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`.
    private static let hexOffsets = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

    /// The value of each byte as a hex digit, 0xFF for any other byte.
    private static let nibbles: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        default: 0xFF
        }
    }

    /// `2026-11-20T19:00:00Z`, as JSONEncoder's `.iso8601` writes it; `nil` for anything else.
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(UnsafeRawBufferPointer($0)) }
    }

    /// The same, from the text's bytes.
    static func date(_ bytes: UnsafeRawBufferPointer) -> Date? {
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
