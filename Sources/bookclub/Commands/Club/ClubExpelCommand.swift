import BookClubCore

struct ClubExpelCommand: Command {
    static let configuration = CommandConfiguration(
        name: "expel",
        abstract: "Remove a member from a shared club (hosts only).",
        discussion:
            "What they published up to what your machine has read of their logs stays; nothing they write after it is shown, whatever time their clock says.",
        examples: ["bookclub club expel scifi Ben"],
        arguments: [ClubOptions.club, ClubOptions.member],
        options: [CommonOptions.json])

    var reference: String?
    var member: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        member = try arguments[ClubOptions.member] ?? ""
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        try ClubOptions.changeRoster(reference, member: member, in: session, json: json, verb: "removed") { member in
            guard member.state != .removed else { throw CommandFailure("\(member.name) is removed already.") }
            return .remove(member: member.fingerprint)
        }
    }
}
