#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A member's answer to a meeting: the latest they published counts.
public struct ClubRSVP: Equatable, Sendable {
    public enum Answer: String, Codable, Sendable, CaseIterable {
        case yes, no, maybe
    }

    public var answer: Answer
    public var note: String?
}

/// A poll as its opener publishes it: a question, its options (books or words), and how ballots are
/// counted. A poll is never changed once opened.
public struct ClubPoll: Codable, Equatable, Sendable {
    /// The most options a poll has, and so the most a ballot names.
    public static let maximumOptions = 50

    public enum Method: String, Codable, Sendable {
        /// One choice a ballot; the most votes win.
        case single
        /// Choices in order of preference, counted by instant runoff.
        case ranked
        /// Any number of choices a ballot; the most approvals win.
        case approval
    }

    /// Who may open polls (and close their own); hosts may close any.
    public enum Policy: String, Codable, Sendable, CaseIterable {
        case hosts, members
    }

    public var id: String
    public var question: String
    public var options: [ClubPollOption]
    public var method: Method
    /// When voting ends, unless a close comes first: a ballot counts when its clock is before it.
    public var closes: Date?

    public init(id: String, question: String, options: [ClubPollOption], method: Method, closes: Date?) {
        (self.id, self.question, self.options, self.method, self.closes) = (id, question, options, method, closes)
    }

    func check() throws {
        try ClubLine.checkID(id, "poll.id")
        try ClubLine.checkName(question, "poll.question")
        guard (2...Self.maximumOptions).contains(options.count) else {
            throw ClubLine.Problem("`poll.options`: expected 2 to \(Self.maximumOptions) options")
        }
        for option in options {
            try ClubLine.checkName(option.title, "poll.options.title")
            try option.book?.check()
        }
        guard Set(options.map { $0.title.lowercased() }).count == options.count else {
            throw ClubLine.Problem("`poll.options`: two options of the same title")
        }
        if let closes, !(0...4e12).contains(closes.timeIntervalSince1970) {
            throw ClubLine.Problem("`poll.closes`: expected a time")
        }
    }
}

/// One option of a poll: words, or a book described as a meeting describes one.
public struct ClubPollOption: Codable, Equatable, Sendable {
    public var title: String
    public var book: ClubBook?

    public init(title: String, book: ClubBook? = nil) { (self.title, self.book) = (title, book) }
}

/// A poll as the club's logs make it: who opened it, whether a close came, and each member's ballot
/// that counts (options by index from 0).
public struct SharedPoll: Equatable, Sendable {
    public var poll: ClubPoll
    public var opener: String
    public var opened: Date
    /// Who closed it; `nil` while no close came (its `closes` time may have passed all the same).
    public var closedBy: String?
    /// The ballot that counts of each member who voted, by fingerprint.
    public var ballots: [String: [Int]]

    /// Whether voting has ended: a close came, or its closing time passed.
    public func isClosed(at now: Date) -> Bool {
        closedBy != nil || poll.closes.map { $0 <= now } == true
    }

    /// The count of the ballots, in the same rounds on every machine.
    public var tally: PollTally { PollTally(poll, ballots: ballots.keys.sorted().compactMap { ballots[$0] }) }
}

/// How a poll's ballots count: one round for a single-choice or approval poll; for a ranked poll, the
/// rounds of an instant runoff, each dropping the option with the fewest votes until one has more
/// than half of the ballots still in play.
///
/// Ties are broken the same way on every machine. Between options with as many votes, the one with
/// fewer in the round before goes (then the round before that, back to the first); options still
/// tied go by a draw seeded with the poll's id: each option's place in the draw is the SHA-256 of
/// the poll's id, a space and the option's number, and the lower goes (or, for a winner, the higher
/// wins).
public struct PollTally: Equatable, Sendable {
    public struct Round: Equatable, Sendable {
        /// Votes of each option still in, by index; most first, then in the poll's order.
        public var counts: [Count]
        /// Ballots that name no option still in.
        public var exhausted: Int
        /// The option dropped after this round.
        public var eliminated: Int?
        /// Whether the draw decided this round's winner or the option dropped.
        public var byDraw: Bool
    }

    public struct Count: Equatable, Sendable {
        public var option: Int
        public var votes: Int
    }

    public var ballots: Int
    public var rounds: [Round]
    /// The winning option's index; `nil` without ballots.
    public var winner: Int?

    init(_ poll: ClubPoll, ballots: [[Int]]) {
        self.ballots = ballots.count
        rounds = []
        winner = nil
        let draw = poll.options.indices.map { SHA256.hash(Array("\(poll.id) \($0 + 1)".utf8)) }
        var remaining = Array(poll.options.indices)
        while !remaining.isEmpty {
            var counts = [Int](repeating: 0, count: poll.options.count)
            var exhausted = 0
            for ballot in ballots {
                switch poll.method {
                case .approval: for choice in Set(ballot) where remaining.contains(choice) { counts[choice] += 1 }
                case .single, .ranked:
                    if let first = ballot.first(where: remaining.contains) {
                        counts[first] += 1
                    } else {
                        exhausted += 1
                    }
                }
            }
            var round = Round(
                counts: remaining.map { Count(option: $0, votes: counts[$0]) }
                    .sorted { ($1.votes, $0.option) < ($0.votes, $1.option) },
                exhausted: exhausted, eliminated: nil, byDraw: false)
            let active = ballots.count - exhausted
            guard active > 0 else {
                rounds.append(round)
                return
            }
            // Most votes now, then in the rounds before (latest first), then the draw.
            let history = rounds.reversed().map { previous in
                Dictionary(uniqueKeysWithValues: previous.counts.map { ($0.option, $0.votes) })
            }
            func key(_ option: Int) -> [Int] { [counts[option]] + history.map { $0[option] ?? 0 } }
            func before(_ a: Int, _ b: Int) -> Bool {
                key(a) != key(b) ? key(a).lexicographicallyPrecedes(key(b)) : draw[a].lexicographicallyPrecedes(draw[b])
            }
            let ordered = remaining.sorted(by: before)
            let best = ordered.last!
            if poll.method != .ranked || counts[best] * 2 > active || remaining.count == 1 {
                round.byDraw = ordered.count > 1 && key(ordered[ordered.count - 2]) == key(best)
                rounds.append(round)
                winner = best
                return
            }
            let lowest = ordered[0]
            round.eliminated = lowest
            round.byDraw = key(ordered[1]) == key(lowest)
            rounds.append(round)
            remaining.removeAll { $0 == lowest }
        }
    }
}
