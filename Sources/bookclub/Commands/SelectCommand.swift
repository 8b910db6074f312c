import BookClubCore

struct SelectCommand: Command {
    static let club = Option(
        long: "club", kind: .value("club"),
        help:
            "Select a club: commands that take a book use its current book, and agenda and notes use the club.")
    static let clear = Flag(long: "clear", help: "Select nothing.")
    static let book = Argument(name: "book", help: "The book to select.", isOptional: true)
    static let configuration = CommandConfiguration(
        name: "select",
        abstract: "Select the book that commands use when you name none, in this scene.",
        discussion: """
            The selection belongs to the scene named by $BOOKCLUB_SCENE (default: default), so two shells \
            with different scenes keep their own. Without arguments, prints the selected book.
            """,
        examples: ["bookclub select dune", "bookclub select --club scifi", "bookclub select --clear"],
        arguments: [book],
        options: [
            club,
            clear,
            CommonOptions.json,
        ])

    var reference: String?
    var club: String?
    var clear: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[Self.book]
        club = try arguments[Self.club]
        clear = arguments[Self.clear]
        json = arguments[CommonOptions.json]
        if clear || club != nil, let reference {
            throw ParseError.unexpectedArguments([reference])
        }
        if clear && club != nil { throw ParseError.exclusiveFlags(duplicate: "--club", previous: "--clear") }
    }

    func run(in session: Session) throws {
        let scene = try session.scene()
        let library = try session.library().state
        let sceneName = TerminalText(session.paths.sceneName)
        if let club {
            let club = try session.libraryJoiningClubs().library.resolveClub(club)
            scene.update { $0 = SceneState(club: club.id) }
            session.output.write("Selected the club '\(club.name)' in scene '\(sceneName)'.", as: .message)
        } else if clear {
            scene.update { $0 = SceneState() }
            session.output.write(
                "Cleared the selection of scene '\(session.paths.sceneName)'.", as: .message)
        } else if let reference {
            let book = try library.resolve(reference)
            scene.update { $0 = SceneState(selection: book.id) }
            session.output.write(
                "Selected '\(book.title)' in scene '\(session.paths.sceneName)'.",
                as: .message)
        }
        let selected = scene.state.selection.flatMap { library[id: $0] }
        if json {
            try session.writeJSON(selected.map { BookJSON($0) })
        } else if reference == nil && !clear && club == nil {
            if let selected {
                session.output.write("\(selected.id.prefix(8))  \(selected.title)", as: .data)
            } else if let clubID = scene.state.club, let club = library.clubs.first(where: { $0.id == clubID }) {
                session.output.write("\(club.id.prefix(8))  \(club.name) (club)", as: .data)
            } else {
                session.output.write(
                    "Nothing is selected in scene '\(session.paths.sceneName)'.", as: .message)
            }
        }
    }
}
