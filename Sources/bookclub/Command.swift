import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One subcommand: its configuration (which drives both parsing and help), how it reads its parsed
/// arguments, and what it does.
///
/// Every command has this one shape (declarations, configuration, an `init` that reads them, a thin
/// `run`), as every `--json` type in `Rendering/` is a list of fields: the `duplicates` tool pairs
/// them by shape, and that sameness is the form, not code written twice.
protocol Command: SendableMetatype {
    static var configuration: CommandConfiguration { get }
    /// Whether the other devices' changes are applied before the command and its own recorded after
    /// it (when the store syncs); `sync` does both itself.
    static var syncsAround: Bool { get }
    init(_ arguments: ParsedArguments) throws
    func run(in session: Session) throws
}

extension Command {
    static var syncsAround: Bool { true }
}

/// A command that only holds others (`bookclub club …`): its configuration, and its subcommands in
/// the order of its help.
protocol CommandGroup: SendableMetatype {
    static var configuration: CommandConfiguration { get }
    static var subcommands: [any Command.Type] { get }
}

/// Options many commands share, declared once.
enum CommonOptions {
    static let json = Flag(long: "json", help: "Print the result as JSON.")
    static let book = Argument(
        name: "book", help: "The book: an id or id prefix, a title, or words of it. Omitted: the selected book.",
        isOptional: true)
    static let date = Option(
        long: "date", kind: .value("when"),
        help:
            "When it happened: today, friday, last friday 19:00, 2 days ago, -2d, 20 nov or 2026-11-20T19:00 (a day alone is noon; today is now).",
        parse: .when())
    /// `nil` inside when given blank.
    static let note = Option(long: "note", kind: .value("text"), help: "A note to keep with it.", parse: .note)
    /// `nil` inside when given empty, which clears a rating.
    static let rating = Option(
        long: "rating", kind: .value("stars"), help: "Your rating, 0 to 5 in quarters (4.5, 3.75).",
        parse: ValueParser<Double>.stars.clearable)
    /// `nil` inside when given blank, which clears a review.
    static let review = Option(long: "review", kind: .value("text"), help: "Your review.", parse: .note)

    static func output(_ help: String) -> Option<String> {
        Option(long: "output", short: "o", kind: .value("file"), help: help, parse: .path)
    }
}

/// A command about one book that may print it (`show`, `reread`, `unfinish`): it takes `[<book>]`
/// and `--json`, read into its `target`.
protocol BookCommand: Command {
    init(target: BookTarget)
}

extension BookCommand {
    init(_ arguments: ParsedArguments) throws {
        self.init(target: try BookTarget(arguments))
    }
}

/// What the commands that act on one book and may print it share: the `[<book>]` argument and `--json`.
struct BookTarget {
    var reference: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[CommonOptions.book]
        json = arguments[CommonOptions.json]
    }
}

extension Session {
    /// A path given on the command line, made absolute from the working directory.
    func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : services.workingDirectory + "/" + path
    }

    /// A document for people (Markdown) to standard output, or written atomically to `path`
    /// (readable by its owner only): its values' control characters shown either way.
    func writeDocument(_ text: TerminalText, to path: String?) throws {
        if let path {
            try writeFile(Data(text.string.utf8), to: path)
        } else {
            // `write` adds the last line break back.
            output.write(
                text.string.hasSuffix("\n") ? TerminalText(layout: String(text.string.dropLast())) : text, as: .data)
        }
    }

    /// A document kept exact (CSV) to standard output, or written atomically to `path` (readable by
    /// its owner only). Standard output gets it as is, but a terminal gets it with control
    /// characters shown escaped.
    func writeDocument(formatted text: String, to path: String?) throws {
        if let path {
            try writeFile(Data(text.utf8), to: path)
        } else {
            let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
            if services.terminal.standardOutputIsTerminal {
                output.write(TerminalText(keepingLineBreaks: body), as: .data)
            } else {
                output.write(formatted: body + "\n")
            }
        }
    }

    /// A document too large to hold (an export of a long history), handed over a part at a time by
    /// `produce`: to standard output as each part comes, or written atomically to `path` (readable by
    /// its owner only) and said so. A terminal gets it escaped as `writeNow` writes it, or, when
    /// `pagedOnTerminal`, whole as `writeDocument(formatted:to:)` writes it (through the pager).
    func writeDocument(
        to path: String?, pagedOnTerminal: Bool = false, parts produce: ((Data) throws -> Void) throws -> Void
    ) throws {
        if let path {
            // A Ctrl-C or SIGTERM while the parts are written is only recorded, and stops the write at
            // the next part: the temporary file is taken away, the file named left as it was.
            services.catchSignals(true)
            defer { services.catchSignals(false) }
            try services.fileSystem.writeOutput(absolutePath(path), produce)
            output.write("Wrote \(path).", as: .message)
        } else if pagedOnTerminal, services.terminal.standardOutputIsTerminal {
            var whole = Data()
            try produce { whole.append($0) }
            try writeDocument(formatted: String(decoding: whole, as: UTF8.self), to: nil)
        } else {
            try produce { writeNow($0) }
        }
    }

    /// Writes `data` to `path` as `FileSystem.writeOutput` does (atomically, readable by its owner only,
    /// when it is a plain file) and says so.
    func writeFile(_ data: Data, to path: String) throws {
        try services.fileSystem.writeOutput(absolutePath(path)) { try $0(data) }
        output.write("Wrote \(path).", as: .message)
    }

    /// Writes text to standard output at once rather than after the save: for a command that
    /// changes nothing and whose output is too large to hold (`export`).
    func writeNow(_ text: String) {
        services.write(
            services.terminal.standardOutputIsTerminal ? TerminalText(keepingLineBreaks: text).string : text, true)
    }

    /// Text a renderer laid out from `TerminalText` (a table), as UTF-8 lines that `produce` gives a
    /// piece at a time: to a terminal, whole, as text held and paged as any other; elsewhere each
    /// piece at once, as it is, for a command that changes nothing (`list`): made a string, a
    /// megabyte of it is checked as UTF-8 again, a millisecond.
    func write(laidOut produce: ((UnsafeRawBufferPointer) -> Void) -> Void) {
        if let writeBytes = services.writeBytes, !services.terminal.standardOutputIsTerminal {
            // What was held before it (a warning) goes first, as it would have.
            flushOutput()
            return produce(writeBytes)
        }
        var lines: [UInt8] = []
        produce { lines.append(contentsOf: $0) }
        output.write(TerminalText(layout: String(decoding: lines.dropLast(), as: UTF8.self)), as: .data)
    }

    /// The same for UTF-8 text as bytes, which go out as they are unless to a terminal.
    func writeNow(_ text: Data) {
        guard let writeBytes = services.writeBytes, !services.terminal.standardOutputIsTerminal else {
            return writeNow(String(decoding: text, as: UTF8.self))
        }
        text.withUnsafeBytes(writeBytes)
    }
}
