import BookClubCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// A command declares what it takes as typed values and reads them through the same values:
//
//     static let days = Option<Int>(long: "days", kind: .value("days"), help: "…", parse: .integer(in: 0...3650))
//     days = try arguments[Self.days] ?? 30
//
// so that an option no command declared cannot be read, and a value is parsed once, where it is read.

/// What a value is parsed against: the moment and the time zone of the command line (`WHEN` needs both).
struct ParseContext: Sendable {
    var now: Date
    var timeZone: Zone
}

/// A named option, flag or value, as the parser, the help and the completions see it.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// A positional argument as the parser and the help see it.
protocol ArgumentDeclaration: Sendable {
    var spec: ArgumentSpec { get }
}

extension OptionSpec: OptionDeclaration {
    var spec: OptionSpec { self }
}

extension ArgumentSpec: ArgumentDeclaration {
    var spec: ArgumentSpec { self }
}

/// `--name`, on or off.
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    init(long: String, short: Character? = nil, help: String, isInherited: Bool = false, isHidden: Bool = false) {
        spec = OptionSpec(
            long: long, short: short, kind: .flag, help: help, isInherited: isInherited, isHidden: isHidden)
    }
}

/// How the text of an option or argument becomes its value; a `ParseError` says why it cannot.
struct ValueParser<Value>: Sendable {
    let parse: @Sendable (_ text: String, _ label: String, _ context: ParseContext) throws -> Value
}

/// `--name <value>`, given once (the last one counts) or, with a `.repeatingValue` kind, several times.
struct Option<Value>: OptionDeclaration {
    let spec: OptionSpec
    let parser: ValueParser<Value>

    init(
        long: String, short: Character? = nil, kind: OptionSpec.Kind, help: String, allowedValues: [String]? = nil,
        defaultValue: String? = nil, isInherited: Bool = false, isHidden: Bool = false, parse: ValueParser<Value>
    ) {
        spec = OptionSpec(
            long: long, short: short, kind: kind, help: help, allowedValues: allowedValues, defaultValue: defaultValue,
            isInherited: isInherited, isHidden: isHidden)
        parser = parse
    }

    /// `--output <file>` and the like: `-o` in help, `<label>` in errors.
    var label: String { spec.valueName.map { "\(spec.longName) <\($0)>" } ?? spec.longName }
}

extension Option where Value == String {
    init(
        long: String, short: Character? = nil, kind: OptionSpec.Kind, help: String, allowedValues: [String]? = nil,
        defaultValue: String? = nil, isInherited: Bool = false, isHidden: Bool = false
    ) {
        self.init(
            long: long, short: short, kind: kind, help: help, allowedValues: allowedValues, defaultValue: defaultValue,
            isInherited: isInherited, isHidden: isHidden, parse: .text)
    }
}

/// A positional argument.
struct Argument<Value>: ArgumentDeclaration {
    let spec: ArgumentSpec
    let parser: ValueParser<Value>

    init(
        name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false,
        allowedValues: [String]? = nil, completion: CompletionValues? = nil, parse: ValueParser<Value>
    ) {
        spec = ArgumentSpec(
            name: name, help: help, isOptional: isOptional, isRepeating: isRepeating, allowedValues: allowedValues,
            completion: completion)
        parser = parse
    }
}

extension Argument where Value == String {
    init(
        name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false, allowedValues: [String]? = nil,
        completion: CompletionValues? = nil
    ) {
        self.init(
            name: name, help: help, isOptional: isOptional, isRepeating: isRepeating, allowedValues: allowedValues,
            completion: completion, parse: .text)
    }
}

extension ValueParser where Value == String {
    /// The text as given.
    static var text: ValueParser { ValueParser { text, _, _ in text } }

    /// A path: the text as given, but not empty.
    static var path: ValueParser {
        ValueParser { text, label, _ in
            guard !text.isEmpty else {
                throw ParseError.invalidValue(value: text, label: label, reason: "a path cannot be empty")
            }
            return text
        }
    }
}

extension ValueParser where Value == ISBN {
    /// An ISBN-10 or ISBN-13 with the right check digit, hyphens and spaces allowed.
    static var isbn: ValueParser {
        ValueParser { text, label, _ in
            guard let isbn = ISBN(text) else {
                throw ParseError.invalidValue(
                    value: text, label: label, reason: "not an ISBN: 10 or 13 digits with the right check digit")
            }
            return isbn
        }
    }
}

extension ValueParser where Value == String? {
    /// A note: the text trimmed, `nil` when blank.
    static var note: ValueParser { ValueParser { text, _, _ in text.nonBlank } }
}

