import BookClubCore

struct ClubFeedCommand: Command {
    static let spoilers = Flag(long: "spoilers", help: "Show every post, however far you have read.")
    static let configuration = CommandConfiguration(
        name: "feed",
        abstract: "What members shared that you have read far enough to see.",
        discussion: "A post stays hidden until your linked copy passes the place it may reveal; --spoilers shows all.",
        examples: ["bookclub club feed scifi", "bookclub club feed scifi --json"],
        arguments: [ClubOptions.club],
        options: [spoilers, CommonOptions.json])

    var reference: String?
    var spoilers: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        spoilers = arguments[Self.spoilers]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        let feed = ClubFeed(
            club, me: sync.state.fingerprint, positions: try session.clubPositions(sync), spoilers: spoilers)
        if json {
            try session.writeJSON(SharedClubJSON.feed(feed, club: club))
            return
        }
        if feed.shown.isEmpty { session.output.write("Nothing posted that you can see yet.", as: .message) }
        for post in feed.shown {
            for line in SharedClubText.post(
                post, club: club, bookTitle: club.book(post.book)?.title, timeZone: session.timeZone)
            {
                session.output.write(line, as: .data)
            }
        }
        if let hidden = SharedClubText.hidden(feed) { session.output.write(hidden, as: .message) }
    }
}
