import BookClubCore

struct ClubMeetingCommand: Command {
    static let date = OptionSpec(
        long: "date", kind: .value("when"),
        help: "When: thursday 19:00, next thursday 7pm, dec 3 19:00, in 2 weeks, 2026-12-03T19:00 (required).")
    static let book = OptionSpec(long: "book", kind: .value("book"), help: "The book to discuss.")
    static let target = OptionSpec(
        long: "target", kind: .value("target"),
        help: "How far to read by then: a page (250) or a percent (40%).")
    static let label = OptionSpec(
        long: "label", kind: .value("text"), help: "The target in words, e.g. \"chapters 1-12\".")
    static let `where` = OptionSpec(long: "where", kind: .value("place"), help: "A place or a link.")
    static let club = ArgumentSpec(name: "club", help: "The club.")
    static let configuration = CommandConfiguration(
        name: "meeting",
        abstract: "Plan a meeting: when, which book, how far to read, where.",
        discussion: """
            Example: bookclub club meeting "Sci-Fi Club" --date "thursday 19:00" --book dune --target 250 \
            --label "chapters 1-12" --where "Ana's place"
            """,
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
    var arguments: ParsedArguments
    var target: Meeting.Target?

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument(Self.club) ?? ""
        self.arguments = arguments
        guard arguments.value(Self.date) != nil else {
            throw ParseError.missingValue(option: "--date", valueName: "when", help: "When the meeting is.")
        }
        let label = arguments.value(Self.label).flatMap(\.nonBlank)
        switch arguments.value(Self.target).map({ ($0, ProgressValue(parsing: $0)) }) {
        case nil: target = label.map { Meeting.Target(label: $0) }
        case (_, .page(let page))?: target = Meeting.Target(page: page, label: label)
        case (_, .percent(let percent))?: target = Meeting.Target(percent: percent, label: label)
        case (let text, _)?:
            throw ParseError.invalidValue(
                value: text, label: "--target <target>", reason: "expected a page (250) or a percent (40%)")
        }
    }

    func run(in env: Environment) throws {
        let date = try arguments.date(Self.date, now: env.now(), timeZone: env.timeZone, allowFuture: true)!
        let store = try env.library(forWriting: true)
        let club = try store.state.resolveClub(reference)
        let book = try arguments.value(Self.book).map { try store.state.resolve($0) }
        if let page = target?.page, let pages = book?.pages, page > pages {
            throw BookClubError.pageOutOfRange(page: page, title: book!.title, pages: pages)
        }
        let meeting = Meeting(
            id: String(env.makeID().prefix(8)), date: date, bookID: book?.id, target: target,
            place: arguments.value(Self.where).flatMap(\.nonBlank))
        store.update { $0.clubs[$0.clubIndex(of: club.id)!].schedule(meeting) }
        if arguments.flag(CommonOptions.json) {
            try env.writeJSON(MeetingJSON(meeting, club: club, library: store.state))
        } else {
            env.output.write(meeting.id, as: .data)
        }
        env.output.write(
            "Planned \(club.name.terminalSafe) on \(DateText.minute(date, timeZone: env.timeZone)): \(MeetingText.describe(meeting, library: store.state).terminalSafe).",
            as: .message)
        if date < env.now() {
            env.output.write(
                "That meeting is in the past (\(DateText.minute(date, timeZone: env.timeZone))); it is kept, for the record.",
                as: .warning)
        }
    }
}
