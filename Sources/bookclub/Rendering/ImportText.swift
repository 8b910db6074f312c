import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An import as `import` says it: the summary line and, in a dry run, the plan.
enum ImportText {

    /// "Imported 358 books: 3 reading, 16 finished, 339 not started; 0 already in the store."
    static func summary(_ result: ImportResult, dryRun: Bool) -> TerminalText {
        let books = result.added.map(\.book)
        var text = (dryRun ? "Would import " : "Imported ") + NumberText.count(books.count, "book")
        let statuses = statusLabels.compactMap { status, label -> String? in
            let count = books.count { $0.status == status }
            return count > 0 ? "\(count) \(label)" : nil
        }
        if !statuses.isEmpty { text += ": " + statuses.joined(separator: ", ") }
        let inStore = result.merged.count { $0.matchIsInStore }
        text += "; \(inStore) already in the store"
        if result.merged.count > inStore { text += ", \(result.merged.count - inStore) repeated in the file" }
        let changed = result.merged.filter(\.changedTheBook)
        if !changed.isEmpty {
            let readings = changed.reduce(0) { $0 + $1.newReadings }
            let filled = changed.reduce(0) { $0 + $1.filled.count }
            let aside = changed.reduce(0) { $0 + $1.keptAside.count }
            text +=
                "; merged into them: "
                + [
                    NumberText.count(readings, "new reading"), NumberText.count(filled, "field") + " filled",
                    NumberText.count(aside, "differing value") + " kept in details",
                ].joined(separator: ", ")
        }
        text += "."
        if !result.addedClubs.isEmpty || !result.skippedClubs.isEmpty {
            text +=
                " " + (dryRun ? "Would import " : "Imported ") + NumberText.count(result.addedClubs.count, "club")
                + "; \(result.skippedClubs.count) already in the store."
        }
        return TerminalText(text)
    }

    static let statusLabels: [(Book.Status, String)] = [
        (.reading, "reading"), (.finished, "finished"), (.abandoned, "abandoned"), (.unstarted, "not started"),
    ]

    /// What a dry run would do, a line a book: `add   'Dune' by Frank Herbert (line 2): finished`.
    static func plan(_ result: ImportResult) -> [TerminalText] {
        let status = Dictionary(uniqueKeysWithValues: statusLabels)
        return result.added.map { "add   \(name($0.book, line: $0.line)): \(status[$0.book.status]!)" }
            + result.merged.map { ($0.changedTheBook ? "merge " : "skip  ") + describe($0) }
            + result.addedClubs.map { "add   the club '\($0.name)'" }
            + result.skippedClubs.map { "skip  the club '\($0.name)': already in the store" }
    }

    /// `'Dune' by Frank Herbert (line 9): the same ISBN as line 2: 1 new reading, filled rating`.
    static func describe(_ skipped: ImportResult.Merged) -> TerminalText {
        let reason: String
        switch skipped.reason {
        case .id: reason = "the same id"
        case .isbn: reason = "the same ISBN"
        case .externalID:
            reason =
                skipped.item.book.details?[CalibreLibrary.uuidKey] != nil
                ? "the same Calibre uuid" : "the same Goodreads Book Id"
        case .titleAndAuthor: reason = "the same title and author"
        }
        var what: [String] = []
        if skipped.newReadings > 0 { what.append(NumberText.count(skipped.newReadings, "new reading")) }
        if !skipped.filled.isEmpty { what.append("filled " + skipped.filled.joined(separator: ", ")) }
        if !skipped.keptAside.isEmpty {
            what.append("kept in details the differing " + skipped.keptAside.joined(separator: ", "))
        }
        let match: TerminalText =
            skipped.matchIsInStore
            ? "already in the store as '\(skipped.match.title)' (\(skipped.match.id.prefix(8)))"
            : skipped.matchLine.map { "line \($0)" } ?? "'\(skipped.match.title)'"
        return name(skipped.item.book, line: skipped.item.line) + ": "
            + (skipped.matchIsInStore ? "\(match), \(reason)" : "\(reason) as \(match)")
            + (what.isEmpty ? "; nothing new" : "; \(what.joined(separator: "; "))")
    }

    static func name(_ book: Book, line: Int?) -> TerminalText {
        "'\(book.title)'\(book.author.map { " by " + $0 } ?? "")\(line.map { " (line \($0))" } ?? "")"
    }
}
