import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ProgressCommand: Command {
    static let edit = OptionSpec(long: "edit", short: "e", kind: .flag, help: "Write the update in your editor.")
    static let value = ArgumentSpec(name: "value", help: "120, 45% or +20. Required unless --edit.", isOptional: true)
    static let configuration = CommandConfiguration(
        name: "progress",
        abstract: "Log how far you have read.",
        discussion: """
            VALUE is a page (120), a percent (45%) or pages read since the last entry (+20). Logging the \
            value of the latest entry again, with no note, adds nothing. With --edit, your editor \
            ($VISUAL, else $EDITOR) opens on a draft: the first line is the value, the rest the note; \
            an empty draft logs nothing.
            """,
        arguments: [
            CommonOptions.book,
            value,
        ],
        options: [
            CommonOptions.note,
            CommonOptions.date,
            edit,
            CommonOptions.json,
        ])

    /// Where the value and note come from.
    enum Source {
        case given(ProgressValue, note: String?)
        case editor
    }

    var reference: String?
    var source: Source
    var json: Bool
    private var arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        json = arguments.flag(CommonOptions.json)
        reference = arguments.argument(CommonOptions.book)
        if arguments.flag(Self.edit) {
            guard arguments.argument(Self.value) == nil, arguments.value(CommonOptions.note) == nil else {
                throw ParseError.message(
                    "--edit takes the value and note from the editor; give neither on the command line")
            }
            source = .editor
            return
        }
        var valueText = arguments.argument(Self.value)
        if valueText == nil {
            // One argument is the value, unless it is plainly a book's name and the value was forgotten.
            guard let only = reference, !only.contains(where: \.isLetter) else {
                throw ParseError.missingArgument(label: "<value>", help: "120, 45% or +20. Required unless --edit.")
            }
            (valueText, reference) = (only, nil)
        }
        guard let text = valueText, let value = ProgressValue(parsing: text) else {
            throw ParseError.invalidValue(
                value: valueText ?? "", label: "<value>", reason: ProgressValue.problem(with: valueText ?? ""))
        }
        source = .given(value, note: arguments.note(CommonOptions.note))
    }

    func run(in env: Environment) throws {
        let given = try arguments.date(CommonOptions.date, now: env.now(), timeZone: env.timeZone)
        let (value, note): (ProgressValue, String?)
        switch source {
        case .given(let given, let givenNote): (value, note) = (given, givenNote)
        case .editor: (value, note) = try ProgressDraft.edit(reference: reference, env: env)
        }
        // A backdated entry is placed among, and counts from, the entries before it: its book comes
        // with its history.
        let scope = try env.scope(forBook: reference).withHistory { library in
            guard let given, let book = try? env.resolveBook(reference, in: library).book,
                let latest = book.currentReading?.progress.latest, given < latest.time
            else { return [] }
            return [book.id]
        }
        let store = try env.library(forWriting: true, scope: scope)
        // Without --date, the entry is dated now, read under the lock, and never before the latest one:
        // a command that waited for the lock must not slip in behind the entries it waited for.
        let (book, shellReference) = try env.resolveBook(reference, in: store.state)
        let time = given ?? max(env.now().wholeSeconds, book.currentReading?.progress.latest?.time ?? .distantPast)
        let outcome = try store.update {
            try $0.logProgress(value, note: note, at: time, bookID: book.id, reference: shellReference)
        }
        let updated = store.state[id: book.id]!
        switch outcome {
        case .unchanged:
            env.output.write(
                "'\(book.title.terminalSafe)' is already at \(ProgressText.describe(updated)); nothing logged.",
                as: .message)
        case .logged(let entry) where entry != updated.currentReading?.progress.latest:
            env.output.write(
                "'\(book.title.terminalSafe)': logged \(ProgressText.place(entry)) on \(DateText.minute(entry.time, timeZone: env.timeZone)), before the latest entry; you are at \(ProgressText.describe(updated)).",
                as: .message)
        case .logged:
            env.output.write("'\(book.title.terminalSafe)': \(ProgressText.describe(updated)).", as: .message)
            if updated.currentProgress >= 1 {
                env.output.write(
                    "That is the end of the book: run `bookclub finish \(shellReference)` to mark it done.",
                    as: .message)
            }
        }
        if json { try env.writeJSON(BookJSON(updated)) }
    }
}
