import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct NotesCommand: Command {
    static let club = Option(long: "club", kind: .value("club"), help: "The notes for a club's meeting.")
    static let meeting = Option(
        long: "meeting", kind: .value("meeting"),
        help: "With --club: next (the default), a meeting id, or its date.")
    static let output = CommonOptions.output("Write the notes to this file instead of standard output.")
    static let configuration = CommandConfiguration(
        name: "notes",
        abstract: "Print the notes to bring to the next meeting, as Markdown.",
        discussion: """
            For a book: the notes of its current reading. With --club: the club's book and target for the meeting, and every note logged on the book since the previous meeting, in reading order. With a club selected (select --club), --club is implied.
            """,
        examples: ["bookclub notes dune", "bookclub notes --club scifi --output notes.md"],
        arguments: [CommonOptions.book],
        options: [
            club,
            meeting,
            output,
            CommonOptions.json,
        ])

    var target: BookTarget
    var club: String?
    var meeting: String?
    var outputPath: String?

    init(_ arguments: ParsedArguments) throws {
        target = try BookTarget(arguments)
        club = try arguments[Self.club]
        meeting = try arguments[Self.meeting]
        outputPath = try arguments[Self.output]
        if club != nil, let book = target.reference { throw ParseError.unexpectedArguments([book]) }
        if meeting != nil && club == nil && target.reference != nil {
            throw ParseError.message("--meeting goes with --club")
        }
    }

    struct MeetingNotesJSON: Encodable {
        var agenda: AgendaJSON
        var since: Date?
        var notes: [NotesJSON.Note]
        var highlights: [Highlight]
        /// A shared club's: the members' posts about the book since the last meeting that you can see.
        var club: SharedClubJSON.Feed? = nil
        /// A shared club's: where each member stands, and whether they are coming.
        var members: [SharedClubJSON.Standing]? = nil
    }

    struct NotesJSON: Encodable {
        struct Note: Encodable {
            var place: String
            var time: Date
            var text: String
        }

        var id: String
        var title: String
        var notes: [Note]
        var highlights: [Highlight]
    }

    func run(in session: Session) throws {
        let scene = try session.scene().state
        if club != nil || (target.reference == nil && scene.selection == nil && scene.club != nil) {
            return try runForClub(session: session)
        }
        let gathered = try session.compute(GatherBookNotes(book: BookChoice(target.reference, in: session))).result
        let book = gathered.book
        if target.json {
            let notes = gathered.notes.map {
                NotesJSON.Note(place: $0.place, time: $0.time, text: $0.text)
            }
            try session.writeJSON(
                NotesJSON(
                    id: book.id, title: book.title, notes: notes, highlights: book.currentReading?.highlights ?? []))
        } else {
            try session.writeDocument(try NotesReport.markdown(for: book, timeZone: session.timeZone), to: outputPath)
        }
    }

    private func runForClub(session: Session) throws {
        let shared = session.sharedClubsRead()
        var gather = GatherMeetingNotes(
            club: try ClubChoice(self.club, in: session), meeting: meeting, now: session.now(),
            timeZone: session.timeZone)
        gather.joined = shared.map(\.joined)
        let (library, report) = try session.compute(gather)
        // A shared club's meeting: every member's posts about its book since the last meeting that the
        // reader has read far enough to see.
        var feed: (club: SharedClub, feed: ClubFeed)?
        var standings: [MemberStanding]?
        if let (_, joined) = shared.first(where: { $0.joined.club.id == report.item.club.id }),
            let meeting = joined.club.meetings.first(where: { $0.id == report.item.meeting.id })
        {
            standings = joined.club.standings(at: meeting)
        }
        if let (sync, joined) = shared.first(where: { $0.joined.club.id == report.item.club.id }),
            let meeting = joined.club.meetings.first(where: { $0.id == report.item.meeting.id }),
            let book = meeting.book
        {
            let positions = try session.clubPositions(sync)
            feed = (
                joined.club,
                ClubFeed(
                    joined.club, me: sync.state.fingerprint, positions: positions, books: [book.id], since: report.since
                )
            )
        }
        if target.json {
            let notes = report.notes.map { NotesJSON.Note(place: $0.place, time: $0.time, text: $0.text) }
            var json = MeetingNotesJSON(
                agenda: AgendaJSON(report.item, library: library), since: report.since, notes: notes,
                highlights: report.highlights)
            json.club = feed.map { SharedClubJSON.feed($0.feed, club: $0.club) }
            json.members = standings.map { $0.map(SharedClubJSON.Standing.init) }
            try session.writeJSON(json)
        } else {
            var text = MeetingNotes.markdown(report, timeZone: session.timeZone)
            if let standings { text += SharedClubText.markdown(standings) }
            if let (club, feed) = feed {
                text += SharedClubText.markdown(feed, club: club, timeZone: session.timeZone)
            }
            try session.writeDocument(text, to: outputPath)
        }
    }
}
