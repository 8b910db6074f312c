import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct CoversCommand: Command {
    static let limit = Option(
        long: "limit", short: "n", kind: .value("count"), help: "Fetch at most this many covers this time.",
        parse: .integer(in: 1...1_000_000))
    static let configuration = CommandConfiguration(
        name: "covers",
        abstract: "Fetch the covers of the books that have an ISBN and no cover yet.",
        discussion: """
            One request a second at most, as Open Library asks; stop it with Ctrl-C and run it again to go on.

            """ + OpenLibraryContact.request,
        examples: ["bookclub covers --limit 20", "0 3 * * * bookclub covers --limit 200 --quiet   # from cron"],
        options: [limit, CommonOptions.json])

    var limit: Int?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
        limit = try arguments[Self.limit]
    }

    func run(in session: Session) throws {
        let cache = session.openLibrary.cache
        let now = session.now()
        var linked: [Book.ID: String] = [:]
        var wanted: [(id: Book.ID, isbn: ISBN)] = []
        // Covers in the cache already are linked without a request; those Open Library has none of
        // (asked in the last 30 days) are left.
        for book in try session.library().state.books {
            guard let isbn = book.isbn.flatMap(ISBN.init) else { continue }
            let cached = cache.cover(for: isbn)
            guard book.coverName == nil || book.coverName != cached else { continue }
            if let cached {
                linked[book.id] = cached
            } else if book.coverName == nil && !cache.coverIsMissing(for: isbn, now: now) {
                wanted.append((book.id, isbn))
            }
        }
        let batch = wanted.prefix(limit ?? wanted.count)
        var none = 0
        var failure: (any Error)?
        let showsProgress = session.terminal.standardErrorIsTerminal && !session.globals.quiet && batch.count > 1
        session.catchSignals(true)
        for (done, book) in batch.enumerated() {
            if showsProgress {
                session.output.show(
                    "\r\(ProgressBar.render(Double(done) / Double(batch.count), width: 30)) \(done)/\(batch.count) covers"
                )
            }
            do {
                if let name = try session.openLibrary.cover(for: book.isbn) {
                    linked[book.id] = name
                } else {
                    none += 1
                }
            } catch let error as BookClubError where error.isBadAnswer {
                // One odd answer does not stop the others.
                session.output.write("ISBN \(book.isbn): \(error.message(in: session.timeZone))", as: .warning)
            } catch {
                failure = error
            }
            if failure != nil || session.receivedSignal() != 0 { break }
        }
        let signal = session.receivedSignal()
        session.catchSignals(false)
        if showsProgress { session.output.show("\r\u{1B}[K") }
        if !linked.isEmpty {
            let store = try session.library(forWriting: true)
            try store.update { library in
                for (id, name) in linked where library[id: id] != nil {
                    try library.edit(bookID: id, BookEdit(coverName: .some(name)), reference: id)
                }
            }
            // Kept before any stop: what was fetched is linked.
            if signal != 0 || failure != nil { try session.saveChanges() }
        }
        let left = wanted.count - linked.count - none
        let summary =
            "\(linked.count) \(linked.count == 1 ? "cover" : "covers") linked"
            + (none > 0 ? "; Open Library has none for \(none) more" : "")
            + (left > 0 ? "; \(left) to fetch: run `bookclub covers` again." : ".")
        if signal != 0 { throw BookClubError.interrupted(signal: signal, detail: summary) }
        if let failure { throw failure }
        if json { try session.writeJSON(CoversJSON(linked: linked.count, missing: none, left: left)) }
        session.output.write(TerminalText(summary), as: .message)
    }
}
