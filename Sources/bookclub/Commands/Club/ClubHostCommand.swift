import BookClubCore

struct ClubHostCommand: Command {
    static let configuration = CommandConfiguration(
        name: "host",
        abstract: "Make a member a host (hosts only).",
        discussion: "The founder is always a host.",
        examples: ["bookclub club host scifi Ben"],
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
        try ClubOptions.changeRoster(reference, member: member, in: session, json: json, verb: "made a host") {
            member in
            guard member.state == .member else {
                throw CommandFailure("\(member.name) is \(member.state.rawValue): only a member can be made a host.")
            }
            return .host(member: member.fingerprint)
        }
    }
}
