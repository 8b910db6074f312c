import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One subcommand: its configuration (which drives both parsing and help), how it reads its parsed
/// arguments, and what it does.
protocol Command {
    static var configuration: CommandConfiguration { get }
    init(_ arguments: ParsedArguments) throws
    func run(in env: Environment) throws
}

/// Options many commands share, declared once.
enum CommonOptions {
    static let json = OptionSpec(long: "json", kind: .flag, help: "Print the result as JSON.")
    static let book = ArgumentSpec(
        name: "book", help: "The book: an id or id prefix, a title, or words of it. Omitted: the selected book.",
        isOptional: true)
    static let date = OptionSpec(
        long: "date", kind: .value("when"),
        help:
            "When it happened: today, friday, last friday 19:00, 2 days ago, -2d, 20 nov or 2026-11-20T19:00 (a day alone is noon; today is now)."
    )
    static let note = OptionSpec(long: "note", kind: .value("text"), help: "A note to keep with it.")
    static let rating = OptionSpec(
        long: "rating", kind: .value("stars"), help: "Your rating, 0 to 5 in quarters (4.5, 3.75).")
    static let review = OptionSpec(long: "review", kind: .value("text"), help: "Your review.")

    static func output(_ help: String) -> OptionSpec {
        OptionSpec(long: "output", short: "o", kind: .value("file"), help: help)
    }
}

/// What the commands that act on one book and may print it share: the `[<book>]` argument and `--json`.
struct BookTarget {
    var reference: String?
    var json: Bool

    init(_ arguments: ParsedArguments) {
        reference = arguments.argument(CommonOptions.book)
        json = arguments.flag(CommonOptions.json)
    }
}

extension ParsedArguments {
    /// The value of `--name`, parsed as a `WHEN`; `nil` when the option is absent. Only plans
    /// (`allowFuture`) may lie ahead: what happened cannot have happened tomorrow.
    func date(_ option: OptionSpec, now: Date, timeZone: Zone, allowFuture: Bool = false) throws -> Date? {
        guard let text = value(option) else { return nil }
        let name = option.long
        guard let date = When.parse(text, now: now, timeZone: timeZone, looking: allowFuture ? .ahead : .back) else {
            throw ParseError.invalidValue(
                value: text, label: "--\(name) <when>", reason: "expected a date such as \(When.forms)")
        }
        if !allowFuture && date > now.addingTimeInterval(60) {
            throw ParseError.invalidValue(value: text, label: "--\(name) <when>", reason: "that is in the future")
        }
        return date.wholeSeconds
    }

    /// The `--output` file as given, or `nil` when absent; an empty name is refused.
    func outputPath(_ option: OptionSpec) throws -> String? {
        guard let path = value(option) else { return nil }
        if path.isEmpty {
            throw ParseError.invalidValue(value: path, label: "--output <file>", reason: "a file name cannot be empty")
        }
        return path
    }

    /// A note as given, or `nil` when absent or blank.
    func note(_ option: OptionSpec) -> String? {
        guard let text = value(option)?.trimmed, !text.isEmpty else { return nil }
        return text
    }

    /// `--rating`: `nil` when absent, `.some(nil)` when empty (to clear), else 0 to 5 in quarters.
    func rating(_ option: OptionSpec) throws -> Double?? {
        guard let text = value(option) else { return nil }
        if text.trimmed.isEmpty { return .some(nil) }
        guard let rating = Rating.parse(text) else {
            throw ParseError.invalidValue(
                value: text, label: "--rating <stars>", reason: "expected 0 to 5 in steps of 0.25, such as 4.5")
        }
        return rating
    }

    /// A whole number option within bounds.
    func integer(_ option: OptionSpec, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(option) else { return nil }
        let name = option.long
        guard let number = Int(text), range.contains(number) else {
            throw ParseError.invalidValue(
                value: text, label: "--\(name) <\(name)>",
                reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

extension Environment {
    /// A path given on the command line, made absolute from the working directory.
    func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : workingDirectory + "/" + path
    }

    /// A document (Markdown, CSV, JSON) to standard output, or written atomically to `path`
    /// (readable by its owner only). Standard output gets it as is, but a terminal gets it with
    /// control characters shown escaped.
    func writeDocument(_ text: String, to path: String?) throws {
        if let path {
            try writeFile(Data(text.utf8), to: path)
        } else {
            let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
            output.write(terminal.standardOutputIsTerminal ? body.terminalSafeKeepingNewlines : body, as: .data)
        }
    }

    /// Writes `data` atomically to `path` (readable by its owner only) and says so.
    func writeFile(_ data: Data, to path: String) throws {
        try fileSystem.writeAtomically(absolutePath(path), data)
        output.write("Wrote \(path.terminalSafe).", as: .message)
    }

    /// Writes text to standard output at once rather than after the save: for a command that
    /// changes nothing and whose output is too large to hold (`export`).
    func writeNow(_ text: String) {
        sink(terminal.standardOutputIsTerminal ? text.terminalSafeKeepingNewlines : text, true)
    }
}
