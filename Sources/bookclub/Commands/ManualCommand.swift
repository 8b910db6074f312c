import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ManualCommand: Command {
    static let configuration = CommandConfiguration(
        name: "manual",
        abstract: "Print the manual page, bookclub(1), in roff.",
        discussion: """
            Made from the same definitions as --help. Read it with `bookclub manual | man -l -`, or \
            install it: bookclub manual > ~/.local/share/man/man1/bookclub.1
            """)

    init(_ arguments: ParsedArguments) throws {}

    func run(in env: Environment) throws {
        let page = ManualPage.render(root: CLI.root, date: CLI.releaseDate, description: Self.description, extra: Self.sections)
        env.output.write(String(page.dropLast()), as: .data)
    }

    static let description = [
        """
        bookclub keeps the books you read, the progress you log on each (a page, a percent, or pages since the last entry, with a note), how each reading ended, and your book clubs' meetings, in a store of plain JSON files that every change writes atomically under a lock.
        """,
        """
        Commands that take a book name it by id, id prefix, title or words of it; with none, they use the book selected with select. Commands that print data take --json. Data goes to standard output, messages and errors to standard error.
        """,
    ]

    static let sections: [ManualPage.Section] = [
        ManualPage.Section(
            title: "ENVIRONMENT",
            entries: [
                ("BOOKCLUB_STORE", "The store file, unless --store is given."),
                ("BOOKCLUB_SETTINGS", "The settings file, unless --settings is given."),
                ("BOOKCLUB_SCENE", "The name of the scene whose selection commands use (default: default)."),
                ("BOOKCLUB_NO_HOOKS", "When set and not empty, no hooks run (as --no-hooks)."),
                ("XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_STATE_HOME", "Where the store, the settings and hooks, and scenes and drafts live."),
                ("NO_COLOR", "When set and not empty, output is never coloured."),
                ("TERM", "dumb turns colour off unless --color always."),
                ("COLUMNS", "The width tables fit."),
                ("VISUAL, EDITOR", "The editor of progress --edit (default: vi)."),
            ]),
        ManualPage.Section(
            title: "FILES",
            entries: [
                ("~/.local/share/bookclub/store.json", "The store: books, readings, the latest entry of each, clubs."),
                ("store.json.history", "Every progress entry, one JSON object a line, appended only."),
                ("store.json.undo", "What undo and history need."),
                ("store.json.lock", "The lock every change holds; scripts may take it with flock(1)."),
                ("~/.config/bookclub/settings.json", "The settings."),
                ("~/.config/bookclub/hooks/", "on-add, on-progress, on-finish and on-change: run after a change is saved, with it as JSON on standard input."),
                ("~/.local/state/bookclub/scenes/", "Each scene's selected book or club."),
            ]),
        ManualPage.Section(
            title: "EXIT STATUS",
            entries: [
                ("0", "Done."),
                ("1", "The request is valid but cannot be done: no such book, an ambiguous name, a finished book."),
                ("64", "A usage error: an unknown command or option, a missing or malformed argument."),
                ("65", "A data file, a batch or an import cannot be read, or is of a newer schema; nothing was changed."),
                ("74", "Reading or writing a file failed."),
                ("75", "The store stayed locked by another bookclub past lockTimeout."),
                ("130, 143", "Interrupted by SIGINT or SIGTERM before anything was saved."),
            ]),
        ManualPage.Section(title: "SEE ALSO", entries: [(nil, "bookclub help COMMAND, bookclub COMMAND --help, and the README.")]),
    ]
}
