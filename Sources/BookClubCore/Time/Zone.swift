#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The reader's time zone, as the C library knows it: the rules of a compiled zoneinfo (TZif) file
/// such as `/usr/share/zoneinfo/America/New_York`, or a POSIX rule such as `EST5EDT,M3.2.0,M11.1.0`.
///
/// FoundationEssentials on Linux has no time zone database (its `TimeZone.current` is always GMT), so
/// bookclub reads the same files as `localtime(3)`. Offsets follow the rules in force on the date
/// itself, not today's; offsets of 30 and 45 minutes (Kolkata, Kathmandu, Lord Howe's half-hour
/// daylight saving) work like any other.
///
/// Wall-clock times that do not exist or happen twice (see `date(from:)`) follow one rule.
///
/// ```swift
/// let zone = try #require(Zone(tzif: data, name: "America/New_York"))
/// zone.local(date)            // LocalDateTime(2026, 11, 20, 19, 0, 0)
/// zone.date(from: local)      // the moment, in UTC
/// ```
public struct Zone: Sendable, Equatable {
    /// The name it was found by (`America/New_York`, `EST5EDT`, `UTC`), for messages.
    public let name: String
    /// Moments (seconds since 1970, UTC) at which the offset changes, ascending.
    private let transitions: [Int64]
    /// The offset from each transition on.
    private let offsets: [Int]
    /// The offset before the first transition.
    private let initialOffset: Int
    /// The rule after the last transition (a TZif file's footer), or always when there are none.
    private let rule: PosixRule?

    /// UTC.
    public static let utc = Zone(name: "UTC", fixedOffset: 0)

    /// A zone that is always `offset` seconds east of UTC.
    public init(name: String, fixedOffset offset: Int) {
        (self.name, transitions, offsets, initialOffset, rule) = (name, [], [], offset, nil)
    }

    /// A zone from a POSIX `TZ` rule (`IST-5:30`, `EST5EDT,M3.2.0,M11.1.0`, `<+0545>-5:45`); `nil`
    /// when it is not one. A rule naming daylight time without saying when it starts follows the
    /// United States' (`M3.2.0,M11.1.0`), as glibc does.
    public init?(posix text: String) {
        guard let rule = PosixRule(text) else { return nil }
        (name, transitions, offsets, initialOffset, self.rule) = (text, [], [], rule.standardOffset, rule)
    }

    /// A zone from the bytes of a TZif file (RFC 8536, versions 1 to 4); `nil` when they are not one.
    public init?(tzif data: Data, name: String) {
        guard let parsed = TZif(Array(data)) else { return nil }
        self.name = name
        (transitions, offsets, initialOffset, rule) = (
            parsed.transitions, parsed.offsets, parsed.initialOffset, parsed.rule
        )
    }

