import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct HighlightCommand: Command {
    static let text = Argument(name: "text", help: "The passage, as printed. Required.", isOptional: true)
    static let page = Option(
        long: "page", short: "p", kind: .value("page"), help: "The page it is on.",
        parse: .integer(in: 0...Library.pageCounts.upperBound))
    static let club = Option(
        long: "club", kind: .value("club"),
        help: "Share it with a shared club, hidden from members who have not read as far as you had.")
    static let configuration = CommandConfiguration(
        name: "highlight",
        abstract: "Keep a passage you marked, for the next meeting.",
        discussion: """
            For a paper book: e-readers' highlights come in with `bookclub import kindle` and \
            `bookclub import koreader`. A highlight belongs to the book's latest reading; a book not \
            started yet starts one. With --club it is also posted to a shared club whose book this one \
            is linked to: members see it once they have read as far as you had when you marked it.
            """,
        examples: [
            "bookclub highlight dune \"Fear is the mind-killer.\" --page 8",
            "bookclub highlight dune \"Fear is the mind-killer.\" --page 8 --club sci-fi",
        ],
        arguments: [CommonOptions.book, text],
        options: [page, CommonOptions.note, CommonOptions.date, club, CommonOptions.json])

    var reference: String?
    var text: String
    var page: Int?
    var note: String?
    var date: Date?
    var club: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments[CommonOptions.json]
        page = try arguments[Self.page]
        note = try arguments[CommonOptions.note] ?? nil
        date = try arguments[CommonOptions.date]
        club = try arguments[Self.club]
        reference = try arguments[CommonOptions.book]
        var given = try arguments[Self.text]
        // One argument is the passage, of the selected book.
        if given == nil { (given, reference) = (reference, nil) }
        guard let passage = given?.trimmed, !passage.isEmpty else {
            throw ParseError.missingArgument(label: "<text>", help: "The passage, as printed. Required.")
        }
        text = passage
    }

    func run(in session: Session) throws {
        // The club first: one that cannot take the highlight refuses before anything is kept.
        var shared: (sync: ClubSync, club: SharedClub)?
        if let club {
            var sync = try session.sharedClub(club)
            let synced = try session.syncClub(&sync)
            guard sync.isIn(synced) else {
                throw CommandFailure(
                    "Nothing kept: you are not a member of \(synced.name) now; see bookclub club members.")
            }
            shared = (sync, synced)
        }
        let highlight = Highlight(
            id: session.ids.uuid().uuidString, text: text, note: note, page: page,
            time: date ?? session.now().wholeSeconds, source: .typed)
        let (store, kept) = try session.perform(
            KeepHighlight(
                choice: BookChoice(reference, in: session), highlight: highlight, placed: shared != nil,
                ids: session.ids))
        let book = kept.book
        if var sync = shared?.sync, let club = shared?.club, let place = kept.place {
            guard let clubBook = sync.state.links.first(where: { $0.value == book.id })?.key else {
                throw CommandFailure(
                    "Nothing kept: '\(book.title)' is not linked to a book of \(club.name); link it first: bookclub club link \(club.name.shellWord) \(kept.reference)"
                )
            }
            try session.syncClub(
                &sync,
                publishing: [
                    .post(
                        id: highlight.id, book: clubBook, at: place, text: note, quote: text, place: highlight.place,
                        written: highlight.time ?? session.now())
                ])
            session.output.write(
                TerminalText(
                    "Shared with \(club.name), shown to members past \(SharedClubText.readerPlace(place)) of your copy."
                ),
                as: .message)
        }
        let count = store.state[id: book.id]!.currentReading?.highlights?.count ?? 0
        session.output.write(
            "'\(book.title)': highlight \(count) kept"
                + (highlight.place.map { " (\($0))" } ?? "") + ".", as: .message)
        if json { try session.writeJSON(highlight) }
    }
}
