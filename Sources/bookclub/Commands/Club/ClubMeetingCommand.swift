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
        help: "How far to read by then: a page (250) or a percent (40%).")
    static let label = Option(
        long: "label", kind: .value("text"), help: "The target in words, e.g. \"chapters 1-12\".")
    static let `where` = Option(long: "where", kind: .value("place"), help: "A place or a link.")
    static let club = Argument(name: "club", help: "The club.")
    static let configuration = CommandConfiguration(
        name: "meeting",
        abstract: "Plan a meeting: when, which book, how far to read, where.",
        examples: [
            "bookclub club meeting scifi --date \"thursday 19:00\" --book dune --target 250",
            "bookclub club meeting scifi --date 2026-12-03 --label \"chapters 1-12\"",
        ],
        arguments: [club],
        options: [
            date,
            book,
            target,
            label,
            `where`,
            CommonOptions.json,
        ])

    var reference: String
    var date: Date
    var book: String?
    var target: Meeting.Target?
    var place: String?
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
        case (let text, _)?:
            throw ParseError.invalidValue(
                value: text, label: "--target <target>", reason: "expected a page (250) or a percent (40%)")
        }
        place = try arguments[Self.where]?.nonBlank
        json = arguments[CommonOptions.json]
        guard let date else {
            throw ParseError.missingValue(option: "--date", valueName: "when", help: "When the meeting is.")
        }
        self.date = date
    }

    func run(in session: Session) throws {
        let store = try session.library(forWriting: true)
        let club = try store.state.resolveClub(reference)
        let book = try book.map { try store.state.resolve($0) }
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
}
