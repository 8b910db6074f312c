import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct LogCommand: Command {
    static let stdin = Flag(long: "stdin", help: "Read the events from standard input (required).")
    static let skipInvalid = Flag(
        long: "skip-invalid", help: "Log the valid lines and report the others, rather than rejecting the batch.")
    static let configuration = CommandConfiguration(
        name: "log",
        abstract: "Log a batch of reading events from standard input, all or nothing.",
        discussion: """
            One JSON object a line: {"book": "dune", "page": 120} or {"book": "dune", "percent": 45}, \
            with an optional "note", "time" (ISO 8601, e.g. 2026-11-20T19:00:00Z) and "action" \
            ("finish" or "abandon"). The batch is applied in one locked transaction: a bad line rejects \
            it, naming the line, and nothing is logged, unless --skip-invalid. Blank lines are ignored.
            """,
        examples: [
            "my-ereader-sync | bookclub log --stdin", #"echo '{"book": "dune", "page": 150}' | bookclub log --stdin"#,
        ],
        options: [
            stdin,
            skipInvalid,
            CommonOptions.json,
        ])

    var skipInvalid: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        skipInvalid = arguments[Self.skipInvalid]
        json = arguments[CommonOptions.json]
        guard arguments[Self.stdin] else {
            throw ParseError.message("log reads JSON Lines from standard input: give --stdin")
        }
    }

    func run(in session: Session) throws {
        let now = session.now().wholeSeconds
        var lines: [NumberedEvent] = []
        var number = 0
        while let line = session.readLine() {
            number += 1
            guard !line.trimmed.isEmpty else { continue }
            let event = Result { () throws(ReadingEvent.Problem) in
                try ReadingEvent(line: line, now: now, timeZone: session.timeZone)
            }
            lines.append((number, event))
        }
        guard !lines.isEmpty else {
            session.output.write("Nothing to log: standard input held no events.", as: .message)
            if json { try session.writeJSON(BatchJSON(BatchOutcome(), library: Library())) }
            return
        }
        let (store, outcome) = try session.perform(
            ApplyBatch(lines: lines, now: now, timeZone: session.timeZone, skipInvalid: skipInvalid, ids: session.ids))
        for skipped in outcome.skipped {
            session.output.write("Skipped line \(skipped.line): \(skipped.reason)", as: .warning)
        }
        session.output.write(BatchText.summary(outcome, library: store.state), as: .message)
        if json { try session.writeJSON(BatchJSON(outcome, library: store.state)) }
    }
}
