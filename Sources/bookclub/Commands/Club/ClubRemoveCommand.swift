import BookClubCore

struct ClubRemoveCommand: Removal {
    static let yes = Flag(long: "yes", short: "y", help: "Do not ask.")
    static let club = Argument(
        name: "club", help: "The club: its id, an id prefix or its whole name (no guessing here).")
    static let configuration = CommandConfiguration(
        name: "remove",
        aliases: ["rm"],
        abstract: "Delete a club and its meetings; the books stay.",
        discussion: "Asks first on a terminal; elsewhere (a script, a pipe) it needs --yes.",
        examples: ["bookclub club remove \"Sci-Fi Club\""],
        arguments: [
            club
        ],
        options: [yes, CommonOptions.json])

    var reference: String
    var confirmed: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[Self.club] ?? ""
        confirmed = arguments[Self.yes]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let (store, club) = try confirmThenLock(given: confirmed, in: session) {
            try $0.resolveClub(reference, exactly: true)
        } question: {
            "Remove the club '\($0.name)' and its \(NumberText.count($0.meetings.count, "meeting"))?"
        }
        if json { try session.writeJSON(ClubJSON(club, library: store.state, now: session.now())) }
        store.update { $0.removeClub(club.id) }
        let scene = try session.scene()
        if scene.state.club == club.id { scene.update { $0.club = nil } }
        session.output.write("Removed the club '\(club.name)'.", as: .message)
    }
}