    /// Seconds east of UTC at `date`.
    public func offset(at date: Date) -> Int {
        offset(atSecond: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    func offset(atSecond t: Int64) -> Int {
        if let last = transitions.last, t >= last, let rule { return rule.offset(atSecond: t) }
        if transitions.isEmpty { return rule?.offset(atSecond: t) ?? initialOffset }
        // The last transition at or before t.
        var (low, high) = (0, transitions.count)
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= t { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// The wall-clock time at `date` in this zone.
    public func local(_ date: Date) -> LocalDateTime {
        let t = Int64(date.timeIntervalSince1970.rounded(.down))
        return LocalDateTime(secondsSinceEpoch: t + Int64(offset(atSecond: t)))
    }

    /// The day `date` falls on here, as days since 1970-01-01.
    public func day(of date: Date) -> Int {
        let t = Int64(date.timeIntervalSince1970.rounded(.down))
        return Int((t + Int64(offset(atSecond: t))).floorDivided(by: 86_400))
    }

    /// The moment a wall-clock time names in this zone.
    ///
    /// When clocks jump forward the skipped times do not exist: such a time is read with the offset
    /// in force before the jump, so it lands as far after the jump as it was after the gap's start
    /// (02:30 on the morning New York springs forward is 03:30 EDT). When clocks fall back, the
    /// repeated times happen twice: the first is taken (01:30 on the morning New York falls back is
    /// 01:30 EDT, not EST). This is what `mktime(3)` does with `tm_isdst = -1` on glibc.
    public func date(from local: LocalDateTime) -> Date {
        let wall = local.secondsSinceEpoch
        // Offsets run from -12 to +14 hours, so the moment lies within a day of the wall-clock reading,
        // and the offsets in force a day either side are the only candidates.
        let before = offset(atSecond: wall - 86_400)
        let after = offset(atSecond: wall + 86_400)
        let fits = [before, after].filter { offset(atSecond: wall - Int64($0)) == $0 }
        let chosen = fits.max() ?? before  // the earlier moment when it happens twice; the offset before a gap
        return Date(timeIntervalSince1970: Double(wall - Int64(chosen)))
    }
}

/// A POSIX `TZ` rule: `std offset [dst [offset] [,start[/time],end[/time]]]` (offsets west of UTC).
struct PosixRule: Sendable, Equatable {
    /// Seconds east of UTC.
    let standardOffset: Int
    let daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        let offset: Int
        let start: Day
        let startTime: Int
        let end: Day
        let endTime: Int
    }

    enum Day: Sendable, Equatable {
        /// `Jn`: 1 to 365, 29 February never counted.
        case julian(Int)
        /// `n`: 0 to 365, 29 February counted.
        case zeroBased(Int)
        /// `Mm.w.d`: day `d` (0 Sunday) of week `w` (5: the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        /// Days since 1970-01-01 of this day in `year`.
        func days(in year: Int) -> Int {
            let january1 = LocalDateTime.days(year: year, month: 1, day: 1)
            switch self {
            case .julian(let n): return january1 + n - 1 + (LocalDateTime.isLeap(year) && n >= 60 ? 1 : 0)
            case .zeroBased(let n): return january1 + n
            case .monthWeekDay(let month, let week, let weekday):
                let first = LocalDateTime.days(year: year, month: month, day: 1)
                let firstWeekday = (first + 4).floorModulo(7)  // 0 Sunday
                var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                let end = first + LocalDateTime.length(ofMonth: month, year: year)
                while day >= end { day -= 7 }
                return day
            }
        }
    }

    func offset(atSecond t: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = LocalDateTime(secondsSinceEpoch: t + Int64(standardOffset)).year
        let start = Int64(daylight.start.days(in: year)) * 86_400 + Int64(daylight.startTime - standardOffset)
        let end = Int64(daylight.end.days(in: year)) * 86_400 + Int64(daylight.endTime - daylight.offset)
        let inDaylight = start < end ? (t >= start && t < end) : !(t >= end && t < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset(maxHours: 24) else { return nil }
        standardOffset = -standard
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3_600
        if let explicit = scanner.offset(maxHours: 24) { daylightOffset = -explicit }
        var rules = (start: Day.monthWeekDay(month: 3, week: 2, weekday: 0), startTime: 7_200)
        var ends = (end: Day.monthWeekDay(month: 11, week: 1, weekday: 0), endTime: 7_200)
        if scanner.take(",") {
            guard let start = scanner.ruleDay() else { return nil }
            rules = (start, scanner.take("/") ? (scanner.offset(maxHours: 167) ?? .min) : 7_200)
            guard rules.startTime != .min, scanner.take(","), let end = scanner.ruleDay() else { return nil }
            ends = (end, scanner.take("/") ? (scanner.offset(maxHours: 167) ?? .min) : 7_200)
            guard ends.endTime != .min else { return nil }
        }
        guard scanner.atEnd else { return nil }
        daylight = Daylight(
            offset: daylightOffset, start: rules.start, startTime: rules.startTime, end: ends.end, endTime: ends.endTime
        )
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        /// `EST` (three or more letters) or `<+0545>`.
        mutating func name() -> Bool {
            if take("<") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")), close - index >= 3 else {
                    return false
                }
                index = close + 1
                return true
            }
            let start = index
            while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index] | 0x20) {
                index += 1
            }
            return index - start >= 3
        }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while index < bytes.count, digits < maxDigits,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            return digits == 0 ? nil : value
        }

        /// `[+-]hh[:mm[:ss]]` in seconds; `nil` (and nothing taken) when there is none.
        mutating func offset(maxHours: Int) -> Int? {
            let start = index
            let sign = take("-") ? -1 : 1
            if sign == 1 { _ = take("+") }
            guard let hours = number(maxDigits: 3), hours <= maxHours else {
                index = start
                return nil
            }
            var seconds = hours * 3_600
            if take(":") {
                guard let minutes = number(maxDigits: 2), minutes < 60 else {
                    index = start
                    return nil
                }
                seconds += minutes * 60
                if take(":") {
                    guard let rest = number(maxDigits: 2), rest < 60 else {
                        index = start
                        return nil
                    }
                    seconds += rest
                }
            }
            return sign * seconds
        }

        mutating func ruleDay() -> Day? {
            if take("J") {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                return .julian(n)
            }
            if take("M") {
                guard let month = number(maxDigits: 2), (1...12).contains(month), take("."),
                    let week = number(maxDigits: 1),
                    (1...5).contains(week), take("."), let weekday = number(maxDigits: 1), weekday <= 6
                else { return nil }
                return .monthWeekDay(month: month, week: week, weekday: weekday)
            }
            guard let n = number(maxDigits: 3), n <= 365 else { return nil }
            return .zeroBased(n)
        }
    }
}

