import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ProgressCommand: Command {
    static let edit = Flag(long: "edit", short: "e", help: "Write the update in your editor.")
    static let value = Argument(
        name: "value", help: "120, 45%, +20, or in an audiobook 3:25. Required unless --edit.", isOptional: true)
    static let configuration = CommandConfiguration(
        name: "progress",
        abstract: "Log how far you have read.",
        discussion: """
            VALUE is a page (120), a percent (45%) or pages read since the last entry (+20). Logging the \
            value of the latest entry again, with no note, adds nothing. With --edit, your editor \
            ($VISUAL, else $EDITOR) opens on a draft: the first line is the value, the rest the note; \
            an empty draft logs nothing.
            """,
        examples: [
            "bookclub progress dune 120 --note \"the spice\"", "bookclub progress +30",
            "bookclub progress \"left hand\" 45% --date yesterday",
        ],
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
    var date: Date?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
        reference = try arguments[CommonOptions.book]
        date = try arguments[CommonOptions.date]
        let valueText = try arguments[Self.value]
        let note = try arguments[CommonOptions.note]
        if arguments[Self.edit] {
            guard valueText == nil, note == nil else {
                throw ParseError.message(
                    "--edit takes the value and note from the editor; give neither on the command line")
            }
            source = .editor
            return
        }
        var text = valueText
        if text == nil {
            // One argument is the value, unless it is plainly a book's name and the value was forgotten.
            guard let only = reference, !only.contains(where: \.isLetter) else {
                throw ParseError.missingArgument(label: "<value>", help: Self.value.spec.help)
            }
            (text, reference) = (only, nil)
        }
        guard let text, let value = ProgressValue(parsing: text) else {
            throw ParseError.invalidValue(
                value: text ?? "", label: "<value>", reason: ProgressValue.problem(with: text ?? ""))
        }
        source = .given(value, note: note ?? nil)
    }

    func run(in session: Session) throws {
        let given = date
        let (value, note): (ProgressValue, String?)
        switch source {
        case .given(let given, let givenNote): (value, note) = (given, givenNote)
        case .editor: (value, note) = try ProgressDraft.edit(reference: reference, session: session)
        }
        // The operation reads the book, and its history when the entry is backdated; the time is read
        // under the lock (see `LogProgress.date`).
        let logged = try session.perform(
            LogProgress(
                book: BookChoice(reference, in: session), value: value, note: note, date: given, clock: session.now,
                ids: session.ids)
        ).result
        let (book, updated, shellReference) = (logged.book, logged.book, logged.reference)
        switch logged.outcome {
        case .unchanged:
            session.output.write(
                "'\(book.title)' is already at \(ProgressText.describe(updated)); nothing logged.",
                as: .message)
        case .logged(let entry) where entry != updated.currentReading?.progress.latest:
            session.output.write(
                "'\(book.title)': logged \(ProgressText.place(entry)) on \(DateText.minute(entry.time, timeZone: session.timeZone)), before the latest entry; you are at \(ProgressText.describe(updated)).",
                as: .message)
        case .logged:
            session.output.write("'\(book.title)': \(ProgressText.describe(updated)).", as: .message)
            if updated.currentProgress >= 1 {
                session.output.write(
                    "That is the end of the book: run `bookclub finish \(shellReference)` to mark it done.",
                    as: .message)
            }
        }
        if json { try session.writeJSON(BookJSON(updated)) }
    }
}
