#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The rows of a Kobo's `KoboReader.sqlite` that bookclub reads, and what they mean: the books on
/// the device, their progress and status, their highlights and notes, and the days they were read.
///
/// - `content` rows of `ContentType` 6 are books; one is skipped when it is a Pocket article, a
///   preview (`Accessibility` 6) or a recommendation (4), on the wishlist, expired
///   (`___ExpirationStatus` 3), not downloaded (`IsDownloaded`), or a store book of no account
///   (`___UserID` empty). Rows of `ContentType` 899 name the chapters.
/// - `___PercentRead` (0 to 100) is the progress, dated `DateLastRead`; `ReadStatus` 2 is finished.
/// - `Bookmark` rows are highlights (`Text`, the passage) with the reader's `Annotation` as the note;
///   a `dogear`, or a row of neither, is a page bookmark, skipped.
/// - `Event` rows of types 1020 and 1021 hold, in `ExtraData`, the times a book was opened and left
///   (a `QDataStream` map, `eventTimestamps`): each opening and the leaving after it is a session.
///
/// Kobo writes its times in UTC: `2024-09-01T20:55:40Z`, or `2025-02-04T17:16:33.795` with no zone.
public enum KoboLibrary {
    /// A cell as `sqlite3 -json` prints it: text, a number, or null, whatever the column's type.
    public enum Cell: Decodable, Equatable, Sendable {
        case null
        case number(Double)
        case text(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let flag = try? container.decode(Bool.self) {
                self = .number(flag ? 1 : 0)
            } else {
                self = .null
            }
        }

        public var text: String? {
            switch self {
            case .text(let text): text
            case .number(let number):
                number.isFinite && number.rounded() == number && abs(number) < 1e15
                    ? String(Int64(number)) : String(number)
            case .null: nil
            }
        }

        public var number: Double? {
            switch self {
            case .number(let number): number.isFinite ? number : nil
            case .text(let text): Double(text.trimmed).flatMap { $0.isFinite ? $0 : nil }
            case .null: nil
            }
        }

        /// `true`/`false` as Kobo writes them (`true`, `TRUE`, `1`).
        public var flag: Bool? {
            switch self {
            case .number(let number): number != 0
            case .text(let text):
                switch text.trimmed.lowercased() {
                case "true", "1": true
                case "false", "0": false
                default: nil
                }
            case .null: nil
            }
        }
    }

    public typealias Row = [String: Cell]

    /// A column selected, by its name in the table and the name it is given in a row.
    public struct Column: Sendable {
        public var name: String
        public var alias: String
        /// A required column missing refuses the file; another is selected as `NULL`.
        public var required = false
        /// Selected as `hex(…)`, at most `KoboImport.largestExtraData` bytes of it (else `NULL`).
        public var blob = false
    }

    /// The columns of `content` read for a book.
    public static let bookColumns: [Column] = [
        Column(name: "ContentID", alias: "id", required: true),
        Column(name: "ContentType", alias: "kind", required: true),
        Column(name: "Title", alias: "title", required: true),
        Column(name: "Attribution", alias: "authors"),
        Column(name: "ISBN", alias: "isbn"),
        Column(name: "Series", alias: "series"),
        Column(name: "SeriesNumber", alias: "seriesNumber"),
        Column(name: "MimeType", alias: "mimeType"),
        Column(name: "___PercentRead", alias: "percentRead"),
        Column(name: "DateLastRead", alias: "lastRead"),
        Column(name: "ReadStatus", alias: "readStatus"),
        Column(name: "LastTimeFinishedReading", alias: "finished"),
        Column(name: "IsDownloaded", alias: "downloaded"),
        Column(name: "Accessibility", alias: "accessibility"),
        Column(name: "InWishlist", alias: "wishlist"),
        Column(name: "___ExpirationStatus", alias: "expiration"),
        Column(name: "___UserID", alias: "owner"),
        Column(name: "TimeSpentReading", alias: "timeSpent"),
    ]

