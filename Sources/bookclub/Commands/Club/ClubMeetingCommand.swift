import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ClubMeetingCommand: Command {
    static let date = Option(
        long: "date", kind: .value("when"),
        help: "When: thursday 19:00, next thursday 7pm, dec 3 19:00, in 2 weeks, 2026-12-03T19:00 (required).",
        parse: .when(allowFuture: true))
    static let book = Option(long: "book", kind: .value("book"), help: "The book to discuss.")
    static let target = Option(
        long: "target", kind: .value("target"),
        help: "How far to read by then: a page (250), a percent (40%), or in an audiobook a time (4:30).")
    static let label = Option(
        long: "label", kind: .value("text"), help: "The target in words, e.g. \"chapters 1-12\".")
    static let `where` = Option(long: "where", kind: .value("place"), help: "A place or a link.")
    static let winner = Option(
        long: "winner", kind: .value("poll"),
        help: "The book that won a closed poll of the shared club (its id, or last); added when missing.")
    static let club = Argument(name: "club", help: "The club.")
    static let configuration = CommandConfiguration(
        name: "meeting",
        abstract: "Plan a meeting: when, which book, how far to read, where.",
        examples: [
            "bookclub club meeting scifi --date \"thursday 19:00\" --book dune --target 250",
            "bookclub club meeting scifi --date 2026-12-03 --label \"chapters 1-12\"",
            "bookclub club meeting scifi --date \"dec 17 19:00\" --winner last",
        ],
        arguments: [club],
        options: [
            date,
            book,
            target,
            label,
            `where`,
            winner,
            CommonOptions.json,
        ])

    var reference: String
    var date: Date
    var book: String?
    var target: Meeting.Target?
    /// A target given as a time in an audiobook, in minutes: a percent of the book's length.
    var listenTarget: Int?
    var place: String?
    var winner: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[Self.club] ?? ""
        let date = try arguments[Self.date]
        book = try arguments[Self.book]
        let label = try arguments[Self.label]?.nonBlank
        switch try arguments[Self.target].map({ ($0, ProgressValue(parsing: $0)) }) {
        case nil: target = label.map { Meeting.Target(label: $0) }
        case (_, .page(let page))?: target = Meeting.Target(page: page, label: label)
        case (_, .percent(let percent))?: target = Meeting.Target(percent: percent, label: label)
        case (_, .time(let minutes))?: (listenTarget, target) = (minutes, Meeting.Target(percent: 0, label: label))
        case (let text, _)?:
            throw ParseError.invalidValue(
                value: text, label: "--target <target>",
                reason: "expected a page (250), a percent (40%) or a time (4:30)")
        }
        place = try arguments[Self.where]?.nonBlank
        winner = try arguments[Self.winner]
        if book != nil && winner != nil { throw ParseError.exclusiveFlags(duplicate: "--winner", previous: "--book") }
        json = arguments[CommonOptions.json]
        guard let date else {
            throw ParseError.missingValue(option: "--date", valueName: "when", help: "When the meeting is.")
        }
        self.date = date
    }

    func run(in session: Session) throws {
        let store = try session.library(forWriting: true)
        let club = try store.state.resolveClub(reference)
        let book =
            try winner.map { try Self.winner($0, of: club, in: session) } ?? book.map { try store.state.resolve($0) }
        var target = target
        if let listenTarget {
            guard let book, let length = book.length else {
                throw CommandFailure(
                    "--target as a time needs an audiobook with a length (--book, and edit BOOK --length).")
            }
            guard listenTarget <= length else {
                throw BookClubError.timeOutOfRange(
                    time: DurationText.clock(listenTarget), title: book.title,
                    length: DurationText.describe(minutes: length))
            }
            target?.percent = Double(listenTarget) / Double(length) * 100
        }
        if let page = target?.page, let pages = book?.pages, page > pages {
            throw BookClubError.pageOutOfRange(page: page, title: book!.title, pages: pages)
        }
        let meeting = Meeting(
            id: String(session.makeID().prefix(8)), date: date, bookID: book?.id, target: target,
            place: place)
        store.update { $0.clubs[$0.clubIndex(of: club.id)!].schedule(meeting) }
        if json {
            try session.writeJSON(MeetingJSON(meeting, club: club, library: store.state))
        } else {
            session.output.write(TerminalText(meeting.id), as: .data)
        }
        session.output.write(
            "Planned \(club.name) on \(DateText.minute(date, timeZone: session.timeZone)): \(MeetingText.describe(meeting, library: store.state)).",
            as: .message)
        if date < session.now() {
            session.output.write(
                "That meeting is in the past (\(DateText.minute(date, timeZone: session.timeZone))); it is kept, for the record.",
                as: .warning)
        }
    }

    /// The book that won a closed poll of the club's shared club: the reader's copy (by ISBN, else
    /// title and author), else added to the library as the poll describes it.
    static func winner(_ reference: String, of club: Club, in session: Session) throws -> Book {
        var sync = try session.sharedClub(club.id)
        let shared = try session.syncClub(&sync)
        let now = session.now()
        let poll: SharedPoll
        if reference.lowercased() == "last" {
            guard let last = shared.polls.last(where: { $0.isClosed(at: now) }) else {
                throw CommandFailure(
                    "\(club.name) has no closed poll yet: see bookclub club polls \(club.name.shellWord).")
            }
            poll = last
        } else {
            poll = try ClubOptions.poll(reference, of: shared, now: now)
        }
        guard poll.isClosed(at: now) else {
            throw CommandFailure("The poll \(poll.poll.question) is still open: close it first (bookclub club close).")
        }
        guard let winner = poll.tally.winner else {
            throw CommandFailure("The poll \(poll.poll.question) had no ballots.")
        }
        guard let won = poll.poll.options[winner].book else {
            throw CommandFailure("\(poll.poll.options[winner].title) won \(poll.poll.question), but it is not a book.")
        }
        let store = try session.library(forWriting: true)
        if let copy = store.state.copy(of: won) { return copy }
        let book = Book(
            id: session.makeID(), title: won.title, author: won.author, pages: won.pages, isbn: won.isbn,
            added: now.wholeSeconds)
        store.update { $0.addBook(book) }
        session.output.write(
            TerminalText("Added '\(book.title)' to your library, as the poll described it."), as: .message)
        return book
    }
}
