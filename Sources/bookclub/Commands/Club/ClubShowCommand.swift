import BookClubCore

struct ClubShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a club, its current book and its meetings.",
        arguments: [ClubOptions.club],
        options: [CommonOptions.json])

    var reference: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = arguments.argument(ClubOptions.club)
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        let library = try env.library().state
        let club = try env.resolveClub(reference, in: library)
        let now = env.now()
        if json {
            try env.writeJSON(ClubJSON(club, library: library, now: now))
            return
        }
        env.output.write(env.style.bold(club.name.terminalSafe), as: .data)
        if let description = club.description { env.output.write(description.terminalSafe, as: .data) }
        env.output.write(env.style.dim("id \(club.id)"), as: .data)
        let current = club.currentBookID(at: now).flatMap { library[id: $0] }
        env.output.write(
            "Reading: "
                + (current.map { "\($0.title.terminalSafe) (\(ProgressText.describe($0)))" } ?? "nothing planned"),
            as: .data)
        env.output.write("", as: .data)
        for line in ClubMeetingsCommand.render(
            club.meetings.map { (club, $0) }, library: library, env: env, showClub: false)
        {
            env.output.write(line, as: .data)
        }
    }
}

enum ClubOptions {
    static let club = ArgumentSpec(
        name: "club", help: "The club: an id or id prefix, a name, or words of it. Omitted: the selected club.",
        isOptional: true)
}
