import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct LogCommand: Command {
    static let stdin = OptionSpec(long: "stdin", kind: .flag, help: "Read the events from standard input (required).")
    static let skipInvalid = OptionSpec(
        long: "skip-invalid", kind: .flag,
        help: "Log the valid lines and report the others, rather than rejecting the batch.")
    static let configuration = CommandConfiguration(
        name: "log",
        abstract: "Log a batch of reading events from standard input, all or nothing.",
        discussion: """
            One JSON object a line: {"book": "dune", "page": 120} or {"book": "dune", "percent": 45}, \
            with an optional "note", "time" (ISO 8601, e.g. 2026-11-20T19:00:00Z) and "action" \
            ("finish" or "abandon"). The batch is applied in one locked transaction: a bad line rejects \
            it, naming the line, and nothing is logged, unless --skip-invalid. Blank lines are ignored. \
            Example: my-ereader-sync | bookclub log --stdin
            """,
        options: [
            stdin,
            skipInvalid,
            CommonOptions.json,
        ])

    var skipInvalid: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        guard arguments.flag(Self.stdin) else {
            throw ParseError.message("log reads JSON Lines from standard input: give --stdin")
        }
        skipInvalid = arguments.flag(Self.skipInvalid)
        json = arguments.flag(CommonOptions.json)
    }

    struct Skipped: Encodable {
        var line: Int
        var reason: String
    }

    struct Summary: Encodable {
        var logged = 0
        var unchanged = 0
        var finished: [String] = []
        var abandoned: [String] = []
        var skipped: [Skipped] = []
        var books: [BookJSON] = []
    }

    func run(in env: Environment) throws {
        let now = env.now().wholeSeconds
        var lines: [(number: Int, event: Result<ReadingEvent, ReadingEvent.Problem>)] = []
        var number = 0
        while let line = env.readLine() {
            number += 1
            guard !line.trimmed.isEmpty else { continue }
            lines.append(
                (
                    number,
                    Result { () throws(ReadingEvent.Problem) in
                        try ReadingEvent(line: line, now: now, timeZone: env.timeZone)
                    }
                ))
        }
        var summary = Summary()
        guard !lines.isEmpty else {
            env.output.write("Nothing to log: standard input held no events.", as: .message)
            if json { try env.writeJSON(summary) }
            return
        }
        // A dated event may fall among earlier entries: its books come with their histories.
        let dated = lines.compactMap { try? $0.event.get() }.filter { $0.time != nil }.map(\.book)
        let store = try env.library(
            forWriting: true,
            scope: .everything.withHistory { library in Set(dated.compactMap { try? library.resolve($0).id }) })
        var touched: [Book.ID] = []
        try store.update { library in
            // Lines are taken in order, each on a copy, so that a line that fails leaves nothing behind.
            for (number, parsed) in lines {
                var attempt = library
                do {
                    let event = try parsed.get()
                    let outcome = try attempt.apply(event, now: now)
                    library = attempt
                    if !touched.contains(outcome.bookID) { touched.append(outcome.bookID) }
                    if outcome.entry != nil {
                        summary.logged += 1
                    } else if event.value != nil {
                        summary.unchanged += 1
                    }
                    switch outcome.ending {
                    case .finished: summary.finished.append(outcome.bookID)
                    case .abandoned: summary.abandoned.append(outcome.bookID)
                    case nil: break
                    }
                } catch let problem as ReadingEvent.Problem {
                    try reject(line: number, reason: problem.reason, into: &summary)
                } catch let error as BookClubError {
                    try reject(line: number, reason: CLI.describe(error), into: &summary)
                }
            }
        }
        for skipped in summary.skipped {
            env.output.write("Skipped line \(skipped.line): \(skipped.reason.terminalSafe)", as: .warning)
        }
        let library = store.state
        var parts = [
            "Logged \(summary.logged) \(summary.logged == 1 ? "entry" : "entries") on \(touched.count) \(touched.count == 1 ? "book" : "books")"
        ]
        if summary.unchanged > 0 { parts.append("\(summary.unchanged) unchanged") }
        func titles(_ ids: [Book.ID]) -> String {
            ids.map { "'\(library[id: $0]!.title.terminalSafe)'" }.joined(separator: ", ")
        }
        if !summary.finished.isEmpty { parts.append("finished \(titles(summary.finished))") }
        if !summary.abandoned.isEmpty { parts.append("abandoned \(titles(summary.abandoned))") }
        if !summary.skipped.isEmpty {
            parts.append("skipped \(summary.skipped.count) invalid \(summary.skipped.count == 1 ? "line" : "lines")")
        }
        env.output.write(parts.joined(separator: "; ") + ".", as: .message)
        if json {
            summary.books = touched.compactMap { library[id: $0].map { BookJSON($0) } }
            try env.writeJSON(summary)
        }
    }

    /// Without --skip-invalid, a bad line rejects the whole batch.
    private func reject(line: Int, reason: String, into summary: inout Summary) throws {
        guard skipInvalid else {
            throw BookClubError.invalidBatch(line: line, reason: reason)
        }
        summary.skipped.append(Skipped(line: line, reason: reason))
    }
}
