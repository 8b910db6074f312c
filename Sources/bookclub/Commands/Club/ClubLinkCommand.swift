import BookClubCore

struct ClubLinkCommand: Command {
    static let book = Argument(name: "book", help: "Your copy: an id, title or words of it.")
    static let clubBook = Option(
        long: "club-book", kind: .value("title"),
        help: "The club's book, by words of its title (default: the next meeting's).")
    static let configuration = CommandConfiguration(
        name: "link",
        abstract: "Link your copy of a shared club's book.",
        discussion: """
            A club's book is linked for you when your library holds it under the same ISBN, or the same \
            title and author; link it by hand when it does not (another edition, another title). Only \
            linked books publish progress, as the clubProgress setting says.
            """,
        examples: ["bookclub club link scifi dune", "bookclub club link scifi \"dune (1990)\" --club-book dune"],
        arguments: [ClubOptions.club, book],
        options: [clubBook, CommonOptions.json])

    var reference: String?
    var book: String
    var clubBook: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        book = try arguments[Self.book] ?? ""
        clubBook = try arguments[Self.clubBook]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        let chosen = try ClubOptions.book(clubBook, of: club, now: session.now())
        let own = try BookChoice(book, in: session).choose(in: try session.library().state).book
        try sync.link([chosen.id: own.id])
        let linked = try session.syncClub(&sync)
        if json { try session.writeJSON(SharedClubJSON.summary(linked, sync.state)) }
        session.output.write(
            TerminalText(
                "Linked \(club.name)'s \(chosen.title) to your \(own.title), at \(ProgressText.describe(own))."),
            as: .message)
    }
}
