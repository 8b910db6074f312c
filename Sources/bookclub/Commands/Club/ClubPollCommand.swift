import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ClubPollCommand: Command {
    static let question = Argument(name: "question", help: "What the club decides.", parse: .note)
    static let option = Option(
        long: "option", kind: .repeatingValue("text"), help: "An option in words; repeat for more.")
    static let book = Option(
        long: "book", kind: .repeatingValue("book"),
        help: "A book of your library as an option (with its ISBN, so that it can become the next book).")
    static let ranked = Flag(long: "ranked", help: "Members rank the options; counted by instant runoff.")
    static let approval = Flag(long: "approval", help: "Members approve any number of options; most approvals win.")
    static let closes = Option(
        long: "closes", kind: .value("when"),
        help: "When voting ends unless a host closes it first: friday 20:00, in 1 week, 2026-12-03T19:00.",
        parse: .when(allowFuture: true))
    static let configuration = CommandConfiguration(
        name: "poll",
        abstract: "Open a poll in a shared club: one choice, ranked or approval.",
        discussion: """
            Options are books (--book, from your library) or words (--option), 2 to 50 of them. Every \
            member's home counts the same ballots the same way: a member's latest ballot before the \
            close counts, and the close counts what the closer had read of each member's log. Hosts \
            open polls, unless the club's policy lets every member (club policy --polls members).
            """,
        examples: [
            "bookclub club poll scifi \"Next book?\" --book dune --book piranesi --ranked",
            "bookclub club poll scifi \"Which evening?\" --option Tue --option Thu --approval",
            "bookclub club poll scifi \"Online?\" --option yes --option no --closes friday",
        ],
        arguments: [ClubOptions.club, question],
        options: [option, book, ranked, approval, closes, CommonOptions.json])

    var reference: String?
    var question: String
    var options: [String]
    var books: [String]
    var method: ClubPoll.Method
    var closes: Date?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        question = (try arguments[Self.question] ?? nil) ?? ""
        guard !question.isEmpty, question.count <= 200 else {
            throw ParseError.message("Give the question, in 1 to 200 characters")
        }
        options = try arguments[every: Self.option].map { $0.trimmed }
        books = try arguments[every: Self.book]
        let (ranked, approval) = (arguments[Self.ranked], arguments[Self.approval])
        if ranked && approval { throw ParseError.exclusiveFlags(duplicate: "--approval", previous: "--ranked") }
        method = ranked ? .ranked : approval ? .approval : .single
        closes = try arguments[Self.closes]
        json = arguments[CommonOptions.json]
        let count = options.count + books.count
        guard (2...ClubPoll.maximumOptions).contains(count) else {
            throw ParseError.message(
                "A poll has 2 to \(ClubPoll.maximumOptions) options (--option, --book); \(count) given")
        }
        if let blank = options.first(where: { $0.isEmpty || $0.count > 200 }) {
            throw ParseError.invalidValue(value: blank, label: "--option <text>", reason: "1 to 200 characters")
        }
    }

    func run(in session: Session) throws {
        let now = session.now()
        if let closes, closes <= now {
            throw CommandFailure(
                "--closes \(DateText.minute(closes, timeZone: session.timeZone)) has passed: give a time to come.")
        }
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        try ClubOptions.requireMember(sync, club, "No poll opened")
        guard club.mayOpenPolls(sync.state.fingerprint) else {
            throw CommandFailure(
                "Only a host of \(club.name) opens polls (a host may let every member: bookclub club policy \(club.name.shellWord) --polls members)."
            )
        }
        let library = try session.library().state
        var choices = try books.map { reference -> ClubPollOption in
            let book = try library.resolve(reference)
            return ClubPollOption(title: book.title, book: ClubBook(book))
        }
        choices += options.map { ClubPollOption(title: $0) }
        var seen = Set<String>()
        for choice in choices where !seen.insert(choice.title.lowercased()).inserted {
            throw CommandFailure("Two options are titled \(choice.title): each option needs its own title.")
        }
        let poll = ClubPoll(
            id: String(session.makeID().prefix(8)), question: question, options: choices, method: method,
            closes: closes?.wholeSeconds)
        let opened = try session.syncClub(&sync, publishing: [.poll(poll)])
        if json, let shared = opened.poll(poll.id) {
            try session.writeJSON(PollJSON(shared, club: opened, me: sync.state.fingerprint, now: now))
        } else if !json {
            session.output.write(TerminalText(poll.id), as: .data)
        }
        session.output.write(
            TerminalText(
                "Opened a poll in \(club.name) (\(PollText.method(method))"
                    + (closes.map { "; voting ends \(DateText.minute($0, timeZone: session.timeZone))" } ?? "")
                    + "). Members vote with: bookclub club vote \(club.name.shellWord) \(poll.id) CHOICE"
                    + (method == .single ? "" : " ...")),
            as: .message)
    }
}
