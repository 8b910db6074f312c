import BookClubCore

struct ClubHostCommand: RosterCommand {
    static let configuration = rosterConfiguration(
        name: "host", abstract: "Make a member a host (hosts only).",
        discussion: "A host admits and removes members. The founder is always a host.")
    static let verb = "made a host"
    var target: RosterTarget

    static func change(for member: ClubMember) throws -> ClubChange {
        guard member.state == .member else {
            throw CommandFailure("\(member.name) is \(member.state.rawValue): only a member can be made a host.")
        }
        return .host(member: member.fingerprint)
    }
}
