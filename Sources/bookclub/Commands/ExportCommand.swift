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
        func library() throws -> Library { try session.library(scope: .everything.withHistory).state }
        switch (format, outputPath) {
        case (.json, nil):
            // A few books at a time: a large library is never held whole, nor as one text.
            session.noteMissingStore()
            let walk = try session.storage.historyWalk(ordered: true)
            var text = LibraryExport.Text()
            try walk.forEachBook { book in
                if let chunk = text.add(book) { session.writeNow(chunk) }
            }
            session.writeNow(try text.end(clubs: walk.library.clubs))
        case (.json, let path?):
            try session.writeFile(try LibraryExport(library()).encoded(), to: path)
        case (.csv, _):
            try session.writeDocument(
                formatted: GoodreadsCSV.render(library(), timeZone: session.timeZone), to: outputPath)
        case (.markdown, _):
            try session.writeDocument(ReadingJournal.markdown(library(), timeZone: session.timeZone), to: outputPath)
        }
    }
}
