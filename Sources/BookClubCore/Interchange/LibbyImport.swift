#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Libby's exports, read as an e-reader's file is (`ReaderImport`): the timeline of loans and holds
/// (`libbytimeline-activities.json`, or its `.csv`), and one title's reading journey (JSON).
///
/// - A borrow starts a reading (at its time); a return ends the loan, not the book, since Libby never
///   says a book was finished; a renewal starts nothing. A hold makes a book not yet started.
/// - The loans stay in the book's `details`: `libby:borrowed` and `libby:returned` (days),
///   `libby:library`, `libby:format` (`ebook`, `audiobook`), and `libby:id` (Libby's title id, by
///   which a later export finds the book again).
/// - An audiobook's ISBN names the audio edition: it is kept as `libby:isbn`, and the book is matched
///   by title and author. Its author field may name the narrator after a comma: the first name is the
///   author.
/// - A journey brings how far the title was read (`percent`, a fraction), its highlights with their
///   notes, and its bookmarks that carry a note; a bookmark without one is counted and skipped.
///
/// The timeline JSON is `{"version":1,"timeline":[…]}`, newest first; each activity has
/// `title{text,titleId}`, `author`, `publisher`, `isbn`, `cover{format}`, `timestamp` (milliseconds),
/// `activity` and `details`, `library{text}`. The CSV has the columns `cover, title, author,
/// publisher, isbn, timestamp, activity, details, library`, with local times such as
/// `February 28, 2024 00:47`. A journey is `{"version":1,"readingJourney":{title, author, isbn,
/// cover{format}, percent},"circulation":[activities],"highlights":[{timestamp, chapter, percent,
/// quote, note}],"bookmarks":[{timestamp, chapter, percent, note}]}`.
public enum LibbyImport {
    /// The most activities, highlights or bookmarks read from one file.
    static let mostItems = 200_000

    /// Reads a file; a file that is none of Libby's is refused.
    /// - Throws: `BookClubError.badImport`.
    public static func read(_ data: Data, path: String, timeZone: Zone) throws -> ReaderImport {
        var reader = Reader(origin: path)
        let start = data.firstIndex {
            !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
        }
        if let start, data[start] == UInt8(ascii: "{") {
            try reader.readJSON(data, path: path)
        } else {
            try reader.readCSV(data, path: path, timeZone: timeZone)
        }
        guard !reader.titles.isEmpty else {
            throw BookClubError.badImport(
                path: path, line: nil,
                detail: "no Libby activity in it"
                    + (reader.imported.problems.first.map { " (\($0.place): \($0.reason))" } ?? "")
                    + "; export it from Libby's timeline, or a title's reading journey")
        }
        return reader.finish()
    }

    /// What the file says of one title.
    struct Title {
        var book: ReaderImport.Book
        var format: String?
        var isbn: String?
        var borrowed: [Date] = []
        var returned: [Date] = []
        var libraries: [String] = []
    }

    struct Activity {
        var titleID: String?
        var title: String?
        var author: String?
        var isbn: String?
        var format: String?
        var time: Date?
        var activity: String?
        var library: String?
    }

    struct Reader {
        var imported = ReaderImport(source: .libby)
        var titles: [String: Title] = [:]
        var order: [String] = []
        let origin: String

        init(origin: String) { self.origin = origin }

