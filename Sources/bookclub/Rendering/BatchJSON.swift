import BookClubCore

/// What `log --stdin --json` prints: the counts, the lines skipped and the books as they now are.
struct BatchJSON: Encodable {
    struct Skipped: Encodable {
        var line: Int
        var reason: String
    }

    var logged: Int
    var unchanged: Int
    var finished: [String]
    var abandoned: [String]
    var skipped: [Skipped]
    var books: [BookJSON]

    init(_ outcome: BatchOutcome, library: Library) {
        logged = outcome.logged
        unchanged = outcome.unchanged
        finished = outcome.finished
        abandoned = outcome.abandoned
        skipped = outcome.skipped.map { Skipped(line: $0.line, reason: $0.reason) }
        books = outcome.touched.compactMap { library[id: $0].map { BookJSON($0) } }
    }
}

/// The one-line summary of a batch: "Logged 3 entries on 2 books; finished 'Dune'."
enum BatchText {
    static func summary(_ outcome: BatchOutcome, library: Library) -> TerminalText {
        func titles(_ ids: [Book.ID]) -> TerminalText {
            ids.map { "'\(library[id: $0]?.title ?? $0)'" as TerminalText }.joined(separator: ", ")
        }
        var parts: [TerminalText] = [
            "Logged \(NumberText.count(outcome.logged, "entry", plural: "entries")) on \(NumberText.count(outcome.touched.count, "book"))"
        ]
        if outcome.unchanged > 0 { parts.append("\(outcome.unchanged) unchanged") }
        if !outcome.finished.isEmpty { parts.append("finished \(titles(outcome.finished))") }
        if !outcome.abandoned.isEmpty { parts.append("abandoned \(titles(outcome.abandoned))") }
        if !outcome.skipped.isEmpty {
            parts.append("skipped \(outcome.skipped.count) invalid \(outcome.skipped.count == 1 ? "line" : "lines")")
        }
        return parts.joined(separator: "; ") + "."
    }
}
