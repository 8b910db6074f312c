#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import BookClubCore

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
    static let book = ArgumentSpec(name: "book", help: "The book: an id or id prefix, a title, or words of it. Omitted: the selected book.", isOptional: true)
    static let date = OptionSpec(long: "date", kind: .value("when"), help: "When it happened: today, yesterday, 2026-11-20 or 2026-11-20T19:00.")
    static let note = OptionSpec(long: "note", kind: .value("text"), help: "A note to keep with it.")
}

/// What the commands that act on one book and may print it share: the `[<book>]` argument and `--json`.
struct BookTarget {
    var reference: String?
    var json: Bool

    init(_ arguments: ParsedArguments) {
        reference = arguments.argument("book")
        json = arguments.flag("json")
    }
}

extension ParsedArguments {
    /// The value of `--name`, parsed as a `WHEN`; `nil` when the option is absent. Only plans
    /// (`allowFuture`) may lie ahead: what happened cannot have happened tomorrow.
    func date(_ name: String, now: Date, timeZone: TimeZone, allowFuture: Bool = false) throws -> Date? {
        guard let text = value(name) else { return nil }
        guard let date = When.parse(text, now: now, timeZone: timeZone) else {
            throw ParseError.invalidValue(
                value: text, label: "--\(name) <when>",
                reason: "expected today, yesterday, a weekday, 2026-11-20 or 2026-11-20T19:00")
        }
        if !allowFuture && date > now.addingTimeInterval(60) {
            throw ParseError.invalidValue(value: text, label: "--\(name) <when>", reason: "that is in the future")
        }
        return date.wholeSeconds
    }

    /// A note as given, or `nil` when absent or blank.
    func note(_ name: String = "note") -> String? {
        guard let text = value(name)?.trimmed, !text.isEmpty else { return nil }
        return text
    }

    /// A whole number option within bounds.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw ParseError.invalidValue(
                value: text, label: "--\(name) <\(name)>", reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
