import BookClubCore

struct ClubPolicyCommand: Command {
    static let polls = Option(
        long: "polls", kind: .value("who"), help: "Who may open polls (and close their own): hosts or members.",
        allowedValues: ClubPoll.Policy.allCases.map(\.rawValue))
    static let configuration = CommandConfiguration(
        name: "policy",
        abstract: "Show or set a shared club's policy: who may open polls.",
        discussion: """
            By default only hosts open and close polls. Under --polls members any member may open one \
            and close their own; hosts may close any.
            """,
        examples: ["bookclub club policy scifi", "bookclub club policy scifi --polls members"],
        arguments: [ClubOptions.club],
        options: [polls, CommonOptions.json])

    var reference: String?
    var polls: ClubPoll.Policy?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        if let text = try arguments[Self.polls] {
            guard let policy = ClubPoll.Policy(rawValue: text.lowercased()) else {
                throw ParseError.invalidValue(value: text, label: "--polls <who>", reason: "expected hosts or members")
            }
            polls = policy
        }
        json = arguments[CommonOptions.json]
    }

    struct PolicyJSON: Encodable {
        var club: String
        var polls: String
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        var club = try session.syncClub(&sync)
        if let polls, polls != club.pollPolicy {
            guard club.member(sync.state.fingerprint)?.state == .host else {
                throw CommandFailure("Only a host of \(club.name) sets its policy.")
            }
            club = try session.syncClub(&sync, publishing: [.policy(polls)])
        }
        if json { try session.writeJSON(PolicyJSON(club: club.name, polls: club.pollPolicy.rawValue)) }
        session.output.write(
            TerminalText(
                club.pollPolicy == .hosts
                    ? "In \(club.name), hosts open and close polls."
                    : "In \(club.name), any member may open a poll and close their own; hosts may close any."),
            as: json ? .message : .data)
    }
}