        mutating func add(_ activity: Activity, place: String) {
            guard let title = activity.title?.trimmed.nonBlank, title.count <= 1000 else {
                imported.problems.append(.init(place: place, reason: "an activity without a title"))
                return
            }
            guard let time = activity.time else {
                imported.problems.append(.init(place: place, reason: "an activity without a time bookclub reads"))
                return
            }
            let format = activity.format?.lowercased().trimmed.nonBlank
            let isAudio = format == "audiobook"
            // An audiobook's author field may name its narrator after a comma.
            let author = activity.author?.trimmed.nonBlank.map {
                isAudio ? String($0.split(separator: ",").first ?? Substring($0)).trimmed : $0
            }
            let key =
                activity.titleID?.trimmed.nonBlank.map { "id " + $0 } ?? "title " + title.lowercased() + "\n"
                + (author ?? "").lowercased()
            if titles[key] == nil {
                let isbn = activity.isbn.flatMap(ISBN.init)?.digits
                var book = ReaderImport.Book(
                    title: title, author: author, isbn: isAudio ? nil : isbn,
                    externalID: activity.titleID?.trimmed.nonBlank, origin: place)
                book.details = [:]
                titles[key] = Title(book: book, format: format, isbn: isbn)
                order.append(key)
            }
            if let format, titles[key]?.format == nil { titles[key]?.format = format }
            if let library = activity.library?.trimmed.nonBlank, !(titles[key]?.libraries.contains(library) ?? true) {
                titles[key]?.libraries.append(library)
            }
            switch activity.activity?.lowercased().trimmed {
            case "borrowed", "borrow": titles[key]?.borrowed.append(time)
            case "returned", "return": titles[key]?.returned.append(time)
            default: break  // renewals, holds and the rest start nothing
            }
        }

        mutating func readJSON(_ data: Data, path: String) throws {
            guard JSONCoding.isShallow(data) else {
                throw BookClubError.badImport(path: path, line: nil, detail: "JSON nested too deeply")
            }
            let document: Document
            do {
                document = try JSONDecoder().decode(Document.self, from: data)
            } catch {
                throw BookClubError.badImport(path: path, line: nil, detail: "not JSON that Libby writes")
            }
            let activities = (document.timeline ?? []) + (document.circulation ?? [])
            guard activities.count + (document.highlights?.count ?? 0) <= LibbyImport.mostItems else {
                throw BookClubError.badImport(
                    path: path, line: nil, detail: "more than \(LibbyImport.mostItems) activities")
            }
            if let journey = document.readingJourney {
                var activity = journey.activity
                activity.activity = "journey"
                activity.time =
                    ([journey.activity.time] + activities.map(\.activity.time)
                    + (document.highlights ?? []).map(\.time) + (document.bookmarks ?? []).map(\.time)).compactMap {
                        $0
                    }
                    .max()
                add(activity, place: path)
                guard let key = order.last else { return }
                if let percent = journey.percent, percent.isFinite, (0...1).contains(percent), let time = activity.time
                {
                    titles[key]?.book.progress = ReaderImport.Progress(fraction: percent, time: time)
                }
                // The circulation is of the journey's title, whatever each entry names.
                for (index, entry) in activities.enumerated() {
                    var entry = entry.activity
                    (entry.titleID, entry.title, entry.author) = (
                        activity.titleID, activity.title, journey.activity.author
                    )
                    (entry.isbn, entry.format) = (activity.isbn, activity.format)
                    add(entry, place: "circulation \(index + 1)")
                }
                let id = activity.titleID ?? activity.title ?? ""
                for (index, mark) in (document.highlights ?? []).enumerated() {
                    guard let quote = mark.quote?.trimmed.nonBlank, quote.count <= 100_000 else {
                        imported.problems.append(.init(place: "highlight \(index + 1)", reason: "no passage"))
                        continue
                    }
                    titles[key]?.book.highlights.append(mark.highlight(text: quote, id: id))
                }
                for mark in document.bookmarks ?? [] {
                    guard mark.note?.trimmed.nonBlank != nil else {
                        imported.bookmarks += 1
                        continue
                    }
                    titles[key]?.book.highlights.append(mark.highlight(text: "", id: id))
                }
            } else {
                guard document.timeline != nil else {
                    throw BookClubError.badImport(
                        path: path, line: nil, detail: "neither a Libby timeline nor a reading journey")
                }
                for (index, activity) in activities.enumerated() {
                    add(activity.activity, place: "activity \(index + 1)")
                }
            }
        }

