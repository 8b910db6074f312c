#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The library as a Goodreads library export (its 24 columns, by their names), which other reading
/// trackers import, and after them a `bookclub` column holding the whole book as JSON: what the 24
/// cannot hold (abandon dates, every reading and entry, notes, ratings of each reading). Readers of
/// Goodreads' shape ignore it; `bookclub import goodreads` reads it, so a CSV export comes back whole.
public enum GoodreadsCSV {
    /// The column after Goodreads' own that holds the book as bookclub keeps it.
    public static let bookColumn = "bookclub"

    public static let columns = goodreadsColumns + [bookColumn]

    static let goodreadsColumns = [
        "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
        "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year",
        "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review",
        "Spoiler", "Private Notes", "Read Count", "Owned Copies",
    ]

    /// The exclusive shelf Goodreads would put a book on; abandoned books go on `did-not-finish`.
    public static func shelf(_ status: Book.Status) -> String {
        switch status {
        case .unstarted: "to-read"
        case .reading: "currently-reading"
        case .finished: "read"
        case .abandoned: "did-not-finish"
        }
    }

    /// The header and one row a book, lines ending in LF; dates as `YYYY/MM/DD` in `timeZone`.
    public static func render(_ library: Library, timeZone: Zone) -> String {
        var text = Text(timeZone: timeZone)
        var whole = Data()
        for book in library.books { whole += text.add(book) ?? Data() }
        return String(decoding: whole + text.end(), as: UTF8.self)
    }

    /// The same document a book at a time, for a library too large to hold with every entry.
    public struct Text {
        private let timeZone: Zone
        private var bytes: [UInt8]

        public init(timeZone: Zone) {
            self.timeZone = timeZone
            bytes = Array((columns.joined(separator: ",") + "\n").utf8)
        }

        /// Adds a book's row, its full history in the last column; returns the text so far once it has
        /// grown past 64 KiB.
        public mutating func add(_ book: Book) -> Data? {
            for field in fields(book) {
                GoodreadsCSV.append(field.utf8, to: &bytes)
                bytes.append(UInt8(ascii: ","))
            }
            // Written as JSONEncoder writes it (its keys sorted), by hand: JSONEncoder takes ten times as long.
            var writer = JSONWriter(compact: true)
            writer.book(book)
            GoodreadsCSV.append(writer.bytes, to: &bytes)
            bytes.append(0x0A)
            return bytes.count > 1 << 16 ? end() : nil
        }

        /// The text not yet returned.
        public mutating func end() -> Data {
            defer { bytes.removeAll(keepingCapacity: true) }
            return Data(bytes)
        }

        /// Goodreads' 24 columns.
        private func fields(_ book: Book) -> [String] {
            let finished = book.readings.filter(\.isFinished)
            let isbn = book.isbn.map { $0.filter { $0.isNumber || $0 == "X" || $0 == "x" } } ?? ""
            let shelf = shelf(book.status)
            let shelves = [shelf] + book.tags
            let dateRead = finished.last?.ending?.date.map { day($0, timeZone) } ?? ""
            let rating = book.currentRating.map { String(Int($0.rounded())) } ?? "0"
            let isbn10 = isbn.count == 10 ? isbn : ""
            let isbn13 = isbn.count == 13 ? isbn : ""
            let additional = (book.contributors ?? []).map(\.name).joined(separator: ", ")
            var fields: [String] = [
                book.id, book.title, book.author ?? "", book.author.map(lastFirst) ?? "", additional,
            ]
            // Binding: what Goodreads writes for the format, so that another site reads it back.
            let binding =
                switch book.format {
                case .audiobook?: "Audiobook"
                case .ebook?: "ebook"
                case .print?: "Paperback"
                case nil: ""
                }
            fields += [
                "=\"\(isbn10)\"", "=\"\(isbn13)\"", rating, "", "", binding, book.pages.map(String.init) ?? "", "", "",
            ]
            fields += [dateRead, day(book.added, timeZone), shelves.joined(separator: ", ")]
            fields += [shelves.map { "\($0) (#1)" }.joined(separator: ", "), shelf, book.currentReview ?? "", ""]
            fields += [book.privateNotes ?? "", String(finished.count), "0"]
            return fields
        }
    }

