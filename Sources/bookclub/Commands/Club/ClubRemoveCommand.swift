import BookClubCore

struct ClubRemoveCommand: Command {
    static let yes = OptionSpec(long: "yes", short: "y", kind: .flag, help: "Do not ask.")
    static let club = ArgumentSpec(
        name: "club", help: "The club: its id, an id prefix or its whole name (no guessing here).")
    static let configuration = CommandConfiguration(
        name: "remove",
        aliases: ["rm"],
        abstract: "Delete a club and its meetings; the books stay.",
        discussion: "Asks first on a terminal; elsewhere (a script, a pipe) it needs --yes.",
        arguments: [
            club
        ],
        options: [yes])

    var reference: String
    var confirmed: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument(Self.club) ?? ""
        confirmed = arguments.flag(Self.yes)
    }

    func run(in env: Environment) throws {
        let store = try env.library(forWriting: true)
        let club = try store.state.resolveClub(reference, exactly: true)
        try env.confirm(
            "Remove the club '\(club.name.terminalSafe)' and its \(club.meetings.count) meetings?", given: confirmed)
        store.update { $0.clubs.removeAll { $0.id == club.id } }
        let scene = try env.scene()
        if scene.state.club == club.id { scene.update { $0.club = nil } }
        env.output.write("Removed the club '\(club.name.terminalSafe)'.", as: .message)
    }
}