    /// The columns of `content` read for a chapter.
    public static let chapterColumns: [Column] = [
        Column(name: "ContentID", alias: "id", required: true),
        Column(name: "Title", alias: "title", required: true),
        Column(name: "VolumeIndex", alias: "position"),
    ]

    /// The columns of `Bookmark`.
    public static let bookmarkColumns: [Column] = [
        Column(name: "BookmarkID", alias: "id", required: true),
        Column(name: "VolumeID", alias: "book", required: true),
        Column(name: "ContentID", alias: "part"),
        Column(name: "Text", alias: "text", required: true),
        Column(name: "Annotation", alias: "note"),
        Column(name: "Type", alias: "type"),
        Column(name: "Hidden", alias: "hidden"),
        Column(name: "DateCreated", alias: "created"),
    ]

    /// The columns of `Event`.
    public static let eventColumns: [Column] = [
        Column(name: "EventType", alias: "type", required: true),
        Column(name: "ContentID", alias: "book", required: true),
        Column(name: "ExtraData", alias: "data", required: true, blob: true),
    ]

    /// Kobo's events of opening a book and of leaving it.
    public static let openedEvent = 1020
    public static let leftEvent = 1021
    /// A longer session is a book left open, and is not counted.
    public static let longestSession = 12.0 * 3600
    /// Sessions may add up to this many seconds more than `TimeSpentReading` says; past that, each
    /// day's minutes are scaled down to it.
    public static let sessionSlack = 300.0

