import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Session {
    /// The book a command is about: `reference`, else the scene's selection, else the selected club's
    /// next book (`BookChoice`), quoted in messages as a shell word.
    func bookChoice(_ reference: String?) throws -> BookChoice {
        BookChoice(reference: reference, scene: try scene().state, now: services.now(), quote: Self.shellWord)
    }

    /// The club a command is about: `reference`, else the scene's selected club.
    func clubChoice(_ reference: String?) throws -> ClubChoice {
        ClubChoice(reference: reference, scene: try scene().state)
    }

    /// The library opened for `operation` (see `library(forWriting:scope:)`): the books it names, and
    /// the histories it asks for once resolved against them; and its plan, to apply.
    func library<Operation: LibraryOperation>(forWriting: Bool = false, for operation: Operation) throws -> (
        store: Store<Library>, plan: OperationPlan<Operation.Result>
    ) {
        var plan: OperationPlan<Operation.Result>?
        let store = try library(forWriting: forWriting, scope: LibraryScope(for: operation) { plan = $0 })
        // A library this command opened already is not read again: the operation is resolved against
        // it, and a rule that needs a history it lacks says so.
        return (store, try plan ?? operation.resolve(in: store.state))
    }

    /// Performs a change: the library opened for writing with what `operation` reads, and the
    /// operation applied as the command's one change.
    func perform<Operation: LibraryOperation>(_ operation: Operation) throws -> (
        store: Store<Library>, result: Operation.Result
    ) {
        let (store, plan) = try library(forWriting: true, for: operation)
        return (store, try store.update { try plan.apply(&$0) })
    }

    /// Computes a report, or a change on a copy (a dry run): the library opened with what `operation`
    /// reads, for writing when `forWriting`, and left as it is.
    func compute<Operation: LibraryOperation>(_ operation: Operation, forWriting: Bool = false) throws -> (
        library: Library, result: Operation.Result
    ) {
        let (store, plan) = try library(forWriting: forWriting, for: operation)
        return (store.state, try plan.result(in: store.state))
    }

    /// The book a command is about, in the library opened for it (reading only that book's line when
    /// named or selected), and how messages refer to it.
    func chooseBook(_ reference: String?, forWriting: Bool = false) throws -> (
        store: Store<Library>, book: Book, reference: String
    ) {
        let (store, plan) = try library(forWriting: forWriting, for: bookChoice(reference))
        let chosen = try plan.result(in: store.state)
        return (store, chosen.book, chosen.reference)
    }

    /// Asks before a deletion: on a terminal, a y/N question; elsewhere, only `--yes` goes ahead.
    func confirm(_ question: TerminalText, given confirmed: Bool) throws {
        guard !confirmed else { return }
        guard services.terminal.standardInputIsTerminal else {
            throw CommandFailure("Nothing removed: give --yes, as standard input is not a terminal to ask on.")
        }
        output.prompt(question + " [y/N] ")
        guard let answer = services.readLine()?.lowercased().trimmed, ["y", "yes"].contains(answer) else {
            throw CommandFailure("Nothing removed.")
        }
    }

    /// The library opened for writing and what `find` finds in it, asked about first (unless
    /// `confirmed`): the question is put before the store is locked, so that a person reading it never
    /// holds up a cron job, and `find` is run again under the lock, where what it finds must be what
    /// the question was about.
    func confirmThenLock<Target: Equatable>(
        given confirmed: Bool, find: (Library) throws -> Target, question: (Target) -> TerminalText
    ) throws -> (store: Store<Library>, target: Target) {
        guard !confirmed else {
            let store = try library(forWriting: true)
            return (store, try find(store.state))
        }
        let asked = try find(library().state)
        try confirm(question(asked), given: false)
        let store = try library(forWriting: true)
        guard let found = try? find(store.state), found == asked else {
            throw CommandFailure("Nothing removed: it changed while you were asked; run the command again.")
        }
        return (store, found)
    }

    /// A reference as it would be typed in a shell: bare when safe, else single-quoted.
    static func shellWord(_ text: String) -> String {
        // Control characters and bidirectional marks go in ANSI-C quotes (bash, zsh and ksh
        // read `$'\u202e'`), so that the word is safe to print and still the same when pasted.
        if text.unicodeScalars.contains(where: \.isTerminalUnsafe) {
            var quoted = "$'"
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\", "'": quoted += "\\" + String(scalar)
                case _ where scalar.isTerminalUnsafe:
                    let hex = String(scalar.value, radix: 16)
                    quoted += scalar.value < 0x80 ? "\\x" + hex.zeroPadded(to: 2) : "\\u" + hex.zeroPadded(to: 4)
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "'"
        }
        let safe = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "-_.+%@:,=/".contains($0) }
        return safe ? text : text.shellQuoted
    }
}
