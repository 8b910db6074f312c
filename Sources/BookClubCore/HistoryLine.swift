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
        var scanner = Scanner(bytes: line)
        var book: String?
        var reading: UUID?
        var entry: ReadingProgress.Entry?
        let complete = scanner.object { key, scanner in
            switch key {
            case "book":
                book = scanner.string()
                return book != nil
            case "reading":
                reading = scanner.string().flatMap(UUID.init(uuidString:))
                return reading != nil
            case "entry":
                entry = self.entry(&scanner)
                return entry != nil
            default: return false
            }
        }
        guard complete, scanner.atEnd, let book, let reading, let entry else { return nil }
        return HistoryRecord(book: book, reading: reading, entry: entry)
    }

    private static func entry(_ scanner: inout Scanner) -> ReadingProgress.Entry? {
        var id: UUID?
        var progress: Double?
        var page: Int?
        var time: Date?
        var note: String?
        let complete = scanner.object { key, scanner in
            switch key {
            case "id":
                id = scanner.string().flatMap(UUID.init(uuidString:))
                return id != nil
            case "progress":
                progress = scanner.number().flatMap { Double($0) }
                return progress != nil
            case "page":
                page = scanner.number().flatMap { Int($0) }
                return page != nil
            case "time":
                time = scanner.string().flatMap(date)
                return time != nil
            case "note":
                note = scanner.string()
                return note != nil
            default: return false
            }
        }
        guard complete, let id, let progress, progress.isFinite, (0...1).contains(progress), let time else { return nil }
        return ReadingProgress.Entry(id: id, progress: progress, page: page, time: time, note: note)
    }

    /// `2026-11-20T19:00:00Z`, as JSONEncoder's `.iso8601` writes it; `nil` for anything else.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
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
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Reads flat JSON objects of strings without escapes, numbers and nested objects.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var atEnd: Bool { index == bytes.count }

        static let numberBytes = Set("0123456789+-.eE".utf8)

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string with no escape; `nil` for any other value.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        /// The text of a number, for `Int(_:)` or `Double(_:)` to judge.
        mutating func number() -> String? {
            let start = index
            while index < bytes.count, Self.numberBytes.contains(bytes[index]) {
                index += 1
            }
            guard index > start else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        /// `{"key":value,...}`, each value read by `member`, which returns `false` to give up. A key
        /// that comes twice gives up too (Foundation's decoder would take the last).
        mutating func object(_ member: (String, inout Scanner) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            var seen = Set<String>()
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                guard let key = string(), seen.insert(key).inserted, take(UInt8(ascii: ":")), member(key, &self) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }
    }
}
