import BookClubCore

/// An import from an e-reader as `import kindle`, `import koreader` and `import kobo` say it.
enum ReaderImportText {
    /// "Imported 458 highlights of 20 books (20 added); 11 notes put with their highlights, 5 bookmarks skipped."
    static func summary(_ result: ReaderImportResult, file: ReaderImport, dryRun: Bool) -> TerminalText {
        let added = result.entries.reduce(0) { $0 + $1.highlights.added }
        let replaced = result.entries.reduce(0) { $0 + $1.highlights.replaced }
        let unchanged = result.entries.reduce(0) { $0 + $1.highlights.unchanged }
        let logged = result.entries.reduce(0) { $0 + $1.logged }
        var text =
            (dryRun ? "Would import " : "Imported ") + NumberText.count(added, "highlight") + " of "
            + NumberText.count(result.entries.count, "book") + " (\(result.added) new to bookclub)"
        var more: [String] = []
        if replaced > 0 { more.append(NumberText.count(replaced, "highlight") + " extended") }
        if unchanged > 0 { more.append("\(unchanged) already there") }
        if logged > 0 {
            more.append(NumberText.count(logged, "progress entry", plural: "progress entries") + " logged")
        }
        let started = result.entries.reduce(0) { $0 + $1.started }
        if started > 0 { more.append(NumberText.count(started, "reading") + " begun") }
        let finished = result.entries.count(where: \.finished)
        if finished > 0 { more.append(NumberText.count(finished, "book") + " finished") }
        if file.notesAttached > 0 {
            more.append(
                NumberText.count(file.notesAttached, "note")
                    + (file.notesAttached == 1 ? " put with its highlight" : " put with their highlights"))
        }
        if file.bookmarks > 0 { more.append(NumberText.count(file.bookmarks, "bookmark") + " skipped") }
        if file.clippingLimits > 0 {
            more.append(NumberText.count(file.clippingLimits, "clipping-limit notice") + " skipped")
        }
        if !file.skipped.isEmpty {
            let reasons = Dictionary(grouping: file.skipped, by: \.reason).sorted {
                ($1.value.count, $0.key) < ($0.value.count, $1.key)
            }
            more.append(
                NumberText.count(file.skipped.count, "book") + " skipped ("
                    + reasons.map { "\($0.value.count) \($0.key)" }.joined(separator: ", ") + ")")
        }
        if !file.problems.isEmpty {
            more.append(NumberText.count(file.problems.count, "entry", plural: "entries") + " unreadable")
        }
        if !more.isEmpty { text += "; " + more.joined(separator: ", ") }
        return TerminalText(text + ".")
    }

    /// What a dry run would do, a line a book: `add   'Dune' by Frank Herbert (line 2): 23 highlights`.
    static func plan(_ result: ReaderImportResult) -> [TerminalText] {
        result.entries.map { entry in
            let name: TerminalText =
                "'\(entry.book.title)'\(entry.book.author.map { " by " + $0 } ?? "") (\(entry.book.origin))"
            var what = [NumberText.count(entry.highlights.added, "new highlight")]
            if entry.highlights.replaced > 0 { what.append("\(entry.highlights.replaced) extended") }
            if entry.highlights.unchanged > 0 { what.append("\(entry.highlights.unchanged) already there") }
            if entry.logged > 0 { what.append("progress") }
            if entry.finished { what.append("finished") }
            let verb: TerminalText = entry.match == nil ? "add   " : "merge "
            return verb + name + ": \(what.joined(separator: ", "))"
        }
    }

    /// Each book of the file passed over: `Skipped 'Dune': a preview.`
    static func skipped(_ file: ReaderImport) -> [TerminalText] {
        file.skipped.map { "Skipped \($0.place): \($0.reason)." }
    }

    /// Each entry of the file that could not be read: `Warning: line 12: a header bookclub cannot read: …`.
    static func problems(_ file: ReaderImport) -> [TerminalText] {
        file.problems.map { "Skipped \($0.place): \($0.reason)." }
    }
}

/// The `--json` summary of an import from an e-reader.
struct ReaderImportJSON: Encodable {
    struct BookJSON: Encodable {
        /// Absent in a dry run for a book it would add.
        var id: String?
        var title: String
        var author: String?
        var origin: String
        var added: Bool
        var reason: ImportResult.MatchReason?
        var highlightsAdded: Int
        var highlightsExtended: Int
        var highlightsAlreadyThere: Int
        var progressLogged: Int
        var finished: Bool
        /// Readings begun (Libby's borrows).
        var readingsBegun: Int
    }

    struct ProblemJSON: Encodable {
        var place: String
        var reason: String
    }

    var source: String
    var file: String
    var dryRun: Bool
    var books: [BookJSON]
    var notesAttached: Int
    var bookmarksSkipped: Int
    var clippingLimitsSkipped: Int
    var unreadable: [ProblemJSON]
    /// Books passed over on purpose (a Kobo's previews, books not downloaded); absent when none.
    var skipped: [ProblemJSON]?

    init(_ result: ReaderImportResult, file: ReaderImport, path: String, dryRun: Bool) {
        source = file.source.rawValue
        self.file = path
        self.dryRun = dryRun
        books = result.entries.map {
            BookJSON(
                id: dryRun && $0.match == nil ? nil : $0.bookID, title: $0.book.title, author: $0.book.author,
                origin: $0.book.origin, added: $0.match == nil, reason: $0.match,
                highlightsAdded: $0.highlights.added, highlightsExtended: $0.highlights.replaced,
                highlightsAlreadyThere: $0.highlights.unchanged, progressLogged: $0.logged, finished: $0.finished,
                readingsBegun: $0.started)
        }
        notesAttached = file.notesAttached
        bookmarksSkipped = file.bookmarks
        clippingLimitsSkipped = file.clippingLimits
        unreadable = file.problems.map { ProblemJSON(place: $0.place, reason: $0.reason) }
        skipped = file.skipped.isEmpty ? nil : file.skipped.map { ProblemJSON(place: $0.place, reason: $0.reason) }
    }
}
