import BookClubCore

struct ClubCancelCommand: Command {
    static let club = ArgumentSpec(name: "club", help: "The club.")
    static let meeting = ArgumentSpec(
        name: "meeting", help: "The meeting: its id or id prefix, its date (2026-12-03), or next.")
    static let configuration = CommandConfiguration(
        name: "cancel",
        abstract: "Cancel a meeting.",
        arguments: [
            club,
            meeting,
        ])

    var club: String
    var meeting: String

    init(_ arguments: ParsedArguments) throws {
        club = arguments.argument(Self.club) ?? ""
        meeting = arguments.argument(Self.meeting) ?? ""
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        let club = try store.state.resolveClub(self.club)
        let meeting = try club.meeting(meeting, now: env.now(), timeZone: env.timeZone)
        store.update { $0.clubs[$0.clubIndex(of: club.id)!].cancel(meetingID: meeting.id) }
        env.output.write(
            "Cancelled \(club.name.terminalSafe) on \(DateText.minute(meeting.date, timeZone: env.timeZone)).",
            as: .message)
    }
}
