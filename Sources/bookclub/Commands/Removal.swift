import BookClubCore

/// A command that removes something (`remove`, `club remove`): it asks first, unless `--yes`.
protocol Removal: Command {}

extension Removal {
    /// Asks before a deletion: on a terminal, a y/N question; elsewhere, only `--yes` goes ahead.
    func confirm(_ question: TerminalText, given confirmed: Bool, in session: Session) throws {
        guard !confirmed else { return }
        guard session.terminal.standardInputIsTerminal else {
            throw CommandFailure("Nothing removed: give --yes, as standard input is not a terminal to ask on.")
        }
        session.output.prompt(question + " [y/N] ")
        guard let answer = session.readLine()?.lowercased().trimmed, ["y", "yes"].contains(answer) else {
            throw CommandFailure("Nothing removed.")
        }
    }

    /// The library opened for writing and what `find` finds in it, asked about first (unless
    /// `confirmed`): the question is put before the store is locked, so that a person reading it never
    /// holds up a cron job, and `find` is run again under the lock, where what it finds must be what
    /// the question was about.
    func confirmThenLock<Target: Equatable>(
        given confirmed: Bool, in session: Session, find: (Library) throws -> Target,
        question: (Target) -> TerminalText
    ) throws -> (store: Store<Library>, target: Target) {
        guard !confirmed else {
            let store = try session.library(forWriting: true)
            return (store, try find(store.state))
        }
        let asked = try find(session.library().state)
        try confirm(question(asked), given: false, in: session)
        let store = try session.library(forWriting: true)
        guard let found = try? find(store.state), found == asked else {
            throw CommandFailure("Nothing removed: it changed while you were asked; run the command again.")
        }
        return (store, found)
    }
}
