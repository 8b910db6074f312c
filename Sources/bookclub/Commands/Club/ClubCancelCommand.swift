import BookClubCore

struct ClubCancelCommand: Command {
    static let club = Argument(name: "club", help: "The club.")
    static let meeting = Argument(
        name: "meeting", help: "The meeting: its id or id prefix, its date (2026-12-03), or next.")
    static let configuration = CommandConfiguration(
        name: "cancel",
        abstract: "Cancel a meeting.",
        examples: ["bookclub club cancel scifi next", "bookclub club cancel scifi 2026-12-03"],
        arguments: [
            club,
            meeting,
        ],
        options: [CommonOptions.json])

    var club: String
    var meeting: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        club = try arguments[Self.club] ?? ""
        meeting = try arguments[Self.meeting] ?? ""
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let store = try session.library(forWriting: true)
        let club = try store.state.resolveClub(self.club)
        let meeting = try club.meeting(meeting, now: session.now(), timeZone: session.timeZone)
        store.update { $0.clubs[$0.clubIndex(of: club.id)!].cancel(meetingID: meeting.id) }
        if json, let changed = store.state.clubs.first(where: { $0.id == club.id }) {
            try session.writeJSON(ClubJSON(changed, library: store.state, now: session.now()))
        }
        session.output.write(
            "Cancelled \(club.name) on \(DateText.minute(meeting.date, timeZone: session.timeZone)).",
            as: .message)
    }
}
