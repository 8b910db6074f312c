import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ImportCommand: Command {
    static let dryRun = Flag(
        long: "dry-run", short: "n", help: "List what would be imported, and change nothing.")
    static let source = Argument(
        name: "source", help: "What made the file.", allowedValues: ImportFormat.allCases.map(\.rawValue))
    static let file = Argument(name: "file", help: "The exported file; - reads standard input.")
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
        let source = try arguments[Self.source] ?? ""
        guard let format = ImportFormat(source) else {
            throw ParseError.invalidArgumentValue(
                value: source, label: "<source>", allowedValues: ImportFormat.allCases.map(\.rawValue),
                help: "What made the file.")
        }
        self.format = format
        file = try arguments[Self.file] ?? ""
        guard !file.isEmpty else {
            throw ParseError.invalidValue(value: file, label: "<file>", reason: "a path cannot be empty")
        }
        dryRun = arguments[Self.dryRun]
        json = arguments[CommonOptions.json]
    }

    /// How messages name the file: as typed, or "standard input".
    var shownPath: String { file == "-" ? "standard input" : file }

    func run(in session: Session) throws {
        // The file is read and checked before the store is opened: a bad file leaves the store alone.
        let imported = try ImportFile(
            read(in: session), format: format, path: shownPath, now: session.now().wholeSeconds,
            timeZone: session.timeZone,
            makeID: session.makeID, ids: session.ids)
        let store = try session.library(forWriting: !dryRun)
        let result: ImportResult
        if dryRun {
            var draft = store.state
            result = draft.merge(imported)
        } else {
            result = store.update { $0.merge(imported) }
        }
        if json {
            try session.writeJSON(ImportJSON(result, format: format, file: shownPath, dryRun: dryRun))
        } else if dryRun {
            for line in ImportText.plan(result) { session.output.write(line, as: .data) }
        }
        if !dryRun {
            for merged in result.merged where !merged.matchIsInStore || merged.changedTheBook {
                session.output.write("Merged " + ImportText.describe(merged) + ".", as: .message)
            }
        }
        session.output.write(ImportText.summary(result, dryRun: dryRun), as: .message)
    }

    func read(in session: Session) throws -> Data {
        let path = file == "-" ? "/dev/stdin" : file.hasPrefix("/") ? file : session.workingDirectory + "/" + file
        do {
            guard let data = try session.fileSystem.read(path) else {
                throw BookClubError.io(path: shownPath, cause: "no such file")
            }
            return data
        } catch BookClubError.io(_, let cause) {
            throw BookClubError.io(path: shownPath, cause: cause)
        }
    }
}
