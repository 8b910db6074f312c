import BookClubCore

struct ClubExpelCommand: RosterCommand {
    static let configuration = rosterConfiguration(
        name: "expel", abstract: "Remove a member from a shared club (hosts only).",
        discussion:
            "What they published up to what your machine has read of their logs stays; nothing they write after it is shown, whatever time their clock says."
    )
    static let verb = "removed"
    var target: RosterTarget

    static func change(for member: ClubMember) throws -> ClubChange {
        guard member.state != .removed else { throw CommandFailure("\(member.name) is removed already.") }
        return .remove(member: member.fingerprint)
    }
}