extension ValueParser where Value == Int {
    /// A whole number within bounds.
    static func integer(in range: ClosedRange<Int>) -> ValueParser {
        ValueParser { text, label, _ in
            guard let number = Int(text), range.contains(number) else {
                throw ParseError.invalidValue(
                    value: text, label: label,
                    reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }
}

extension ValueParser where Value == Double {
    /// Stars, 0 to 5 in quarters.
    static var stars: ValueParser {
        ValueParser { text, label, _ in
            guard let rating = Rating.parse(text) else {
                throw ParseError.invalidValue(
                    value: text, label: label, reason: "expected 0 to 5 in steps of 0.25, such as 4.5")
            }
            return rating
        }
    }
}

extension ValueParser {
    /// This parser, but `nil` for a blank value, which clears a field (`--pages ""`).
    var clearable: ValueParser<Value?> {
        ValueParser<Value?> { text, label, context in
            text.trimmed.isEmpty ? nil : try parse(text, label, context)
        }
    }
}

extension ValueParser where Value == Date {
    /// A `WHEN`, at whole seconds. Only plans (`allowFuture`) may lie ahead: what happened cannot have
    /// happened tomorrow.
    static func when(allowFuture: Bool = false) -> ValueParser {
        ValueParser { text, label, context in
            guard
                let date = When.parse(
                    text, now: context.now, timeZone: context.timeZone, looking: allowFuture ? .ahead : .back)
            else {
                throw ParseError.invalidValue(
                    value: text, label: label, reason: "expected a date such as \(When.forms)")
            }
            if !allowFuture && date > context.now.addingTimeInterval(60) {
                throw ParseError.invalidValue(value: text, label: label, reason: "that is in the future")
            }
            return date.wholeSeconds
        }
    }
}

extension ValueParser where Value: RawRepresentable & SendableMetatype, Value.RawValue == String {
    /// One of the declared values (the parser has checked the text against them).
    static var choice: ValueParser {
        ValueParser { text, label, _ in
            guard let value = Value(rawValue: text) else {
                throw ParseError.invalidValue(value: text, label: label, reason: "not one of the allowed values")
            }
            return value
        }
    }
}

/// Which declarations a command read, for the test that every declared option is read.
final class ReadLog: Sendable {
    private let names = Mutex<Set<String>>([])

    func insert(_ name: String) {
        names.withLock { _ = $0.insert(name) }
    }

    var read: Set<String> { names.withLock { $0 } }
}

extension ParsedArguments {
    /// Whether the option was on the command line at all (its default does not count).
    func wasGiven(_ option: any OptionDeclaration) -> Bool {
        flagCounts[option.spec.long, default: 0] > 0 || optionValues[option.spec.long] != nil
    }

    subscript(_ flag: Flag) -> Bool {
        reads?.insert(flag.spec.long)
        return flagCounts[flag.spec.long, default: 0] > 0
    }

    /// The last value given, else the option's default, parsed; `nil` when neither.
    subscript<Value>(_ option: Option<Value>) -> Value? {
        get throws {
            reads?.insert(option.spec.long)
            guard let text = optionValues[option.spec.long]?.last ?? defaultValues[option.spec.long] else {
                return nil
            }
            return try option.parser.parse(text, option.label, context)
        }
    }

    /// Every value given to a repeating option, in order, parsed.
    subscript<Value>(every option: Option<Value>) -> [Value] {
        get throws {
            reads?.insert(option.spec.long)
            return try (optionValues[option.spec.long] ?? []).map { try option.parser.parse($0, option.label, context) }
        }
    }

    /// The argument's value, parsed; `nil` when it was not given.
    subscript<Value>(_ argument: Argument<Value>) -> Value? {
        get throws {
            reads?.insert(argument.spec.name)
            guard let text = positionalValues[argument.spec.name]?.first else { return nil }
            return try argument.parser.parse(text, argument.spec.label, context)
        }
    }

    /// Every value of a repeating argument, parsed.
    subscript<Value>(every argument: Argument<Value>) -> [Value] {
        get throws {
            reads?.insert(argument.spec.name)
            return try (positionalValues[argument.spec.name] ?? []).map {
                try argument.parser.parse($0, argument.spec.label, context)
            }
        }
    }
}

extension ValueParser where Value == Int {
    /// An audiobook's length: 11:40, 11h40m, 11h, 40m, or minutes.
    static var length: ValueParser {
        ValueParser { text, label, _ in
            guard let minutes = DurationText.minutes(parsing: text) else {
                throw ParseError.invalidValue(
                    value: text, label: label, reason: "expected hours and minutes, such as 11:40 or 11h40m")
            }
            return minutes
        }
    }
}

extension ValueParser where Value == Book.Format {
    /// A book's format: print, ebook or audiobook.
    static var format: ValueParser {
        ValueParser { text, label, _ in
            guard let format = Book.Format(rawValue: text.lowercased()) else {
                throw ParseError.invalidValue(value: text, label: label, reason: "expected print, ebook or audiobook")
            }
            return format
        }
    }
}