    /// The books of the rows, with their highlights, progress and sessions; each book passed over is
    /// in `skipped`, each row that could not be read in `problems`.
    ///
    /// - Parameters:
    ///   - origin: how messages name the file.
    ///   - timeZone: the reader's, for the days of sessions.
    public static func read(
        books rows: [Row], chapters: [Row], bookmarks: [Row], events: [Row], origin: String, timeZone: Zone
    ) -> ReaderImport {
        var imported = ReaderImport(source: .kobo)
        var indexByID: [String: Int] = [:]
        var timeSpent: [Double] = []
        for row in rows {
            guard let id = row["id"]?.text, !id.isEmpty else { continue }
            guard let title = row["title"]?.text?.trimmed.nonBlank else {
                imported.skipped.append(.init(place: origin + ": " + id, reason: "no title"))
                continue
            }
            if let reason = skipReason(row, id: id) {
                imported.skipped.append(.init(place: "'\(title)'", reason: reason))
                continue
            }
            guard indexByID[id] == nil else { continue }
            var book = ReaderImport.Book(
                title: title, author: row["authors"]?.text.flatMap(authors),
                isbn: row["isbn"]?.text.flatMap { ISBN($0.trimmed)?.thirteen }, externalID: id, origin: origin)
            if let series = row["series"]?.text?.trimmed.nonBlank {
                book.details["kobo:Series"] = [
                    series + (row["seriesNumber"]?.text?.trimmed.nonBlank.map { " #" + $0 } ?? "")
                ]
            }
            let lastRead = row["lastRead"]?.text.flatMap(time(from:))
            let status = row["readStatus"]?.number
            if status == 2 {
                book.finished = row["finished"]?.text.flatMap(time(from:)) ?? lastRead
            } else if let percent = row["percentRead"]?.number {
                if !(0...100).contains(percent) {
                    imported.problems.append(
                        .init(place: "'\(title)'", reason: "a percent read of \(percent), not 0 to 100; no progress"))
                } else if let lastRead, percent > 0 || status == 1 {
                    book.progress = ReaderImport.Progress(fraction: percent / 100, time: lastRead)
                }
            }
            indexByID[id] = imported.books.count
            imported.books.append(book)
            timeSpent.append(row["timeSpent"]?.number ?? 0)
        }

        // Chapters: `<part>-<n>` rows of the part a highlight is in; the first of a part names it.
        var chapterByPart: [String: (position: Double, title: String)] = [:]
        for row in chapters {
            guard let id = row["id"]?.text, let title = row["title"]?.text?.trimmed.nonBlank,
                let dash = id.lastIndex(of: "-"), id[id.index(after: dash)...].allSatisfy(\.isASCII),
                id[id.index(after: dash)...].allSatisfy(\.isNumber)
            else { continue }
            let part = String(id[..<dash])
            let position = row["position"]?.number ?? .infinity
            if let held = chapterByPart[part], held.position <= position { continue }
            chapterByPart[part] = (position, title)
        }

        for row in bookmarks {
            guard let book = row["book"]?.text, let index = indexByID[book], let id = row["id"]?.text else {
                continue
            }
            if row["hidden"]?.flag == true { continue }
            let text = row["text"]?.text?.trimmed ?? ""
            let note = row["note"]?.text?.trimmed.nonBlank
            if row["type"]?.text == "dogear" || (text.isEmpty && note == nil) {
                imported.bookmarks += 1
                continue
            }
            if note != nil { imported.notesAttached += 1 }
            imported.books[index].highlights.append(
                Highlight(
                    id: "kobo-" + ReaderImport.digest(book, id), text: text, note: note,
                    chapter: row["part"]?.text.flatMap { chapterByPart[$0]?.title },
                    time: row["created"]?.text.flatMap(time(from:)), source: .kobo))
        }
        for index in imported.books.indices {
            imported.books[index].highlights.sort { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }
        }

        // Sessions: the openings and leavings of each book.
        var times: [Int: (opened: [Date], left: [Date])] = [:]
        for row in events {
            guard let book = row["book"]?.text, let index = indexByID[book],
                let type = row["type"]?.number, type == Double(openedEvent) || type == Double(leftEvent)
            else { continue }
            let place = "'\(imported.books[index].title)', event \(Int(type))"
            guard let hex = row["data"]?.text else {
                imported.problems.append(.init(place: place, reason: "its reading times are missing or too large"))
                continue
            }
            do throws(QtDataStream.Failure) {
                let found = try timestamps(hex)
                if type == Double(openedEvent) {
                    times[index, default: ([], [])].opened += found
                } else {
                    times[index, default: ([], [])].left += found
                }
            } catch {
                imported.problems.append(
                    .init(
                        place: place,
                        reason:
                            "its reading times are not a Qt stream bookclub reads (at byte \(error.offset): \(error.reason))"
                    ))
            }
        }
        for (index, (opened, left)) in times {
            let key = imported.books[index].externalID ?? imported.books[index].title
            imported.books[index].sessions = sessions(
                opened: opened, left: left, key: key, timeSpent: timeSpent[index], timeZone: timeZone)
        }
        return imported
    }

    /// Why a `content` row of a book is passed over, or `nil` for a book on the device.
    static func skipReason(_ row: Row, id: String) -> String? {
        let mimeType = row["mimeType"]?.text?.lowercased() ?? ""
        if mimeType.contains("pocket") { return "a Pocket article" }
        switch row["accessibility"]?.number {
        case 6: return "a preview"
        case 4: return "a recommendation"
        default: break
        }
        if row["wishlist"]?.flag == true { return "on the wishlist" }
        if row["expiration"]?.number == 3 { return "expired" }
        if row["downloaded"]?.flag == false { return "not downloaded to the device" }
        if !id.hasPrefix("file://"), case .text(let owner)? = row["owner"], owner.trimmed.isEmpty {
            return "of no account on the device"
        }
        return nil
    }