        mutating func readCSV(_ data: Data, path: String, timeZone: Zone) throws {
            let table = try CSVTable(parsing: data, path: path) { header in
                let names = Set(header.map { $0.lowercased().trimmed })
                guard names.isSuperset(of: ["title", "timestamp", "activity"]) else {
                    throw BookClubError.badImport(
                        path: path, line: 1,
                        detail: "not a Libby timeline (its columns are not title, timestamp, activity…)")
                }
            }
            guard table.rows.count <= LibbyImport.mostItems else {
                throw BookClubError.badImport(
                    path: path, line: nil, detail: "more than \(LibbyImport.mostItems) activities")
            }
            let header = table.header.map { $0.lowercased().trimmed }
            func column(_ name: String) -> Int? { header.firstIndex(of: name) }
            for row in table.rows {
                func field(_ name: String) -> String? {
                    column(name).flatMap { $0 < row.fields.count ? row.fields[$0].nonBlank : nil }
                }
                add(
                    Activity(
                        titleID: nil, title: field("title"), author: field("author"), isbn: field("isbn"),
                        format: field("format"),
                        time: field("timestamp").flatMap { LibbyImport.localTime($0, timeZone) },
                        activity: field("activity"), library: field("library")),
                    place: "line \(row.line)")
            }
        }

        /// The books, in the file's order (oldest activity first for the timeline, which Libby writes
        /// newest first), each with its loans in its details.
        mutating func finish() -> ReaderImport {
            for key in order {
                guard var title = titles[key] else { continue }
                let days = { (dates: [Date]) in dates.sorted().map { LibbyImport.isoDay($0) } }
                var details: [String: [String]] = [:]
                if let format = title.format { details["libby:format"] = [format] }
                if title.format == "audiobook", let isbn = title.isbn { details["libby:isbn"] = [isbn] }
                if !title.borrowed.isEmpty { details["libby:borrowed"] = days(title.borrowed) }
                if !title.returned.isEmpty { details["libby:returned"] = days(title.returned) }
                if !title.libraries.isEmpty { details["libby:library"] = title.libraries }
                title.book.details = details
                title.book.format = title.format.flatMap(BookClubCore.Book.Format.init(rawValue:))
                title.book.started = title.borrowed.sorted()
                imported.books.append(title.book)
            }
            imported.books.reverse()
            return imported
        }
    }

    /// "February 28, 2024 00:47" (or with seconds, or a 12-hour clock), in the reader's zone.
    static func localTime(_ text: String, _ timeZone: Zone) -> Date? {
        let months = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        let words = text.lowercased().replacing(",", with: " ").split(whereSeparator: \.isWhitespace)
        guard words.count >= 3, let month = months.firstIndex(where: { $0.hasPrefix(words[0]) && words[0].count >= 3 }),
            let day = Int(words[1]), (1...31).contains(day), let year = Int(words[2]), (1900...2200).contains(year)
        else { return nil }
        var (hour, minute, second) = (12, 0, 0)
        if words.count >= 4 {
            let clock = words[3].split(separator: ":").map { Int($0) }
            guard clock.count >= 2, clock.count <= 3, let h = clock[0], let m = clock[1], (0...23).contains(h),
                (0...59).contains(m)
            else { return nil }
            (hour, minute, second) = (h, m, clock.count == 3 ? (clock[2] ?? 0) : 0)
            if words.count >= 5 {
                switch words[4] {
                case "pm" where hour < 12: hour += 12
                case "am" where hour == 12: hour = 0
                default: break
                }
            }
        }
        return timeZone.date(
            from: LocalDateTime(
                year: year, month: month + 1, day: day, hour: hour, minute: minute, second: min(second, 59)))
    }

