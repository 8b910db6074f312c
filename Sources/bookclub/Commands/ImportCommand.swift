import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ImportCommand: Command {
    static let dryRun = Flag(
        long: "dry-run", short: "n", help: "List what would be imported, and change nothing.")
    /// What made the file: an export of a reading site or of bookclub, or an e-reader.
    enum Source {
        case export(ImportFormat)
        case kindle
        case koreader
        case libby
        case kobo
        /// A Calibre library: what `--columns`, `--read-column` and `--date-read-column` ask of it.
        case calibre(CalibreRequest)

        static let names = ImportFormat.allCases.map(\.rawValue) + ["kindle", "koreader", "kobo", "libby"]
    }

    /// What `import calibre` is asked: list the custom columns, or import with the reading columns named.
    struct CalibreRequest {
        var listColumns: Bool
        var readColumn: String?
        var dateReadColumn: String?
    }

    static let columns = Flag(
        long: "columns", help: "For calibre: list the library's custom columns, and import nothing.")
    static let readColumn = Option(
        long: "read-column", kind: .value("label"),
        help: "For calibre: a yes/no custom column (#read) whose yes finishes a book.")
    static let dateReadColumn = Option(
        long: "date-read-column", kind: .value("label"),
        help: "For calibre: a date custom column: the day each book was finished.")

    static let source = Argument(name: "source", help: "What made the file.", allowedValues: Source.names)
    static let file = Argument(
        name: "file",
        help:
            "The exported file; - reads standard input. For koreader, a sidecar or a folder; for kobo, KoboReader.sqlite or the folder a Kobo is mounted at; for calibre, the library's folder or its metadata.db."
    )
    static let configuration = CommandConfiguration(
        name: "import",
        abstract:
            "Add the books of a Goodreads, StoryGraph or bookclub JSON export, a Calibre library, or an e-reader's highlights.",
        discussion: """
            Columns are found by name, so every generation of an export reads. Shelves become statuses: \
            to-read is not started, currently-reading reading, read finished, did-not-finish (and shelves \
            named like dnf or wont-finish) abandoned; other shelves become tags. Read dates, ratings, \
            reviews and private notes are kept; a date the export leaves empty stays unknown. A book \
            already in the store (the same ISBN, else the same title and author) is skipped, so importing \
            a file twice adds nothing.

            kindle reads a Kindle's My Clippings.txt, in any of the device's languages: highlights go \
            to their books (a book new to bookclub is added), a note to the highlight it was written \
            on; bookmarks are skipped. An extended highlight replaces the shorter one. koreader reads \
            KOReader's sidecar files (metadata.*.lua): a file, a book's .sdr folder, or any folder, such \
            as a mounted e-reader, searched through; each brings its book's highlights, progress and \
            status.

            kobo reads a Kobo's library, .kobo/KoboReader.sqlite on the device (give the folder the \
            Kobo is mounted at, or the file), through the sqlite3 program: the books on the device \
            with their authors, ISBN and series, how far each was read and whether it was finished, \
            its highlights with the notes written on them, and the minutes read each day. Previews, \
            wishlist items, Pocket articles and books not downloaded are skipped, and said; the \
            account's details are never read.

            libby reads Libby's timeline export (libbytimeline-activities.json or .csv) or a title's \
            reading journey (JSON): a borrow starts a reading, a return ends only the loan, a hold \
            adds the book not started; a journey brings its progress and highlights.

            calibre reads a Calibre library (its folder, or the metadata.db in it) through the sqlite3 \
            program: titles, authors in order, identifiers (a valid ISBN as the book's, the others in its \
            details), tags, series and index, publisher and rating (Calibre's 10 points as 5 stars, half \
            stars kept). Calibre keeps no reading status, so its books arrive not started, unless \
            --read-column names a yes/no custom column that says a book was read, or --date-read-column a \
            date column of the day it was: such books arrive finished. --columns lists the custom columns.
            """,
        examples: [
            "bookclub import goodreads goodreads_library_export.csv --dry-run",
            "bookclub import kindle \"/media/Kindle/documents/My Clippings.txt\"",
            "bookclub import kobo /media/KOBOeReader --dry-run",

            "bookclub import calibre ~/Calibre\\ Library --columns",
            "bookclub import calibre ~/Calibre\\ Library --read-column read",
        ],
        arguments: [
            source,
            file,
        ],
        options: [
            dryRun,
            columns,
            readColumn,
            dateReadColumn,
            CommonOptions.json,
        ])

    var source: Source
    var file: String
    var dryRun: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        let name = try arguments[Self.source] ?? ""
        if let format = ImportFormat(name) {
            source = .export(format)
        } else if name.lowercased() == "kindle" {
            source = .kindle
        } else if name.lowercased() == "koreader" {
            source = .koreader
        } else if name.lowercased() == "libby" {
            source = .libby
        } else if name.lowercased() == "kobo" {
            source = .kobo
        } else {
            throw ParseError.invalidArgumentValue(
                value: name, label: "<source>", allowedValues: Source.names, help: "What made the file.")
        }
        file = try arguments[Self.file] ?? ""
        guard !file.isEmpty else {
            throw ParseError.invalidValue(value: file, label: "<file>", reason: "a path cannot be empty")
        }
        dryRun = arguments[Self.dryRun]
        json = arguments[CommonOptions.json]
        let calibre = CalibreRequest(
            listColumns: arguments[Self.columns], readColumn: try arguments[Self.readColumn],
            dateReadColumn: try arguments[Self.dateReadColumn])
        let given = [
            calibre.listColumns ? "--columns" : nil, calibre.readColumn.map { _ in "--read-column" },
            calibre.dateReadColumn.map { _ in "--date-read-column" },
        ].compactMap { $0 }
        guard case .export(.calibre) = source else {
            if let option = given.first { throw ParseError.message("\(option) goes with calibre only") }
            return
        }
        source = .calibre(calibre)
        if file == "-" {
            throw ParseError.invalidValue(
                value: file, label: "<file>", reason: "calibre reads a library's folder or its metadata.db")
        }
        for label in [calibre.readColumn, calibre.dateReadColumn].compactMap({ $0 }) where label.trimmed.isEmpty {
            throw ParseError.invalidValue(value: label, label: "<label>", reason: "a column's label cannot be empty")
        }
        if calibre.listColumns, given.count > 1 || dryRun {
            throw ParseError.message(
                "--columns lists the columns and imports nothing; it goes with no \(given.count > 1 ? given[1] : "--dry-run")"
            )
        }
    }

    /// How messages name the file: as typed, or "standard input".
    var shownPath: String { file == "-" ? "standard input" : file }

    func run(in session: Session) throws {
        switch source {
        case .export(let format): try run(format, in: session)
        case .kindle: try runReader(try readKindle(in: session), in: session)
        case .koreader: try runReader(try readKOReader(in: session), in: session)
        case .libby:
            try runReader(
                try LibbyImport.read(read(in: session), path: shownPath, timeZone: session.timeZone), in: session)
        case .kobo: try runReader(try readKobo(in: session), in: session)

        case .calibre(let request): try runCalibre(request, in: session)
        }
    }

    func run(_ format: ImportFormat, in session: Session) throws {
        if format == .json, !dryRun, file != "-", try restore(in: session) { return }
        // The file is read and checked before the library changes: a bad file leaves the store alone.
        try merge(
            ImportFile(
                read(in: session), format: format, path: shownPath, now: session.now().wholeSeconds,
                timeZone: session.timeZone,
                makeID: session.makeID, ids: session.ids), in: session)
    }

    /// An export put back into an empty store that syncs with no folder, a few books at a time
    /// (`ExportRestore`); `false` when the store is not such a one, or the file is not one the restore
    /// is sure of (then read whole, which says what is wrong).
    func restore(in session: Session) throws -> Bool {
        // A file that is not there is said so before any store is opened, as a whole read says it.
        guard !StoreSync.hasJoined(session.storage), (try? session.fileSystem.size(absolutePath(in: session))) != nil
        else { return false }
        var staged: StagedHistory?
        let library = try session.library(forWriting: true, staged: { staged }).state
        guard library.books.isEmpty, library.clubs.isEmpty else { return false }
        let restored: (file: ImportFile, staged: StagedHistory)
        do {
            restored = try ExportRestore.stage(
                file: absolutePath(in: session), shownPath: shownPath, fileSystem: session.fileSystem,
                storage: session.storage, base: session.storage.committedHistoryLength())
        } catch is ExportRestore.GaveWay {
            return false
        } catch BookClubError.io(let path, let cause) where path == absolutePath(in: session) {
            throw BookClubError.io(path: shownPath, cause: cause)
        }
        staged = restored.staged
        try merge(restored.file, in: session)
        return true
    }

    /// An export, read and checked, merged as one change (or, in a dry run, only planned).
    func merge(_ imported: ImportFile, in session: Session) throws {
        let format = imported.format
        let operation = MergeImport(imported)
        let result = try dryRun ? session.compute(operation).result : session.perform(operation).result
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

    /// What an e-reader's file brought, merged as one change; each entry that could not be read is
    /// said, and skipped.
    func runReader(_ imported: ReaderImport, in session: Session) throws {
        for line in ReaderImportText.problems(imported) { session.output.write(line, as: .warning) }
        for line in ReaderImportText.skipped(imported) { session.output.write(line, as: .message) }
        let operation = MergeReaderImport(
            imported, now: session.now().wholeSeconds, makeID: session.makeID, ids: session.ids)
        let result = try dryRun ? session.compute(operation).result : session.perform(operation).result
        if json {
            try session.writeJSON(ReaderImportJSON(result, file: imported, path: shownPath, dryRun: dryRun))
        } else if dryRun {
            for line in ReaderImportText.plan(result) { session.output.write(line, as: .data) }
        }
        session.output.write(ReaderImportText.summary(result, file: imported, dryRun: dryRun), as: .message)
    }

    func absolutePath(in session: Session) -> String {
        file.hasPrefix("/") ? file : session.workingDirectory + "/" + file
    }

    func read(in session: Session) throws -> Data {
        let path = file == "-" ? "/dev/stdin" : absolutePath(in: session)
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