    /// "Frank Herbert" → "Herbert, Frank", as Goodreads' `Author l-f`.
    static func lastFirst(_ name: String) -> String {
        let words = name.split(separator: " ")
        guard words.count > 1 else { return name }
        return "\(words.last!), \(words.dropLast().joined(separator: " "))"
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    static func quoted(_ field: String) -> String {
        var bytes: [UInt8] = []
        append(field.utf8, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `field` (UTF-8) to `bytes` as `quoted` writes it, looked through a byte at a time: a
    /// book's history of thousands of entries is hundreds of kilobytes, which a look through its
    /// characters takes milliseconds for.
    static func append(_ field: some Collection<UInt8>, to bytes: inout [UInt8]) {
        // A line break is any of LF, VT, FF and CR (a CR LF among them), NEL (C2 85), and the line and
        // paragraph separators (E2 80 A8 and E2 80 A9), as `Character.isNewline` has it.
        var previous: (UInt8, UInt8) = (0, 0)
        let needsQuotes = field.contains { byte in
            defer { previous = (previous.1, byte) }
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A...0x0D: return true
            case 0x85: return previous.1 == 0xC2
            case 0xA8, 0xA9: return previous == (0xE2, 0x80)
            default: return false
            }
        }
        guard needsQuotes else {
            bytes += field
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in field {
            bytes.append(byte)
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    static func day(_ date: Date, _ timeZone: Zone) -> String {
        let parts = timeZone.local(date)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.year)/\(two(parts.month))/\(two(parts.day))"
    }
}

/// The library as a reading journal in Markdown: what is being read, what was finished by year,
/// what was abandoned, what waits; with ratings, reviews and every note.
public enum ReadingJournal {
    public static func markdown(_ library: Library, timeZone: Zone) -> TerminalText {
        let books = Text.arranged(library.books, timeZone: timeZone)
        var text = Text(books, timeZone: timeZone)
        var whole = Data()
        for book in books { whole += text.add(book) ?? Data() }
        return TerminalText(layout: String(decoding: whole + text.end(), as: UTF8.self))
    }

    /// The part of the journal a book is in.
    private enum Section: Equatable {
        case reading
        /// Finished in a year, or on a day unknown.
        case finished(Int?)
        case abandoned
        /// To read: listed by title at the end.
        case waiting

        init(_ book: Book, _ timeZone: Zone) {
            switch book.status {
            case .reading: self = .reading
            case .finished: self = .finished(book.currentReading?.ending?.date.map { year($0, timeZone) })
            case .abandoned: self = .abandoned
            case .unstarted: self = .waiting
            }
        }

        var title: String {
            switch self {
            case .reading: "Reading now"
            case .finished(let year?): "Finished in \(year)"
            case .finished(nil): "Finished, date unknown"
            case .abandoned: "Abandoned"
            case .waiting: "To read"
            }
        }
    }

    /// The same document a book at a time, the books in the order of `arranged`, for a library too
    /// large to hold with every entry.
    public struct Text {
        private let timeZone: Zone
        private var bytes = Array("# Reading journal".utf8)
        /// The books to read, listed at the end.
        private let waiting: [Book]
        private let isEmpty: Bool
        private var section: Section?

        /// The books in the journal's order: being read (as the library has them), finished (the latest
        /// year first, the latest finished first in each), abandoned, then the rest.
        public static func arranged(_ books: [Book], timeZone: Zone) -> [Book] {
            let finished = books.filter { $0.status == .finished }
            let byYear = Dictionary(grouping: finished) { book in
                book.currentReading?.ending?.date.map { year($0, timeZone) }
            }
            let years = byYear.keys.sorted { ($0 ?? Int.min) > ($1 ?? Int.min) }
            return books.filter { $0.status == .reading }
                + years.flatMap { key in
                    byYear[key]!.sorted {
                        ($0.currentReading?.ending?.date ?? .distantPast)
                            > ($1.currentReading?.ending?.date ?? .distantPast)
                    }
                }
                + books.filter { $0.status == .abandoned } + books.filter { $0.status == .unstarted }
        }

        /// - Parameter books: the library's books as `arranged` orders them (their latest entries are enough).
        public init(_ books: [Book], timeZone: Zone) {
            self.timeZone = timeZone
            waiting = books.filter { $0.status == .unstarted }
            isEmpty = books.isEmpty
        }

        /// Adds a book with its full history (one to read adds nothing: it is listed at the end); returns
        /// the text so far once it has grown past 64 KiB.
        public mutating func add(_ book: Book) -> Data? {
            let section = Section(book, timeZone)
            guard section != .waiting else { return nil }
            if section != self.section {
                self.section = section
                append(["", "## \(section.title)"])
            }
            let entry: [TerminalText]
            switch section {
            case .reading: entry = ["\(ProgressText.describe(book))"]
            case .finished:
                let date =
                    book.currentReading?.ending?.date.map { "Finished \(DateText.day($0, timeZone: timeZone))" }
                    ?? "Finished"
                entry = ["\(date + stars(book))"]
            case .abandoned, .waiting: entry = ["\(ProgressText.describe(book) + stars(book))"]
            }
            append([""] + heading(book) + entry + details(book, timeZone))
            return bytes.count > 1 << 16 ? take() : nil
        }

        /// The rest of the document: the books to read, and the end.
        public mutating func end() -> Data {
            if !waiting.isEmpty {
                append(["", "## To read", ""] + waiting.map { "- \($0.title)\($0.author.map { " — " + $0 } ?? "")" })
            }
            if isEmpty { append(["", "_No books yet. Add one with `bookclub add TITLE`._"]) }
            bytes.append(0x0A)
            return take()
        }

        private mutating func append(_ lines: [TerminalText]) {
            for line in lines {
                bytes.append(0x0A)
                bytes += line.string.utf8
            }
        }

        private mutating func take() -> Data {
            defer { bytes.removeAll(keepingCapacity: true) }
            return Data(bytes)
        }
    }

    private static func heading(_ book: Book) -> [TerminalText] {
        ["### \(book.title)\(book.author.map { " — " + $0 } ?? "")"]
    }

    private static func stars(_ book: Book) -> String {
        guard let rating = book.currentRating, rating > 0 else { return "" }
        return " · " + Rating.stars(rating)
    }

    /// Tags, review, private notes and every note of every reading, oldest first, then the highlights.
    private static func details(_ book: Book, _ timeZone: Zone) -> [TerminalText] {
        var lines: [TerminalText] = []
        if !book.tags.isEmpty { lines.append("Tags: \(book.tags.joined(separator: ", "))") }
        if let review = book.currentReview {
            lines += [""] + TerminalText(keepingLineBreaks: review).lines.map { "> " + $0 }
        }
        if let notes = book.privateNotes { lines += ["", "Private notes: " + TerminalText(keepingLineBreaks: notes)] }
        let notes = book.readings.flatMap { reading in
            reading.progress.entries.compactMap { entry -> TerminalText? in
                entry.note.map {
                    "- \(ProgressText.place(entry)), \(DateText.day(entry.time, timeZone: timeZone)): \(NotesReport.item($0))"
                }
            }
                + (reading.ending?.note.map {
                    ["- \(reading.ending!.outcome.rawValue): \(NotesReport.item($0))"]
                } ?? [])
        }
        if !notes.isEmpty { lines += [""] + notes }
        lines += NotesReport.quoted(book.readings.flatMap { $0.highlights ?? [] }, heading: "#### Highlights")
        return lines
    }

    private static func year(_ date: Date, _ timeZone: Zone) -> Int {
        timeZone.local(date).year
    }
}
