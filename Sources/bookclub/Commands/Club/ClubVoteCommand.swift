import BookClubCore

struct ClubVoteCommand: Command {
    static let club = Argument(name: "club", help: "The club: an id or id prefix, a name, or words of it.")
    static let choices = Argument(
        name: "choice", help: "An option: its number or words of it; in a ranked poll, in order of preference.",
        isRepeating: true)
    static let configuration = CommandConfiguration(
        name: "vote",
        abstract: "Vote in a shared club's poll; vote again to change your ballot.",
        discussion: """
            Name the poll by its id before your choices when the club has more than one open. Your latest \
            ballot before the poll closes counts: one option in a one-choice poll, your preferences in \
            order in a ranked poll, every option you approve of in an approval poll.
            """,
        examples: ["bookclub club vote scifi piranesi dune", "bookclub club vote scifi 1a2b3c4d 2 1 3"],
        arguments: [club, choices],
        options: [CommonOptions.json])

    var reference: String
    var choices: [String]
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[Self.club] ?? ""
        choices = try arguments[every: Self.choices]
        guard choices.count <= ClubPoll.maximumOptions + 1 else {
            throw ParseError.message("A ballot names at most \(ClubPoll.maximumOptions) options")
        }
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(reference)
        let club = try session.syncClub(&sync)
        try ClubOptions.requireMember(sync, club, "No vote cast")
        let now = session.now()
        // The first word names the poll when it is the start of a poll's id, four characters or more
        // (so that a choice "1" is never taken for a poll).
        var words = choices
        var poll: SharedPoll
        func named(_ word: String) -> SharedPoll? {
            word.count >= 4 ? try? ClubOptions.poll(word, of: club, now: now) : nil
        }
        if words.count > 1, let named = named(words[0]) {
            poll = named
            words.removeFirst()
        } else {
            if words.count == 1, let named = named(words[0]) {
                throw CommandFailure(
                    "Give your choices after the poll's id: \(named.poll.question) has ones numbered 1 to \(named.poll.options.count)."
                )
            }
            poll = try ClubOptions.poll(nil, of: club, now: now)
        }
        guard !poll.isClosed(at: now) else {
            throw CommandFailure(
                "The poll \(poll.poll.question) is \(PollText.status(poll, club: club, now: now, timeZone: session.timeZone)): no vote cast."
            )
        }
        let options = poll.poll.options
        let ballot = try words.map { word -> Int in
            if let number = Int(word), (1...options.count).contains(number) { return number }
            let needle = word.lowercased().trimmed
            guard !needle.isEmpty else {
                throw CommandFailure("An empty choice: give an option's number or words of it.")
            }
            // The start of the title or of one of its words; three characters or more anywhere in it.
            let matches = options.indices.filter { index in
                let title = PollText.option(options[index]).lowercased()
                return title.hasPrefix(needle) || (needle.count >= 3 && title.contains(needle))
                    || title.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).contains {
                        $0.hasPrefix(needle)
                    }
            }
            guard matches.count == 1 else {
                let listed = options.enumerated().map { "\($0.offset + 1). \($0.element.title)" }.joined(
                    separator: "; ")
                throw CommandFailure(
                    matches.isEmpty
                        ? "\(word) is none of the options of \(poll.poll.question): \(listed)."
                        : "\(word) names \(matches.count) options of \(poll.poll.question): give its number (\(listed))."
                )
            }
            return matches[0] + 1
        }
        guard Set(ballot).count == ballot.count else { throw CommandFailure("A ballot names each option once.") }
        if poll.poll.method == .single && ballot.count != 1 {
            throw CommandFailure(
                "\(poll.poll.question) takes one choice; for several, the poll must be ranked or approval.")
        }
        let voted = try session.syncClub(&sync, publishing: [.vote(poll: poll.poll.id, choices: ballot)])
        if json, let counted = voted.poll(poll.poll.id) {
            try session.writeJSON(PollJSON(counted, club: voted, me: sync.state.fingerprint, now: now))
        }
        let named = ballot.map { options[$0 - 1].title }
        session.output.write(
            TerminalText(
                "Your ballot in \(poll.poll.question): "
                    + (poll.poll.method == .ranked
                        ? named.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: ", ")
                        : named.joined(separator: ", ")) + "."),
            as: .message)
    }
}
