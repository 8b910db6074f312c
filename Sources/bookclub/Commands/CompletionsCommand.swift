import BookClubCore

/// `bookclub completions bash|zsh|fish`: the completion script, generated from the command tree.
///
/// The scripts ask bookclub itself for book titles and club names while completing, through the
/// hidden `--titles` and `--clubs` flags: `bookclub completions --titles [--store PATH]` prints one
/// title a line. That listing only reads the store, never takes its lock, and prints nothing (exit 0)
/// when the store is absent or cannot be read, so that a broken store never spills into a prompt.
struct CompletionsCommand: Command {
    static let shell = Argument(
        name: "shell", help: "The shell. Omitted: the one $SHELL names, else bash.", isOptional: true,
        allowedValues: BuiltinFlags.supportedShells.sorted())
    static let titles = Flag(
        long: Listing.titles.rawValue, help: "Print the book titles, one a line.", isHidden: true)
    static let clubs = Flag(
        long: Listing.clubs.rawValue, help: "Print the club names, one a line.", isHidden: true)
    static let meetings = Flag(
        long: Listing.meetings.rawValue, help: "Print next and the meetings' dates, one a line.", isHidden: true)
    static let configuration = CommandConfiguration(
        name: "completions",
        abstract: "Print a completion script for bash, zsh or fish.",
        discussion: """
            The script completes commands, options, book titles and club names; it asks bookclub for \
            the titles as you type, so they stay current. To install it:
              bash: add  source <(bookclub completions bash)  to ~/.bashrc
              zsh:  bookclub completions zsh > ~/.zfunc/_bookclub  (~/.zfunc in $fpath)
              fish: bookclub completions fish > ~/.config/fish/completions/bookclub.fish
            """,
        examples: ["bookclub completions zsh > ~/.zfunc/_bookclub", "source <(bookclub completions bash)"],
        arguments: [shell],
        options: [titles, clubs, meetings, CommonOptions.json])

    /// What the hidden flags list; their names are the flags' (`--titles`, `--clubs`).
    enum Listing: String {
        case titles
        case clubs
        case meetings
    }

    var shell: String?
    var listing: Listing?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        shell = try arguments[Self.shell]
        json = arguments[CommonOptions.json]
        let listings = [(Listing.titles, Self.titles), (.clubs, Self.clubs), (.meetings, Self.meetings)].filter {
            arguments[$0.1]
        }.map(\.0)
        if listings.count > 1 {
            throw ParseError.exclusiveFlags(
                duplicate: "--" + listings[1].rawValue, previous: "--" + listings[0].rawValue)
        }
        listing = listings.first
        if listing != nil, let shell {
            throw ParseError.unexpectedArguments([shell])
        }
    }

    func run(in session: Session) throws {
        if let listing {
            if json { return try session.writeJSON(Self.candidates(listing, in: session)) }
            for candidate in Self.candidates(listing, in: session) {
                session.output.write(TerminalText(candidate), as: .data)
            }
            return
        }
        let shell = shell ?? BuiltinFlags.detectedShell(environment: session.variables)
        guard let script = CompletionScript.script(for: shell, root: CLI.root) else {
            throw ParseError.unsupportedShell(shell)
        }
        if json { return try session.writeJSON(DocumentJSON(name: shell, text: script)) }
        session.output.write(formatted: String(script.dropLast()) + "\n")
    }

    /// The titles or club names, cleaned for a prompt, without repeats, sorted; none when the store
    /// cannot be read.
    static func candidates(_ listing: Listing, in session: Session) -> [String] {
        session.missingStoreNoted = true  // nothing but the listing reaches a prompt
        guard let library = try? session.library().state else { return [] }
        let names =
            switch listing {
            case .titles: library.books.map(\.title)
            case .clubs: library.clubs.map(\.name)
            // A meeting is named by its date, or `next`.
            case .meetings:
                ["next"]
                    + library.clubs.flatMap(\.meetings).map { session.timeZone.local($0.date).isoDay }
            }
        let cleaned = Set(names.map { $0.withoutControlCharacters.trimmed }.filter { !$0.isEmpty })
        return cleaned.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }
}