    /// Kobo's `Attribution`, `Ann,Bo` or `Ann, Bo`, as bookclub writes several: `Ann, Bo`; `Unknown`
    /// is none.
    static func authors(_ text: String) -> String? {
        text.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty && $0 != "Unknown" }
            .joined(separator: ", ").nonBlank
    }

    /// The times of an event's `ExtraData`, given as `hex(ExtraData)`: its `eventTimestamps`, in
    /// seconds since 1970 (numbers, or dates and times).
    static func timestamps(_ hex: String) throws(QtDataStream.Failure) -> [Date] {
        guard !hex.isEmpty else { return [] }
        guard let bytes = QtDataStream.bytes(hex: hex) else {
            throw QtDataStream.Failure(offset: 0, reason: "not hexadecimal")
        }
        let map = try QtDataStream.map(bytes)
        guard case .list(let items)? = map["eventTimestamps"] else { return [] }
        return items.compactMap { item in
            if case .dateTime(let date) = item { return date }
            // From 2000 to 2100: anything else is no time of reading.
            guard let seconds = item.integer, (946_684_800...4_102_444_800).contains(seconds) else { return nil }
            return Date(timeIntervalSince1970: Double(seconds))
        }
    }

    /// The days of reading of a book: each opening and the first leaving after it (before the next
    /// opening) is a session, at most `longestSession` long; their minutes are summed by day, in
    /// the reader's zone, as KOReader's statistics are. When the sessions add up to more than
    /// `timeSpent` (the device's own total, when it keeps one) and `sessionSlack`, each day is
    /// scaled down to it.
    static func sessions(opened: [Date], left: [Date], key: String, timeSpent: Double, timeZone: Zone)
        -> [ReaderImport.Session]
    {
        let opened = opened.sorted()
        let left = left.sorted()
        var seconds: [Int: Double] = [:]
        var next = 0
        for (index, start) in opened.enumerated() {
            let following = index + 1 < opened.count ? opened[index + 1] : .distantFuture
            while next < left.count, left[next] < start { next += 1 }
            guard next < left.count, left[next] <= following else { continue }
            let length = left[next].timeIntervalSince(start)
            next += 1
            guard length > 0, length <= longestSession else { continue }
            seconds[timeZone.day(of: start), default: 0] += length
        }
        let total = seconds.values.reduce(0, +)
        let scale = timeSpent > 0 && total > timeSpent + sessionSlack ? timeSpent / total : 1
        return seconds.sorted { $0.key < $1.key }.compactMap { day, spent in
            let minutes = Int((spent * scale / 60).rounded())
            guard minutes > 0 else { return nil }
            let civil = LocalDateTime.civil(fromDays: day)
            return ReaderImport.Session(
                id: ReaderImport.uuid("kobo", key, "day \(day)"),
                time: timeZone.date(
                    from: LocalDateTime(year: civil.year, month: civil.month, day: civil.day, hour: 12)),
                fraction: nil, minutes: min(minutes, 1440))
        }
    }

    /// A time as Kobo writes it, in UTC unless it says otherwise: `2024-09-01T20:55:40Z`,
    /// `2025-02-04T17:16:33.795`, `2013-05-15 12:34:56.000+00:00`; `nil` for anything else.
    static func time(from text: String) -> Date? {
        let characters = Array(text.trimmed.utf8)
        guard characters.count >= 19, characters.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in characters[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
            characters[10] == UInt8(ascii: "T") || characters[10] == UInt8(ascii: " "),
            characters[13] == UInt8(ascii: ":"), characters[16] == UInt8(ascii: ":")
        else { return nil }
        var rest = characters[19...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst().drop { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        var offset = 0
        if rest.elementsEqual("Z".utf8) || rest.isEmpty {
            offset = 0
        } else if rest.count == 6, let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            let hours = number(rest.startIndex + 1..<rest.startIndex + 3),
            let minutes = number(rest.startIndex + 4..<rest.startIndex + 6), hours < 15, minutes < 60
        {
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard (1970...2200).contains(year), local.isValid, hour < 24, minute < 60, second < 61 else { return nil }
        return Zone.utc.date(from: local).addingTimeInterval(Double(-offset))
    }
}
