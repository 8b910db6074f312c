import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ClubRSVPCommand: Command {
    static let meeting = Argument(
        name: "meeting", help: "next (the default), a meeting id, or its date.", isOptional: true)
    static let answer = Argument(
        name: "answer", help: "Whether you are coming.", allowedValues: ClubRSVP.Answer.allCases.map(\.rawValue))
    static let note = Option(
        long: "note", kind: .value("text"), help: "A word for the others (\"running late\").", parse: .note)
    static let configuration = CommandConfiguration(
        name: "rsvp",
        abstract: "Say whether you are coming to a shared club's meeting.",
        discussion: """
            Your latest answer counts; agenda, club show and notes --club show who is coming, and \
            club meetings --ics lists the members as attendees with their answers.
            """,
        examples: [
            "bookclub club rsvp scifi yes", "bookclub club rsvp scifi 2026-12-10 maybe --note \"if the train runs\"",
        ],
        arguments: [ClubOptions.club, meeting, answer],
        options: [note, CommonOptions.json])

    var reference: String?
    var meeting: String?
    var answer: ClubRSVP.Answer
    var note: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        meeting = try arguments[Self.meeting]
        let text = try arguments[Self.answer] ?? ""
        guard let answer = ClubRSVP.Answer(rawValue: text.lowercased()) else {
            throw ParseError.invalidArgumentValue(
                value: text, label: Self.answer.spec.label, allowedValues: ClubRSVP.Answer.allCases.map(\.rawValue),
                help: Self.answer.spec.help)
        }
        self.answer = answer
        note = try arguments[Self.note] ?? nil
        if let note, note.count > 500 {
            throw ParseError.invalidValue(value: note, label: "--note <text>", reason: "up to 500 characters")
        }
        json = arguments[CommonOptions.json]
    }

    struct RSVPJSON: Encodable {
        var club: String
        var meeting: String
        var date: Date
        var answer: String
        var note: String?
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        try ClubOptions.requireMember(sync, club, "No answer sent")
        let library = try session.library().state
        let chosen = try sync.joined(club).asClub(library: library).meeting(
            meeting ?? "next", now: session.now(), timeZone: session.timeZone)
        try session.syncClub(&sync, publishing: [.rsvp(meeting: chosen.id, answer, note: note)])
        if json {
            try session.writeJSON(
                RSVPJSON(club: club.name, meeting: chosen.id, date: chosen.date, answer: answer.rawValue, note: note))
        }
        let when = DateText.minute(chosen.date, timeZone: session.timeZone)
        let said =
            switch answer {
            case .yes: "You are coming to"
            case .no: "You are not coming to"
            case .maybe: "You may come to"
            }
        session.output.write(TerminalText("\(said) \(club.name) on \(when)."), as: .message)
    }
}
