import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ExportCommand: Command {
    enum Format: String, CaseIterable {
        case json, csv, markdown
    }

    static let format = Option<Format>(
        long: "format", kind: .value("format"), help: "What to write.",
        allowedValues: Format.allCases.map(\.rawValue),
        defaultValue: Format.json.rawValue, parse: .choice)
    static let output = CommonOptions.output("Write to this file instead of standard output.")
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Write every book, reading, note and club out, for other tools or for safekeeping.",
        discussion: """
            json is lossless: `bookclub import json FILE` into an empty store gives the same library \
            back. csv has Goodreads' columns, for trackers that import Goodreads exports. markdown is \
            a reading journal.
            """,
        examples: ["bookclub export > library.json", "bookclub export --format csv --output books.csv"],
        options: [
            Self.format,
            Self.output,
            CommonOptions.json,
        ])

    var format: Format
    var outputPath: String?

    init(_ arguments: ParsedArguments) throws {
        format = try arguments[Self.format] ?? .json
        if arguments[CommonOptions.json], format != .json {
            throw ParseError.message("--json writes JSON; leave out --format \(format.rawValue)")
        }
        outputPath = try arguments[Self.output]
    }

    func run(in session: Session) throws {
        // A few books at a time, each part written as it is made: a large library is never held whole
        // with every entry (nor as one text, but where a terminal pages CSV or Markdown).
        session.noteMissingStore()
        let timeZone = session.timeZone
        switch format {
        case .json:
            let walk = try session.storage.historyWalk(arranging: Library.inExportOrder)
            try session.writeDocument(to: outputPath) { write in
                var text = LibraryExport.Text()
                try walk.forEachBook { book in
                    if let part = text.add(book) { try write(part) }
                }
                try write(try text.end(clubs: walk.library.clubs))
            }
        case .csv:
            let walk = try session.storage.historyWalk()
            try session.writeDocument(to: outputPath, pagedOnTerminal: true) { write in
                var text = GoodreadsCSV.Text(timeZone: timeZone)
                try walk.forEachBook { book in
                    if let part = text.add(book) { try write(part) }
                }
                try write(text.end())
            }
        case .markdown:
            // The journal shows no import's details.
            let walk = try session.storage.historyWalk(leavingDetails: true) {
                ReadingJournal.Text.arranged($0, timeZone: timeZone)
            }
            try session.writeDocument(to: outputPath, pagedOnTerminal: true) { write in
                var text = ReadingJournal.Text(walk.library.books, timeZone: timeZone)
                try walk.forEachBook { book in
                    if let part = text.add(book) { try write(part) }
                }
                try write(text.end())
            }
        }
    }
}
