#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// KOReader's reading statistics, `statistics.sqlite3`, as the `sqlite3` program prints the rows of
/// `query` with `-json`: each book's pages read, when and for how long. A day of a book becomes a
/// reading session: a progress entry at the page reached that day, with the minutes read.
public enum KOReaderStatistics {
    /// The rows, oldest first: one a page turned.
    public static let query = """
        SELECT book.title AS title, book.authors AS authors, book.md5 AS md5, page_stat_data.page AS page, \
        page_stat_data.start_time AS start, page_stat_data.duration AS duration, \
        page_stat_data.total_pages AS pages FROM page_stat_data JOIN book ON book.id = page_stat_data.id_book \
        ORDER BY page_stat_data.start_time
        """

    struct Row: Decodable {
        var title: String?
        var authors: String?
        var md5: String?
        var page: Double?
        var start: Double?
        var duration: Double?
        var pages: Double?
    }

    /// The books of the statistics with their sessions, a day each in the reader's time zone.
    static func read(_ json: Data, origin: String, timeZone: Zone) throws(ReaderImport.Problem)
        -> [ReaderImport.Book]
    {
        // sqlite3 prints nothing at all for no rows.
        guard json.contains(where: { !$0.isWhitespaceByte }) else { return [] }
        let rows: [Row]
        do {
            rows = try JSONDecoder().decode([Row].self, from: json)
        } catch {
            throw ReaderImport.Problem(place: origin, reason: "sqlite3 printed rows bookclub cannot read")
        }
        return books(rows, origin: origin, timeZone: timeZone)
    }

    /// The books of the rows `query` selects, with their sessions.
    static func books(_ rows: [Row], origin: String, timeZone: Zone) -> [ReaderImport.Book] {
        var books: [ReaderImport.Book] = []
        var bookIndex: [String: Int] = [:]
        // By book and day: the minutes, and the furthest page of the pages then.
        var days: [Int: [Int: (seconds: Double, page: Double, pages: Double)]] = [:]
        for row in rows {
            guard let title = row.title?.trimmed.nonBlank, let start = row.start, start.isFinite,
                abs(start) < 1e11, let duration = row.duration, duration.isFinite, duration >= 0
            else { continue }
            let author = row.authors.flatMap(KOReaderSidecar.authors)
            let md5 = row.md5.flatMap(KOReaderSidecar.checksum)
            let key = md5 ?? title.lowercased() + "\n" + (author ?? "").lowercased()
            let index =
                bookIndex[key]
                ?? {
                    books.append(ReaderImport.Book(title: title, author: author, externalID: md5, origin: origin))
                    bookIndex[key] = books.count - 1
                    return books.count - 1
                }()
            let day = timeZone.day(of: Date(timeIntervalSince1970: start))
            var spent = days[index, default: [:]][day] ?? (0, 0, 0)
            spent.seconds += min(duration, 86_400)
            if let page = row.page, let pages = row.pages, page.isFinite, pages.isFinite, pages > 0,
                page / pages >= spent.page / max(spent.pages, 1)
            {
                (spent.page, spent.pages) = (min(page, pages), pages)
            }
            days[index, default: [:]][day] = spent
        }
        for (index, byDay) in days {
            let key = books[index].externalID ?? books[index].title + "\n" + (books[index].author ?? "")
            for (day, spent) in byDay.sorted(by: { $0.key < $1.key }) {
                let civil = LocalDateTime.civil(fromDays: day)
                let noon = timeZone.date(
                    from: LocalDateTime(year: civil.year, month: civil.month, day: civil.day, hour: 12))
                let minutes = Int((spent.seconds / 60).rounded())
                guard minutes > 0 else { continue }
                books[index].sessions.append(
                    ReaderImport.Session(
                        id: ReaderImport.uuid(key, "day \(day)"), time: noon,
                        fraction: spent.pages > 0 ? min(max(spent.page / spent.pages, 0), 1) : nil,
                        minutes: min(minutes, 1440)))
            }
        }
        return books
    }
}

extension UInt8 {
    fileprivate var isWhitespaceByte: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
