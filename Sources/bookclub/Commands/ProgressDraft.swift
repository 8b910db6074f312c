import BookClubCore

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `progress --edit`: an `EditorConfig` presented in the user's editor, the way `git commit` does it.
/// The store is not locked while the editor is open.
enum ProgressDraft {
    static func edit(reference: String?, session: Session) throws -> (ProgressValue, String?) {
        let (_, book, shellReference) = try session.chooseBook(reference)
        switch book.status {
        case .finished: throw BookClubError.finished(title: book.title, reference: shellReference)
        case .abandoned: throw BookClubError.abandoned(title: book.title, reference: shellReference)
        case .unstarted, .reading: break
        }
        if session.variables["VISUAL"]?.trimmed.isEmpty ?? true, session.variables["EDITOR"]?.trimmed.isEmpty ?? true,
            !session.terminal.standardInputIsTerminal
        {
            throw CommandFailure("No editor to open: set $VISUAL or $EDITOR, or run this on a terminal.")
        }
        var config = EditorConfig()
        config.present(initialProgress: book.currentProgress)
        let path = session.paths.drafts + "/progress-\(book.id.prefix(8)).txt"
        // A draft kept from an editor that was stopped is offered again, never overwritten.
        if try session.fileSystem.read(path) != nil {
            session.output.write("Resuming your draft kept at \(path).", as: .message)
        } else {
            try session.fileSystem.writeAtomically(path, Data(buffer(for: book, config: config).utf8))
        }
        // While the editor is open a Ctrl-C belongs to it (vim uses it), as in git; a SIGTERM, or a
        // Ctrl-C that ended the editor, stops here and keeps the draft.
        session.catchSignals(true)
        let edited = Result {
            try Editor.run(
                Editor.command(environment: session.variables), path: path, environment: session.variables,
                runner: session.runner)
        }
        let signal = session.receivedSignal()
        session.catchSignals(false)
        if signal == SIGTERM || (signal != 0 && (try? edited.get()) == nil) {
            throw BookClubError.interrupted(signal: signal, detail: "your draft is kept at \(path).")
        }
        do {
            try edited.get()
        } catch let failure as CommandFailure {
            throw CommandFailure(failure.message + " Your draft is kept at \(path).")
        }
        guard let text = try session.fileSystem.read(path).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw CommandFailure("The draft \(path) is gone; nothing was logged.")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#") }.map { String($0) }
        guard let first = lines.firstIndex(where: { !$0.trimmed.isEmpty }) else {
            _ = session.fileSystem.remove(path)
            throw CommandFailure("Empty draft; nothing was logged.")
        }
        let valueText = lines[first].trimmed
        guard let value = ProgressValue(parsing: valueText) else {
            throw CommandFailure(
                "'\(valueText)' is not a progress value (\(ProgressValue.problem(with: valueText) ?? "")); your draft is kept at \(path)."
            )
        }
        config.note = lines[(first + 1)...].joined(separator: "\n")
        let draft = config.commit()
        _ = session.fileSystem.remove(path)
        return (value, draft?.note)
    }

    static func buffer(for book: Book, config: EditorConfig) -> String {
        let seed = book.currentPage.map(String.init) ?? ProgressText.percent(config.progress)
        return """
            \(seed)

            # Progress for '\(book.title)', now \(ProgressText.describe(book)).
            # First line: a page (120), a percent (45%) or pages since the last entry (+20).
            # The lines after it: a note. Lines starting with '#' are ignored.
            # An empty draft logs nothing.

            """
    }
}
