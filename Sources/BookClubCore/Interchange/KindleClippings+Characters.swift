#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Headers and dates read by their characters: the reading `header(_:timeZone:)` and
/// `date(_:timeZone:)` fall back on for text in which a character is more than one scalar (a letter
/// and its accent written apart, a compatibility ideograph that equals another), and the reference
/// the reading of their bytes is held to. Both give the same for every line.
extension KindleClippings {
    /// `header(_:timeZone:)`, read by characters.
    static func characterHeader(_ line: String, timeZone: Zone) -> Header? {
        let text = line.trimmed
        guard let first = text.first, dashes.contains(first) else { return nil }
        var fields = text.dropFirst().lowercased().split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "|" || $0 == "｜" }
        ).map { Array($0) }
        // The date is the last field, when it holds a clock.
        var dateField: [Character]?
        if fields.count >= 2, let last = fields.last, hasClock(last) { dateField = fields.removeLast() }
        let time = dateField.flatMap { characterDate(String($0), timeZone: timeZone) }
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

    /// `date(_:timeZone:)`, read by characters.
    static func characterDate(_ text: String, timeZone: Zone) -> Date? {
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
