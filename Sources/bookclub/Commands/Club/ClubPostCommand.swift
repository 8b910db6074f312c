import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ClubPostCommand: Command {
    static let text = Argument(name: "text", help: "What you want to say.", parse: .note)
    static let at = Option(
        long: "at", kind: .value("place"),
        help:
            "The furthest place it may reveal: a page, a percent, or target (the next meeting's); default: where you are."
    )
    static let configuration = CommandConfiguration(
        name: "post",
        abstract: "Post a note to a shared club, hidden until read that far.",
        discussion: """
            The post is about the club's current book (--club-book to name another) and carries the \
            furthest place it may reveal: where you are in your linked copy, or lower with --at. Members \
            see it once their own copy passes that place; until then it is absent from everything they \
            see.
            """,
        examples: [
            "bookclub club post scifi \"The ending: did anyone see it coming?\"",
            "bookclub club post scifi \"Paul's first test\" --at 40",
        ],
        arguments: [ClubOptions.club, text],
        options: [at, ClubLinkCommand.clubBook, CommonOptions.json])

    var reference: String?
    var text: String
    var at: String?
    var clubBook: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        text = (try arguments[Self.text] ?? nil)?.nonBlank ?? ""
        guard !text.isEmpty else { throw ParseError.message("Give the text to post") }
        at = try arguments[Self.at]
        clubBook = try arguments[ClubLinkCommand.clubBook]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        try ClubOptions.requireMember(sync, club, "Nothing posted")
        let book = try ClubOptions.book(clubBook, of: club, now: session.now())
        let place = try ClubOptions.place(at, of: book, club: club, sync: sync, in: session)
        let id = session.makeID()
        let posted = try session.syncClub(
            &sync,
            publishing: [
                .post(id: id, book: book.id, at: place, text: text, quote: nil, place: nil, written: session.now())
            ])
        if json {
            let feed = ClubFeed(posted, me: sync.state.fingerprint, positions: [:])
            try session.writeJSON(SharedClubJSON.feed(feed, club: posted).posts.first { $0.id == id })
        } else {
            session.output.write(TerminalText(id), as: .data)
        }
        session.output.write(
            TerminalText(
                "Posted to \(club.name) about \(book.title), shown to members past \(SharedClubText.readerPlace(place)) of your copy."
            ),
            as: .message)
    }
}
