import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A shared club's polls as text: the question, its numbered options, your ballot, and once it is
/// closed the count, round by round.
enum PollText {
    /// "Dune, by Frank Herbert".
    static func option(_ option: ClubPollOption) -> String {
        option.title + (option.book?.author.map { ", by " + $0 } ?? "")
    }

    static func method(_ method: ClubPoll.Method) -> String {
        switch method {
        case .single: "one choice"
        case .ranked: "ranked, counted by instant runoff"
        case .approval: "approval: any number of choices"
        }
    }

    /// "open until Thu 3 Dec 19:00", "closed by ana", "closed at Thu 3 Dec 19:00" (`timeZone` left
    /// out: "closed").
    static func status(_ poll: SharedPoll, club: SharedClub, now: Date, timeZone: Zone? = nil) -> String {
        if let closer = poll.closedBy { return "closed by \(club.member(closer)?.name ?? closer)" }
        guard let closes = poll.poll.closes else { return "open" }
        guard let timeZone else { return poll.isClosed(at: now) ? "closed" : "open" }
        let when = DateText.minute(closes, timeZone: timeZone)
        return poll.isClosed(at: now) ? "closed at \(when)" : "open until \(when)"
    }

    /// Lines longer than `width` wrap under their own text.
    static func lines(
        _ poll: SharedPoll, club: SharedClub, me: String, now: Date, timeZone: Zone, style: Style, width: Int?
    ) -> [TerminalText] {
        func indented(_ text: TerminalText) -> TerminalText {
            "  " + TextWrapping.hanging(text, width: width, firstColumn: 2, indent: 4)
        }
        let options = poll.poll.options
        let opener = club.member(poll.opener)?.name ?? poll.opener
        var lines: [TerminalText] = [
            style.dim(TerminalText(poll.poll.id)) + "  " + style.bold(TerminalText(poll.poll.question)),
            "  "
                + TerminalText(
                    "\(method(poll.poll.method)); opened by \(opener); \(status(poll, club: club, now: now, timeZone: timeZone)); \(NumberText.count(poll.ballots.count, "ballot"))"
                ),
        ]
        for (index, option) in options.enumerated() {
            lines.append(indented("\(index + 1). \(self.option(option))"))
        }
        if let mine = poll.ballots[me] {
            lines.append(indented("Your ballot: \(mine.map { options[$0].title }.joined(separator: ", "))"))
        }
        guard poll.isClosed(at: now) else {
            lines.append(style.dim("  The count shows when the poll closes."))
            return lines
        }
        let tally = poll.tally
        for (number, round) in tally.rounds.enumerated() {
            var line =
                (tally.rounds.count > 1 ? "Round \(number + 1): " : "Count: ")
                + round.counts.map { "\(options[$0.option].title) \($0.votes)" }.joined(separator: ", ")
            if round.exhausted > 0 { line += " (\(NumberText.count(round.exhausted, "ballot")) with no choice left)" }
            if let out = round.eliminated {
                line += "; \(options[out].title) out" + (round.byDraw ? " by the draw" : "")
            }
            lines.append(indented(TerminalText(line)))
        }
        if let winner = tally.winner {
            let drawn = tally.rounds.last?.byDraw == true ? " (a tie, decided by the draw)" : ""
            lines.append("  " + style.bold(TerminalText("Winner: \(option(options[winner]))")) + TerminalText(drawn))
        } else {
            lines.append("  No ballots: no winner.")
        }
        return lines
    }
}

/// The `--json` shape of a poll: the count only once it is closed.
struct PollJSON: Encodable {
    struct Option: Encodable {
        var number: Int
        var title: String
        var book: ClubBook?
    }

    struct Round: Encodable {
        /// Votes by option number.
        var counts: [String: Int]
        var exhausted: Int
        var eliminated: Int?
        var byDraw: Bool
    }

    var id: String
    var club: String
    var question: String
    var method: String
    var opener: String
    var opened: Date
    var closes: Date?
    var closed: Bool
    var closedBy: String?
    var options: [Option]
    var ballots: Int
    /// Your ballot, by option number.
    var yourBallot: [Int]?
    var rounds: [Round]?
    var winner: Int?

    init(_ poll: SharedPoll, club: SharedClub, me: String, now: Date) {
        (id, self.club, question, method) = (poll.poll.id, club.name, poll.poll.question, poll.poll.method.rawValue)
        (opener, opened, closes) = (club.member(poll.opener)?.name ?? poll.opener, poll.opened, poll.poll.closes)
        closed = poll.isClosed(at: now)
        closedBy = poll.closedBy.map { club.member($0)?.name ?? $0 }
        options = poll.poll.options.enumerated().map {
            Option(number: $0.offset + 1, title: $0.element.title, book: $0.element.book)
        }
        ballots = poll.ballots.count
        yourBallot = poll.ballots[me].map { $0.map { $0 + 1 } }
        if closed {
            let tally = poll.tally
            rounds = tally.rounds.map { round in
                Round(
                    counts: Dictionary(uniqueKeysWithValues: round.counts.map { (String($0.option + 1), $0.votes) }),
                    exhausted: round.exhausted, eliminated: round.eliminated.map { $0 + 1 }, byDraw: round.byDraw)
            }
            winner = tally.winner.map { $0 + 1 }
        }
    }
}
