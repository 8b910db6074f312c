import BookClubCore

struct ClubAdmitCommand: RosterCommand {
    static let configuration = rosterConfiguration(
        name: "admit", abstract: "Admit a member who asked to join (hosts only).",
        discussion: "What they published since they asked is shown from then on, and what they publish next.")
    static let verb = "admitted"
    var target: RosterTarget

    static func change(for member: ClubMember) throws -> ClubChange {
        guard member.state == .pending || member.state == .removed else {
            throw CommandFailure("\(member.name) is \(member.state.rawValue) already.")
        }
        return .admit(member: member.fingerprint, key: member.key)
    }
}
