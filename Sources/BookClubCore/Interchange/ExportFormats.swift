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
        var lines = [columns.joined(separator: ",")]
        for book in library.books {
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
            fields.append(
                (try? JSONCoding.encoder(pretty: false).encode(book)).map { String(decoding: $0, as: UTF8.self) } ?? "")
            lines.append(fields.map(quoted).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Frank Herbert" → "Herbert, Frank", as Goodreads' `Author l-f`.
    static func lastFirst(_ name: String) -> String {
        let words = name.split(separator: " ")
        guard words.count > 1 else { return name }
        return "\(words.last!), \(words.dropLast().joined(separator: " "))"
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
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
        var lines: [TerminalText] = ["# Reading journal"]
        let books = library.books
        func section(_ title: String, _ chosen: [Book], entry: (Book) -> [TerminalText]) {
            guard !chosen.isEmpty else { return }
            lines += ["", "## \(title)"]
            for book in chosen { lines += [""] + entry(book) }
        }
        section("Reading now", books.filter { $0.status == .reading }) { book in
            heading(book) + ["\(ProgressText.describe(book))"] + details(book, timeZone)
        }
        let finished = books.filter { $0.status == .finished }
        let byYear = Dictionary(grouping: finished) { book in
            book.currentReading?.ending?.date.map { year($0, timeZone) }
        }
        for key in byYear.keys.sorted(by: { ($0 ?? Int.min) > ($1 ?? Int.min) }) {
            let chosen = byYear[key]!.sorted {
                ($0.currentReading?.ending?.date ?? .distantPast) > ($1.currentReading?.ending?.date ?? .distantPast)
            }
            section(key.map { "Finished in \($0)" } ?? "Finished, date unknown", chosen) { book in
                let date =
                    book.currentReading?.ending?.date.map { "Finished \(DateText.day($0, timeZone: timeZone))" }
                    ?? "Finished"
                return heading(book) + ["\(date + stars(book))"] + details(book, timeZone)
            }
        }
        section("Abandoned", books.filter { $0.status == .abandoned }) { book in
            heading(book) + ["\(ProgressText.describe(book) + stars(book))"] + details(book, timeZone)
        }
        let waiting = books.filter { $0.status == .unstarted }
        if !waiting.isEmpty {
            lines += ["", "## To read", ""]
            lines += waiting.map { "- \($0.title)\($0.author.map { " — " + $0 } ?? "")" }
        }
        if books.isEmpty { lines += ["", "_No books yet. Add one with `bookclub add TITLE`._"] }
        return lines.joined(separator: "\n") + "\n"
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