/// The parts of a TZif file (RFC 8536) that give offsets: the transitions, each one's offset, and the
/// footer's rule for times after the last. Version 1 files are read from their 32-bit block.
private struct TZif {
    var transitions: [Int64] = []
    var offsets: [Int] = []
    var initialOffset = 0
    var rule: PosixRule?

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 44, bytes[0..<4].elementsEqual("TZif".utf8) else { return nil }
        let version = bytes[4]
        guard let first = Header(bytes, at: 0) else { return nil }
        var start = 44
        var header = first
        var timeSize = 4
        if version >= UInt8(ascii: "2") {
            // Skip the version 1 block; the 64-bit block and footer follow.
            start += first.blockSize(timeSize: 4)
            guard let second = Header(bytes, at: start) else { return nil }
            header = second
            start += 44
            timeSize = 8
        }
        guard bytes.count >= start + header.blockSize(timeSize: timeSize), header.typeCount > 0 else { return nil }
        func integer(_ offset: Int, _ size: Int) -> Int64 {
            var value: UInt64 = 0
            for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
            return size == 4 ? Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) : Int64(bitPattern: value)
        }
        let typesAt = start + header.transitionCount * (timeSize + 1)
        var typeOffsets: [Int] = []
        for type in 0..<header.typeCount {
            let offset = Int(integer(typesAt + 6 * type, 4))
            guard abs(offset) <= 26 * 3_600 else { return nil }
            typeOffsets.append(offset)
        }
        for index in 0..<header.transitionCount {
            let type = Int(bytes[start + header.transitionCount * timeSize + index])
            guard type < typeOffsets.count else { return nil }
            let moment = integer(start + index * timeSize, timeSize)
            guard transitions.last.map({ $0 < moment }) ?? true else { return nil }
            transitions.append(moment)
            offsets.append(typeOffsets[type])
        }
        // Before the first transition: local time type 0 (RFC 8536 §3.2).
        initialOffset = typeOffsets[0]
        if timeSize == 8 {
            let footer = start + header.blockSize(timeSize: 8)
            if footer < bytes.count, bytes[footer] == UInt8(ascii: "\n"),
                let end = bytes[(footer + 1)...].firstIndex(of: UInt8(ascii: "\n")), end > footer + 1
            {
                rule = PosixRule(String(decoding: bytes[(footer + 1)..<end], as: UTF8.self))
            }
        }
    }

    private struct Header {
        let utLocalCount, standardWallCount, leapCount, transitionCount, typeCount, characterCount: Int

        init?(_ bytes: [UInt8], at offset: Int) {
            guard bytes.count >= offset + 44, bytes[offset..<offset + 4].elementsEqual("TZif".utf8) else { return nil }
            func count(_ index: Int) -> Int {
                let at = offset + 20 + 4 * index
                return Int(
                    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
                        | UInt32(bytes[at + 3]))
            }
            (utLocalCount, standardWallCount, leapCount) = (count(0), count(1), count(2))
            (transitionCount, typeCount, characterCount) = (count(3), count(4), count(5))
            guard
                [utLocalCount, standardWallCount, leapCount, transitionCount, typeCount, characterCount].allSatisfy({
                    $0 < 1 << 20
                })
            else { return nil }
        }

        func blockSize(timeSize: Int) -> Int {
            transitionCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + standardWallCount
                + utLocalCount
        }
    }
}

extension Zone {
    /// The zone a `TZ` value names, as glibc reads it: unset, `/etc/localtime`; empty, UTC; a name
    /// (`America/New_York`, optionally after a `:`), the file of that name under `zoneinfo`; a path,
    /// that file; else a POSIX rule. A value that is none of these is UTC, with a problem to report.
    ///
    /// - Parameters:
    ///   - tz: the `TZ` variable, or `nil` when it is unset.
    ///   - zoneinfo: the zone database's folder (`TZDIR`, else `/usr/share/zoneinfo`).
    ///   - read: reads a file's bytes; `nil` when it cannot.
    public static func resolve(tz: String?, zoneinfo: String, read: (String) -> Data?) -> (zone: Zone, problem: String?)
    {
        guard let tz else {
            if let data = read("/etc/localtime"), let zone = Zone(tzif: data, name: "localtime") { return (zone, nil) }
            return (.utc, nil)
        }
        let value = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        if value.isEmpty
            || ["UTC", "UTC0", "GMT", "GMT0", "Etc/UTC", "Etc/GMT", "UCT", "Universal", "Zulu"].contains(value)
        {
            return (Zone(name: value.isEmpty ? "UTC" : value, fixedOffset: 0), nil)
        }
        let path = value.hasPrefix("/") ? value : zoneinfo + "/" + value
        if !value.split(separator: "/").contains(".."), let data = read(path), let zone = Zone(tzif: data, name: value)
        {
            return (zone, nil)
        }
        if let zone = Zone(posix: value) { return (zone, nil) }
        return (
            .utc, "TZ='\(tz)' names no time zone known here (no file \(path), and not a POSIX rule); times are in UTC"
        )
    }
}
