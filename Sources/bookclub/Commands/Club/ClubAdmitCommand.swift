import BookClubCore

struct ClubAdmitCommand: Command {
    static let configuration = CommandConfiguration(
        name: "admit",
        abstract: "Admit a member who asked to join (hosts only).",
        discussion: "What they published since they asked is shown from then on, and what they publish next.",
        examples: ["bookclub club admit scifi Ben"],
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
        try ClubOptions.changeRoster(reference, member: member, in: session, json: json, verb: "admitted") { member in
            guard member.state == .pending || member.state == .removed else {
                throw CommandFailure("\(member.name) is \(member.state.rawValue) already.")
            }
            return .admit(member: member.fingerprint, key: member.key)
        }
    }
}
