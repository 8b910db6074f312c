#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StoredBook {
    init(_ book: Book) {
        (id, title, author, pages, isbn, coverName, tags, added) =
            (book.id, book.title, book.author, book.pages, book.isbn, book.coverName, book.tags, book.added)
        (rating, review, privateNotes) = (book.rating, book.review, book.privateNotes)
        (contributors, details, format, length) = (book.contributors, book.details, book.format, book.length)
        readings = book.readings.map {
            StoredReading(
                id: $0.id, started: $0.started, ending: $0.ending, resumed: $0.resumed, latest: $0.progress.latest,
                highlights: $0.highlights,
                withdrawn: $0.progress.withdrawn.isEmpty
                    ? nil : $0.progress.withdrawn.sorted { $0.uuidString < $1.uuidString }, format: $0.format)
        }
    }

    /// Reads a book's line as Foundation's decoder would, Foundation left to read any line this cannot
    /// (a key it does not know, a `null`, a date of another form): about ten times faster, for `list`
    /// and every command that reads all the books. The fuzz tests hold the two to each other.
    static func decode(_ line: Data, path: String) throws -> StoredBook {
        try StoredBook(scanning: line) ?? JSONCoding.decode(StoredBook.self, from: line, path: path)
    }

    /// - Parameter leavingDetails: passes over `details`, checked as Foundation's decoder would read
    ///   them but not kept (`LibraryScope.listing`).
    init?(scanning line: Data, leavingDetails: Bool = false) {
        guard
            let book = line.withUnsafeBytes({ bytes -> StoredBook? in
                var scanner = JSONScanner(bytes: bytes)
                let book = StoredBook.scan(&scanner, leavingDetails: leavingDetails)
                return scanner.atEnd ? book : nil
            })
        else { return nil }
        self = book
    }

    /// A book's keys and a reading's, in the order `JSONWriter` writes them, looked for by their place.
    private static let bookKeys: [StaticString] = [
        "added", "author", "contributors", "coverName", "details", "format", "historyTail", "id", "isbn", "length",
        "pages", "privateNotes", "rating", "readings", "review", "tags", "title",
    ]
    private static let readingKeys: [StaticString] = [
        "ending", "format", "highlights", "id", "latest", "resumed", "started", "withdrawn",
    ]

    private static func scan(_ scanner: inout JSONScanner, leavingDetails: Bool) -> StoredBook? {
        var id: String?
        var title: String?
        var added: Date?
        var tags: [String]?
        var readings: [StoredReading]?
        var (author, isbn, coverName, review, privateNotes): (String?, String?, String?, String?, String?)
        var pages: Int?
        var rating: Double?
        var contributors: [Contributor]?
        var details: [String: [String]]?
        var historyTail: Int?
        var format: String?
        var length: Int?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object(keys: bookKeys) { key, scanner in
            guard key >= 0, seen.first(key) else { return false }
            switch key {
            // By place in `bookKeys`.
            case 0: return scanner.read(&added)
            case 1: return scanner.read(&author)
            case 3: return scanner.read(&coverName)
            case 5: return scanner.read(&format)
            case 6: return scanner.read(&historyTail)
            case 7: return scanner.read(&id)
            case 8: return scanner.read(&isbn)
            case 9: return scanner.read(&length)
            case 10: return scanner.read(&pages)
            case 11: return scanner.read(&privateNotes)
            case 12: return scanner.read(&rating)
            case 14: return scanner.read(&review)
            case 16: return scanner.read(&title)
            case 15:
                tags = strings(&scanner)
                return tags != nil
            case 13:
                var list: [StoredReading] = []
                guard scanner.array({ scanner in reading(&scanner).map { list.append($0) } != nil }) else {
                    return false
                }
                readings = list
            case 2:
                var list: [Contributor] = []
                let complete = scanner.array { scanner in
                    var name: String?
                    var role: String?
                    let complete = scanner.object { key, scanner in
                        switch key {
                        case "name" where name == nil: return scanner.read(&name)
                        case "role" where role == nil: return scanner.read(&role)
                        default: return false
                        }
                    }
                    guard complete, let name else { return false }
                    list.append(Contributor(name: name, role: role))
                    return true
                }
                guard complete else { return false }
                contributors = list
            case 4 where leavingDetails:
                return scanner.skipObject { scanner in scanner.array { $0.skipString() } }
            case 4:
                var map: [String: [String]] = [:]
                guard
                    scanner.object({ key, scanner in
                        guard map[key] == nil, let values = strings(&scanner) else { return false }
                        map[key] = values
                        return true
                    })
                else { return false }
                details = map
            default: return false
            }
            return true
        }
        guard complete, let id, let title, let added, let tags, let readings else { return nil }
        // A format this bookclub does not know is left to Foundation's decoder, which refuses it.
        let known = format.map(Book.Format.init(rawValue:))
        if known == .some(nil) { return nil }
        return StoredBook(
            id: id, title: title, author: author, pages: pages, isbn: isbn, coverName: coverName, tags: tags,
            rating: rating, review: review, privateNotes: privateNotes, contributors: contributors, details: details,
            format: known ?? nil, length: length, added: added, readings: readings, historyTail: historyTail)
    }

    private static func strings(_ scanner: inout JSONScanner) -> [String]? {
        var list: [String] = []
        let complete = scanner.array { scanner in
            guard let text = scanner.string() else { return false }
            list.append(text)
            return true
        }
        return complete ? list : nil
    }

    static func reading(_ scanner: inout JSONScanner) -> StoredReading? {
        var id: UUID?
        var started: Date?
        var ending: Ending?
        var resumed: [Ending]?
        var latest: ReadingProgress.Entry?
        var highlights: [Highlight]?
        var withdrawn: [UUID]?
        var format: String?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object(keys: readingKeys) { key, scanner in
            guard key >= 0, seen.first(key) else { return false }
            switch key {
            case 1: return scanner.read(&format)
            case 7:
                var list: [UUID] = []
                guard scanner.array({ scanner in scanner.uuid().map { list.append($0) } != nil }) else { return false }
                withdrawn = list
            case 2:
                var list: [Highlight] = []
                guard scanner.array({ scanner in highlight(&scanner).map { list.append($0) } != nil }) else {
                    return false
                }
                highlights = list
            case 3:
                id = scanner.uuid()
                return id != nil
            case 6: return scanner.read(&started)
            case 0:
                ending = self.ending(&scanner)
                return ending != nil
            case 5:
                var list: [Ending] = []
                guard scanner.array({ scanner in self.ending(&scanner).map { list.append($0) } != nil }) else {
                    return false
                }
                resumed = list
            case 4:
                latest = HistoryLine.entry(&scanner)
                return latest != nil
            default: return false
            }
            return true
        }
        guard complete, let id else { return nil }
        // A format this bookclub does not know is left to Foundation's decoder, which refuses it.
        let known = format.map(Book.Format.init(rawValue:))
        if known == .some(nil) { return nil }
        return StoredReading(
            id: id, started: started, ending: ending, resumed: resumed, latest: latest, highlights: highlights,
            withdrawn: withdrawn, format: known ?? nil)
    }

    private static func highlight(_ scanner: inout JSONScanner) -> Highlight? {
        var (id, text, note, location, chapter, source): (String?, String?, String?, String?, String?, String?)
        var page: Int?
        var time: Date?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object { key, scanner in
            switch key {
            case "id" where seen.first(0): scanner.read(&id)
            case "text" where seen.first(1): scanner.read(&text)
            case "note" where seen.first(2): scanner.read(&note)
            case "location" where seen.first(3): scanner.read(&location)
            case "chapter" where seen.first(4): scanner.read(&chapter)
            case "source" where seen.first(5): scanner.read(&source)
            case "page" where seen.first(6): scanner.read(&page)
            case "time" where seen.first(7): scanner.read(&time)
            default: false
            }
        }
        guard complete, let id, let text, let source = source.flatMap(Highlight.Source.init(rawValue:)) else {
            return nil
        }
        return Highlight(
            id: id, text: text, note: note, page: page, location: location, chapter: chapter, time: time,
            source: source)
    }

    static func ending(_ scanner: inout JSONScanner) -> Ending? {
        var outcome: Ending.Outcome?
        var date: Date?
        var note: String?
        var rating: Double?
        var review: String?
        var seen = JSONScanner.SeenKeys()
        let complete = scanner.object { key, scanner in
            switch key {
            case "outcome" where seen.first(0):
                outcome = scanner.string().flatMap(Ending.Outcome.init(rawValue:))
                return outcome != nil
            case "date" where seen.first(1): return scanner.read(&date)
            case "note" where seen.first(2): return scanner.read(&note)
            case "review" where seen.first(3): return scanner.read(&review)
            case "rating" where seen.first(4): return scanner.read(&rating)
            default: return false
            }
        }
        guard complete, let outcome else { return nil }
        return Ending(outcome: outcome, date: date, note: note, rating: rating, review: review)
    }
}
