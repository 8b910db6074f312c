import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ImportCommand: Command {
    static let dryRun = OptionSpec(
        long: "dry-run", short: "n", kind: .flag, help: "List what would be imported, and change nothing.")
    static let source = ArgumentSpec(
        name: "source", help: "What made the file.", allowedValues: ImportFormat.allCases.map(\.rawValue))
    static let file = ArgumentSpec(name: "file", help: "The exported file; - reads standard input.")
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Add the books of a Goodreads, StoryGraph or bookclub JSON export.",
        discussion: """
            Columns are found by name, so every generation of an export reads. Shelves become statuses: \
            to-read is not started, currently-reading reading, read finished, did-not-finish (and shelves \
            named like dnf or wont-finish) abandoned; other shelves become tags. Read dates, ratings, \
            reviews and private notes are kept; a date the export leaves empty stays unknown. A book \
            already in the store (the same ISBN, else the same title and author) is skipped, so importing \
            a file twice adds nothing.

            Example: bookclub import goodreads goodreads_library_export.csv --dry-run
            """,
        arguments: [
            source,
            file,
        ],
        options: [
            dryRun,
            CommonOptions.json,
        ])

    var format: ImportFormat
    var file: String
    var dryRun: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        let source = arguments.argument(Self.source) ?? ""
        guard let format = ImportFormat(source) else {
            throw ParseError.invalidArgumentValue(
                value: source, label: "<source>", allowedValues: ImportFormat.allCases.map(\.rawValue),
                help: "What made the file.")
        }
        self.format = format
        file = arguments.argument(Self.file) ?? ""
        guard !file.isEmpty else {
            throw ParseError.invalidValue(value: file, label: "<file>", reason: "a path cannot be empty")
        }
        dryRun = arguments.flag(Self.dryRun)
        json = arguments.flag(CommonOptions.json)
    }

    /// How messages name the file: as typed, or "standard input".
    var shownPath: String { file == "-" ? "standard input" : file }

    func run(in env: Environment) throws {
        // The file is read and checked before the store is opened: a bad file leaves the store alone.
        let imported = try ImportFile(
            read(in: env), format: format, path: shownPath, now: env.now().wholeSeconds, timeZone: env.timeZone,
            makeID: env.makeID)
        let store = try env.library(forWriting: !dryRun)
        let result: ImportResult
        if dryRun {
            var draft = store.state
            result = draft.merge(imported)
        } else {
            result = store.update { $0.merge(imported) }
        }
        if json {
            try env.writeJSON(ImportJSON(result, format: format, file: shownPath, dryRun: dryRun))
        } else if dryRun {
            for line in Self.plan(result) { env.output.write(line, as: .data) }
        }
        if !dryRun {
            for merged in result.merged where !merged.matchIsInStore || merged.changedTheBook {
                env.output.write("Merged " + Self.describe(merged) + ".", as: .message)
            }
        }
        env.output.write(Self.summary(result, dryRun: dryRun), as: .message)
    }

    func read(in env: Environment) throws -> Data {
        let path = file == "-" ? "/dev/stdin" : file.hasPrefix("/") ? file : env.workingDirectory + "/" + file
        do {
            guard let data = try env.fileSystem.read(path) else {
                throw BookClubError.io(path: shownPath, cause: "no such file")
            }
            return data
        } catch BookClubError.io(_, let cause) {
            throw BookClubError.io(path: shownPath, cause: cause)
        }
    }

    // MARK: Text

    /// "Imported 358 books: 3 reading, 16 finished, 339 not started; 0 already in the store."
    static func summary(_ result: ImportResult, dryRun: Bool) -> String {
        let books = result.added.map(\.book)
        var text = (dryRun ? "Would import " : "Imported ") + count(books.count, "book")
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
                    count(readings, "new reading"), count(filled, "field") + " filled",
                    count(aside, "differing value") + " kept in details",
                ].joined(separator: ", ")
        }
        text += "."
        if !result.addedClubs.isEmpty || !result.skippedClubs.isEmpty {
            text +=
                " " + (dryRun ? "Would import " : "Imported ") + count(result.addedClubs.count, "club")
                + "; \(result.skippedClubs.count) already in the store."
        }
        return text
    }

    static let statusLabels: [(Book.Status, String)] = [
        (.reading, "reading"), (.finished, "finished"), (.abandoned, "abandoned"), (.unstarted, "not started"),
    ]

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// What a dry run would do, a line a book: `add   'Dune' by Frank Herbert (line 2): finished`.
    static func plan(_ result: ImportResult) -> [String] {
        let status = Dictionary(uniqueKeysWithValues: statusLabels)
        return result.added.map { "add   " + name($0.book, line: $0.line) + ": " + status[$0.book.status]! }
            + result.merged.map { ($0.changedTheBook ? "merge " : "skip  ") + describe($0) }
            + result.addedClubs.map { "add   the club '\($0.name.terminalSafe)'" }
            + result.skippedClubs.map { "skip  the club '\($0.name.terminalSafe)': already in the store" }
    }

    /// `'Dune' by Frank Herbert (line 9): the same ISBN as line 2: 1 new reading, filled rating`.
    static func describe(_ skipped: ImportResult.Merged) -> String {
        let reason: String
        switch skipped.reason {
        case .id: reason = "the same id"
        case .isbn: reason = "the same ISBN"
        case .externalID: reason = "the same Goodreads Book Id"
        case .titleAndAuthor: reason = "the same title and author"
        }
        var what: [String] = []
        if skipped.newReadings > 0 { what.append(count(skipped.newReadings, "new reading")) }
        if !skipped.filled.isEmpty { what.append("filled " + skipped.filled.joined(separator: ", ")) }
        if !skipped.keptAside.isEmpty {
            what.append("kept in details the differing " + skipped.keptAside.joined(separator: ", "))
        }
        let match =
            skipped.matchIsInStore
            ? "already in the store as '\(skipped.match.title.terminalSafe)' (\(skipped.match.id.prefix(8)))"
            : skipped.matchLine.map { "line \($0)" } ?? "'\(skipped.match.title.terminalSafe)'"
        return name(skipped.item.book, line: skipped.item.line) + ": "
            + (skipped.matchIsInStore ? "\(match), \(reason)" : "\(reason) as \(match)")
            + (what.isEmpty ? "; nothing new" : "; " + what.joined(separator: "; "))
    }

    static func name(_ book: Book, line: Int?) -> String {
        "'\(book.title.terminalSafe)'" + (book.author.map { " by \($0.terminalSafe)" } ?? "")
            + (line.map { " (line \($0))" } ?? "")
    }
}

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