    static func isoDay(_ date: Date) -> String {
        LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))).isoDay
    }

    // MARK: The JSON, every field read leniently: a field of the wrong type is as if absent.

    struct Document: Decodable {
        var timeline: [LenientActivity]?
        var readingJourney: Journey?
        var circulation: [LenientActivity]?
        var highlights: [Mark]?
        var bookmarks: [Mark]?

        enum CodingKeys: String, CodingKey { case timeline, readingJourney, circulation, highlights, bookmarks }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            timeline = try? c.decodeIfPresent([LenientActivity].self, forKey: .timeline)
            readingJourney = try? c.decodeIfPresent(Journey.self, forKey: .readingJourney)
            circulation = try? c.decodeIfPresent([LenientActivity].self, forKey: .circulation)
            highlights = try? c.decodeIfPresent([Mark].self, forKey: .highlights)
            bookmarks = try? c.decodeIfPresent([Mark].self, forKey: .bookmarks)
        }
    }

    struct LenientActivity: Decodable {
        var activity: Activity

        enum CodingKeys: String, CodingKey { case title, author, isbn, cover, timestamp, activity, library }
        struct Named: Decodable {
            var text: String?
            var titleId: String?
            var format: String?

            enum CodingKeys: String, CodingKey { case text, titleId, format }

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                text = try? c.decodeIfPresent(String.self, forKey: .text)
                titleId =
                    (try? c.decodeIfPresent(String.self, forKey: .titleId))
                    ?? (try? c.decodeIfPresent(Int64.self, forKey: .titleId)).flatMap { $0.map(String.init) }
                format = try? c.decodeIfPresent(String.self, forKey: .format)
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let title = try? c.decodeIfPresent(Named.self, forKey: .title)
            let titleText = title?.text ?? (try? c.decodeIfPresent(String.self, forKey: .title)) ?? nil
            let milliseconds = (try? c.decodeIfPresent(Double.self, forKey: .timestamp)) ?? nil
            let library = try? c.decodeIfPresent(Named.self, forKey: .library)
            activity = Activity(
                titleID: title?.titleId, title: titleText,
                author: (try? c.decodeIfPresent(String.self, forKey: .author)) ?? nil,
                isbn: (try? c.decodeIfPresent(String.self, forKey: .isbn)) ?? nil,
                format: (try? c.decodeIfPresent(Named.self, forKey: .cover))?.format,
                time: milliseconds.flatMap {
                    $0.isFinite && abs($0) < 1e14 ? Date(timeIntervalSince1970: $0 / 1000) : nil
                },
                activity: (try? c.decodeIfPresent(String.self, forKey: .activity)) ?? nil,
                library: library?.text ?? (try? c.decodeIfPresent(String.self, forKey: .library)) ?? nil)
        }
    }

    struct Journey: Decodable {
        var activity: Activity
        var percent: Double?

        enum CodingKeys: String, CodingKey { case percent }

        init(from decoder: any Decoder) throws {
            activity = try LenientActivity(from: decoder).activity
            let c = try decoder.container(keyedBy: CodingKeys.self)
            percent = (try? c.decodeIfPresent(Double.self, forKey: .percent)) ?? nil
        }
    }

    struct Mark: Decodable {
        var time: Date?
        var chapter: String?
        var percent: Double?
        var quote: String?
        var note: String?

        enum CodingKeys: String, CodingKey { case timestamp, chapter, percent, quote, note }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let milliseconds = (try? c.decodeIfPresent(Double.self, forKey: .timestamp)) ?? nil
            time = milliseconds.flatMap { $0.isFinite && abs($0) < 1e14 ? Date(timeIntervalSince1970: $0 / 1000) : nil }
            chapter = (try? c.decodeIfPresent(String.self, forKey: .chapter)) ?? nil
            percent = (try? c.decodeIfPresent(Double.self, forKey: .percent)) ?? nil
            quote = (try? c.decodeIfPresent(String.self, forKey: .quote)) ?? nil
            note = (try? c.decodeIfPresent(String.self, forKey: .note)) ?? nil
        }

        /// The highlight, its id derived from the title, when it was made and its passage.
        func highlight(text: String, id title: String) -> Highlight {
            let when = time.map { String(Int64($0.timeIntervalSince1970 * 1000)) } ?? ""
            let place = percent.flatMap { $0.isFinite && (0...1).contains($0) ? "\(Int(($0 * 100).rounded())) %" : nil }
            return Highlight(
                id: "libby-" + ReaderImport.digest(title, when, text), text: text,
                note: note?.trimmed.nonBlank.map { String($0.prefix(100_000)) },
                chapter: chapter?.trimmed.nonBlank.map { String($0.prefix(1000)) } ?? place, time: time, source: .libby)
        }
    }
}
