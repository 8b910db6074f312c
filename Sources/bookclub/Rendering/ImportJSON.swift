import BookClubCore

/// The `--json` summary of an import.
struct ImportJSON: Encodable {
    struct AddedBook: Encodable {
        /// Absent in a dry run of a CSV file, whose books get their ids only when they are added.
        var id: String?
        var title: String
        var author: String?
        var status: Book.Status
        var line: Int?
    }

    struct MergedBook: Encodable {
        var title: String
        var author: String?
        var line: Int?
        var reason: ImportResult.MatchReason
        var matchID: String?
        var matchTitle: String
        var matchLine: Int?
        var matchIsInStore: Bool
        var newReadings: Int
        var filled: [String]
        var keptAside: [String]
    }

    var source: ImportFormat
    var file: String
    var dryRun: Bool
    var added: Int
    var alreadyInStore: Int
    var repeatedInFile: Int
    var statuses: [String: Int]
    var books: [AddedBook]
    /// The rows that matched a book already there, and what each brought to it.
    var merged: [MergedBook]
    var clubsAdded: Int
    var clubsSkipped: Int

    init(_ result: ImportResult, format: ImportFormat, file: String, dryRun: Bool) {
        let keepsIDs = !dryRun || format == .json
        source = format
        self.file = file
        self.dryRun = dryRun
        added = result.added.count
        alreadyInStore = result.merged.count { $0.matchIsInStore }
        repeatedInFile = result.merged.count - alreadyInStore
        statuses = Dictionary(
            uniqueKeysWithValues: Book.Status.allCases.map { status in
                (status.rawValue, result.added.count { $0.book.status == status })
            })
        books = result.added.map {
            AddedBook(
                id: keepsIDs ? $0.book.id : nil, title: $0.book.title, author: $0.book.author, status: $0.book.status,
                line: $0.line)
        }
        merged = result.merged.map {
            MergedBook(
                title: $0.item.book.title, author: $0.item.book.author, line: $0.item.line, reason: $0.reason,
                matchID: $0.matchIsInStore || keepsIDs ? $0.match.id : nil, matchTitle: $0.match.title,
                matchLine: $0.matchLine, matchIsInStore: $0.matchIsInStore, newReadings: $0.newReadings,
                filled: $0.filled,
                keptAside: $0.keptAside)
        }
        clubsAdded = result.addedClubs.count
        clubsSkipped = result.skippedClubs.count
    }
}
