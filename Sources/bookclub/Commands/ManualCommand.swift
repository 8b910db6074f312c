import BookClubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bookclub manual`: the manual page bookclub(1), generated from the command definitions that
/// `--help` shows, plus the environment, the files and the exit codes.
struct ManualCommand: Command {
    static let configuration = CommandConfiguration(
        name: "manual",
        abstract: "Print the manual page bookclub(1), in roff.",
        discussion: "Install it with: bookclub manual > ~/.local/share/man/man1/bookclub.1",
        examples: ["bookclub manual | man -l -"],
        options: [CommonOptions.json])

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let page = ManualPage.render(root: CLI.root, date: CLI.versionDate, sections: Self.sections)
        if json { return try session.writeJSON(DocumentJSON(name: "bookclub.1", text: page)) }
        session.output.write(formatted: String(page.dropLast()) + "\n")
    }

    /// DATES, ENVIRONMENT, FILES and EXIT STATUS; the paths and codes come from the code that uses them.
    static var sections: [ManualPage.Section] {
        let paths = Paths(environment: ["HOME": "~", "BOOKCLUB_SCENE": "NAME"])
        let storage = LibraryStorage(path: "STORE", fileSystem: .live, ids: Services.randomIDs)
        let environment = ManualPage.Section(
            title: "Environment",
            items: [
                ("BOOKCLUB_STORE", "The store file, unless --store is given."),
                ("BOOKCLUB_SETTINGS", "The settings file, unless --settings is given."),
                (
                    "BOOKCLUB_SCENE",
                    "The scene: each has its own selected book or club, so that two shells can work on one store apart (default: default)."
                ),
                (
                    "BOOKCLUB_PAGER, PAGER",
                    "The pager for output taller than the terminal (default: less -FRX); empty or cat for none."
                ),
                ("XDG_DATA_HOME", "Where the store is kept (default: ~/.local/share)."),
                ("XDG_CONFIG_HOME", "Where the settings are kept (default: ~/.config)."),
                (
                    "XDG_STATE_HOME",
                    "Where the scenes and the drafts of progress --edit are kept (default: ~/.local/state)."
                ),
                ("HOME", "The base of the defaults above."),
                ("VISUAL, EDITOR", "The editor of progress --edit, the first that is set (default: vi)."),
                ("NO_COLOR", "When set and not empty, output is never coloured."),
                ("TERM", "When dumb, output is not coloured unless --color always asks for it."),
                ("COLUMNS", "The width of help and tables (default: the terminal's)."),
                ("SHELL", "The shell completions writes a script for when none is named."),
                (
                    "TZ",
                    "The time zone of the dates given and shown: a zone name (America/New_York), a POSIX rule (EST5EDT,M3.2.0,M11.1.0) or unset for /etc/localtime. One bookclub cannot read is UTC, with a warning."
                ),
                ("TZDIR", "Where the zone names are looked up (default: /usr/share/zoneinfo)."),
            ])
        let dates = ManualPage.Section(
            title: "Dates",
            paragraphs: [
                "A WHEN is read in your time zone: \(When.forms); any of these may end with a time (19:00, 7pm, noon), and a time alone is today.",
                "A bare weekday, or a day and month without a year, is the most recent one for what happened (friday on a Friday is today) and the next one for meetings. last and next never mean today.",
                "A day given without a time is noon of that day, except today, which is now. A time skipped when clocks spring forward is read with the offset before the jump; a time that happens twice when they fall back is the first.",
            ])
        let files = ManualPage.Section(
            title: "Files",
            paragraphs: ["STORE stands for the store file, whose companions are named after it."],
            items: [
                (
                    paths.store,
                    "The store: the books, their readings and the clubs, as JSON (under $XDG_DATA_HOME when set)."
                ),
                (
                    storage.journalPath,
                    "The changes since the store was last written whole, a JSON object a line, appended."
                ),
                (storage.historyPath, "Every progress entry, one JSON object a line, appended."),
                (storage.lockPath, "Locked (flock(2)) by a command while it changes the store."),
                (
                    storage.undoPath,
                    "The last commands that changed the store, for undo: \(LibraryStorage.undoDepth) or more, with the log before it."
                ),
                (storage.previousUndoPath, "The undo log before the current one, set aside whole."),
                (storage.namesPath, "The books by title, an index rebuilt from the store when out of date."),
                (storage.listingPath, "The books as `list` shows them, rebuilt from the store when out of date."),
                (storage.backupPath(version: 1), "The store as it was before its format was first upgraded."),
                (paths.settings, "The settings (under $XDG_CONFIG_HOME when set)."),
                (paths.scene, "The selection of the scene NAME (under $XDG_STATE_HOME when set)."),
                (paths.drafts, "The drafts of progress --edit while the editor is open."),
            ])
        let exitStatus = ManualPage.Section(
            title: "Exit status",
            items: [
                ("0", "Done."),
                (
                    "\(ErrorReport.exitCode(.rejected))",
                    "The request is valid but cannot be done: no such book, an ambiguous reference, a finished book; or doctor found a problem."
                ),
                (
                    "\(CLI.usageErrorCode)",
                    "A usage error: an unknown command or option, a missing or malformed argument."
                ),
                (
                    "\(ErrorReport.exitCode(.dataFile))",
                    "A data file is unreadable or of a newer format; it is left untouched."
                ),
                ("\(ErrorReport.exitCode(.io))", "Reading or writing a file failed."),
                (
                    "\(ErrorReport.exitCode(.busy))",
                    "The store stayed locked by another command past the lockTimeout setting; try again."
                ),
                (
                    "\(ErrorReport.exitCode(.interrupted(signal: SIGINT)))",
                    "Stopped by SIGINT (Ctrl-C) before its changes were saved."
                ),
                (
                    "\(ErrorReport.exitCode(.interrupted(signal: SIGTERM)))",
                    "Stopped by SIGTERM before its changes were saved."
                ),
            ])
        return [dates, environment, files, exitStatus]
    }
}
