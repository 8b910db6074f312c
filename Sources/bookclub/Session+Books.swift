import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Session {
    /// The book a command names, or the scene's selection when it names none.
    ///
    /// - Returns: the book and how to refer to it in messages that name a fix.
    func resolveBook(_ reference: String?, in library: Library) throws -> (book: Book, reference: String) {
        if let reference {
            return (try library.resolve(reference), Self.shellWord(reference))
        }
        let scene = try scene().state
        if scene.selection == nil, let clubID = scene.club, let club = library.clubs.first(where: { $0.id == clubID }) {
            guard let id = club.currentBookID(at: services.now()), let book = library[id: id] else {
                throw BookClubError.noUpcomingBook(club: club.name)
            }
            return (book, Self.shellWord(book.title.lowercased()))
        }
        guard let id = scene.selection else { throw BookClubError.noSelection }
        guard let book = library[id: id] else {
            throw CommandFailure(
                "The selected book is no longer in the store. Name a book, or select one with `bookclub select BOOK`.")
        }
        return (book, Self.shellWord(book.title.lowercased()))
    }

    /// The club a command names, or the scene's selected club when it names none.
    func resolveClub(_ reference: String?, in library: Library) throws -> Club {
        if let reference { return try library.resolveClub(reference) }
        guard let id = try scene().state.club, let club = library.clubs.first(where: { $0.id == id }) else {
            throw CommandFailure(
                "No club given and none selected. Name a club, or select one with `bookclub select --club CLUB`.")
        }
        return club
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
