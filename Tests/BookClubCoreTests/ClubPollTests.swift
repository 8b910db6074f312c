import Foundation
import Testing

@testable import BookClubCore

/// Deciding together without a server: RSVPs and polls as every member's fold of the same logs makes
/// them, and the count of a poll, the same in every home.
@Suite struct ClubPollTests {
    typealias Logs = SharedClubTests

    static func poll(
        _ id: String = "p1", _ options: [String] = ["Dune", "Piranesi", "Hyperion"], method: ClubPoll.Method = .ranked,
        closes: Date? = nil
    ) -> (inout ClubLine) -> Void {
        { line in
            line.poll = ClubPoll(
                id: id, question: "Next book?", options: options.map { ClubPollOption(title: $0) }, method: method,
                closes: closes)
        }
    }

    static func vote(_ choices: [Int], poll: String = "p1") -> (inout ClubLine) -> Void {
        { line in (line.id, line.choices) = (poll, choices) }
    }

    static func close(_ through: [Int: Int], poll: String = "p1") -> (inout ClubLine) -> Void {
        { line in
            line.id = poll
            line.through = Dictionary(uniqueKeysWithValues: through.map { (Logs.devices[$0.key], $0.value) })
        }
    }

    static func tally(_ ballots: [[Int]], id: String = "p1", method: ClubPoll.Method = .ranked) -> PollTally {
        PollTally(
            ClubPoll(
                id: id, question: "Next?", options: ["A", "B", "C"].map { ClubPollOption(title: $0) }, method: method,
                closes: nil), ballots: ballots)
    }

    static func counts(_ round: PollTally.Round) -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: round.counts.map { ($0.option, $0.votes) })
    }

    @Test func instantRunoffMovesTheLastPlacedBallotsOn() {
        // A 2, C 2, B 1: B goes, and its ballot's next choice, C, wins with 3 of 5.
        let tally = Self.tally([[0, 1], [0, 2], [1, 2], [2, 1], [2, 1]])
        #expect(tally.rounds.count == 2)
        #expect(Self.counts(tally.rounds[0]) == [0: 2, 1: 1, 2: 2])
        #expect(tally.rounds[0].eliminated == 1 && !tally.rounds[0].byDraw)
        #expect(Self.counts(tally.rounds[1]) == [0: 2, 2: 3])
        #expect(tally.winner == 2)
        // A first-choice majority wins in the first round.
        #expect(Self.tally([[1], [1, 0], [0]]).rounds.count == 1)
        #expect(Self.tally([[1], [1, 0], [0]]).winner == 1)
        // No ballots, no winner.
        #expect(Self.tally([]).winner == nil)
    }

    @Test func aFirstRoundTieGoesByTheDrawTheSameWayEverywhere() {
        // One vote each: the draw (SHA-256 of "p1 1", "p1 2", "p1 3": 2358…, 109f…, d0d6…) drops B; its
        // ballot moves to C, which then has 2 of 3.
        let ballots = [[0, 1], [1, 2], [2, 0]]
        let tally = Self.tally(ballots)
        #expect(tally.rounds[0].eliminated == 1 && tally.rounds[0].byDraw)
        #expect(tally.winner == 2)
        // In any order of ballots.
        for order in [[2, 0, 1], [1, 2, 0], [0, 2, 1]] {
            #expect(Self.tally(order.map { ballots[$0] }) == tally)
        }
        // Another poll's id draws again: the draw is the poll's, not the options' order.
        #expect(Self.tally(ballots, id: "p9").rounds[0].byDraw)
    }

    @Test func aLaterTieGoesByTheRoundsBefore() {
        // Round 1: A 4, B 3, C 2, D 1: D goes, to C. Round 2: A 4, B 3, C 3: B and C tie, and C, with
        // fewer in round 1, goes (no draw); its ballots go to A, which wins in round 3 with 6 of 9.
        let poll = ClubPoll(
            id: "p1", question: "Next?", options: ["A", "B", "C", "D"].map { ClubPollOption(title: $0) },
            method: .ranked, closes: nil)
        let ballots = [[0], [0], [0], [0], [1], [1], [1], [2, 0], [2, 0], [3, 2]]
        let tally = PollTally(poll, ballots: ballots)
        #expect(tally.rounds.map(\.eliminated) == [3, 2, nil])
        #expect(tally.rounds.map(\.byDraw) == [false, false, false])
        #expect(Self.counts(tally.rounds[1]) == [0: 4, 1: 3, 2: 3])
        #expect(Self.counts(tally.rounds[2]) == [0: 6, 1: 3] && tally.rounds[2].exhausted == 1)
        #expect(tally.winner == 0)
        #expect(PollTally(poll, ballots: ballots.reversed()) == tally)
    }

    @Test func approvalAndSingleChoiceCountOnce() {
        let approval = Self.tally([[0, 1], [1], [1, 2]], method: .approval)
        #expect(approval.rounds.count == 1 && approval.winner == 1)
        #expect(Self.counts(approval.rounds[0]) == [0: 1, 1: 3, 2: 1])
        let single = Self.tally([[2], [2], [0]], method: .single)
        #expect(single.winner == 2 && single.rounds.count == 1)
        // A tie for the most: the draw decides, and says so.
        let tied = Self.tally([[0], [1]], method: .single)
        #expect(tied.rounds[0].byDraw && tied.winner == 0)
    }

    @Test func theLatestBallotBeforeTheCloseCounts() {
        let ana = Logs.log(
            0,
            [
                (2, Logs.admit(1), .admit), (3, Logs.admit(2), .admit), (10, Self.poll(), .poll),
                (11, Self.vote([1]), .vote),
                // Ana closes having read her own log so far, Ben's through line 3 and Cy's through line 3.
                (50, Self.close([0: 5, 1: 3, 2: 3]), .close),
            ])
        let ben = Logs.log(
            1, [(20, Self.vote([2]), .vote), (60, Self.vote([3]), .vote)])  // lines 2 and 3: he changes his mind
        let cy = Logs.log(2, [(21, Self.vote([2, 1]), .vote), (40, Self.vote([1, 2]), .vote)])  // line 3 too late
        let club = Logs.fold([ana, ben, cy])
        let poll = club.poll("p1")!
        #expect(poll.closedBy == Logs.members[0])
        #expect(poll.isClosed(at: Date(timeIntervalSince1970: 0)))
        // Ben's change (line 3) came before Ana read it: it counts, though its clock is after the close.
        #expect(poll.ballots[Logs.members[1]] == [2])
        // Cy's change was written after the line Ana had read: her first vote counts.
        let cyLater = Logs.log(
            2, [(21, Self.vote([2, 1]), .vote), (40, Self.vote([1, 2]), .vote), (45, Self.vote([3]), .vote)])
        let later = Logs.fold([ana, ben, cyLater])
        #expect(later.poll("p1")!.ballots[Logs.members[2]] == [0, 1])
        #expect(later.ignored.map(\.line) == [4])
        #expect(later.ignored.first?.detail.contains("after it closed") == true)
        // Every order of the logs counts the same.
        #expect(Logs.fold([cyLater, ben, ana]) == later)
    }

    @Test func withoutACloseTheClosingTimeDecides() {
        let closes = Date(timeIntervalSince1970: 0.1)  // 100 ms
        let ana = Logs.log(
            0, [(2, Logs.admit(1), .admit), (10, Self.poll(closes: closes), .poll), (99, Self.vote([1]), .vote)])
        let ben = Logs.log(1, [(100, Self.vote([2]), .vote)])
        let club = Logs.fold([ana, ben])
        let poll = club.poll("p1")!
        #expect(poll.closedBy == nil && poll.ballots.count == 1)
        #expect(
            poll.isClosed(at: Date(timeIntervalSince1970: 1)) && !poll.isClosed(at: Date(timeIntervalSince1970: 0.05)))
    }

    @Test func whoMayOpenAndCloseFollowsThePolicy() {
        let ben = Logs.log(1, [(20, Self.poll("b1"), .poll), (30, Self.poll("b2"), .poll)])
        let hostsOnly = Logs.fold([Logs.log(0, [(2, Logs.admit(1), .admit)]), ben])
        #expect(hostsOnly.polls.isEmpty)
        #expect(
            hostsOnly.ignored.map(\.detail) == Array(repeating: "a poll opened by a member who is not a host", count: 2)
        )
        // The policy turned to members between Ben's two polls: the second stands, and he may close it.
        let ana = Logs.log(0, [(2, Logs.admit(1), .admit), (25, { $0.polls = .members }, .policy)])
        let members = Logs.fold([ana, ben])
        #expect(members.polls.map(\.poll.id) == ["b2"])
        #expect(members.mayClose(members.polls[0], Logs.members[1]))
        #expect(members.mayOpenPolls(Logs.members[1]) && !hostsOnly.mayOpenPolls(Logs.members[1]))
        // A member who is not a host sets no policy.
        let benPolicy = Logs.log(1, [(20, { $0.polls = .members }, .policy)])
        #expect(Logs.fold([Logs.log(0, [(2, Logs.admit(1), .admit)]), benPolicy]).pollPolicy == .hosts)
    }

    @Test func votesForWhatIsNotThereCountForNothing() {
        let ana = Logs.log(
            0, [(2, Logs.admit(1), .admit), (10, Self.poll(method: .single), .poll)])
        let ben = Logs.log(
            1,
            [
                (20, Self.vote([4]), .vote),  // no option 4
                (21, Self.vote([1, 2]), .vote),  // two in a single-choice poll
                (22, Self.vote([1], poll: "nope"), .vote),  // no such poll
                (23, { line in (line.id, line.answer) = ("m-none", .yes) }, .rsvp),  // no such meeting
            ])
        let club = Logs.fold([ana, ben])
        #expect(club.poll("p1")!.ballots.isEmpty)
        #expect(club.ignored.map(\.line) == [2, 3, 4, 5])
        #expect(club.rsvps.isEmpty)
    }

    @Test func theLatestAnswerToAMeetingCounts() {
        var meeting = ClubMeeting(id: "m1", date: Date(timeIntervalSince1970: 1_800_000_000))
        meeting.book = ClubBook(id: "dune", title: "Dune")
        let ana = Logs.log(0, [(2, Logs.admit(1), .admit), (5, { $0.meeting = meeting }, .meeting)])
        let ben = Logs.log(
            1,
            [
                (10, { line in (line.id, line.answer) = ("m1", .yes) }, .rsvp),
                (11, { line in (line.id, line.answer, line.text) = ("m1", .maybe, "if the train runs") }, .rsvp),
            ])
        let club = Logs.fold([ana, ben])
        #expect(club.rsvps["m1"]?[Logs.members[1]] == ClubRSVP(answer: .maybe, note: "if the train runs"))
        let standings = club.standings(at: club.meetings[0])
        #expect(standings.map { $0.rsvp?.answer } == [nil, .maybe])
    }

    @Test func everyHomeCountsRandomBallotsTheSame() {
        var random = SplitMix(seed: 36)
        for _ in 0..<60 {
            let options = 2 + Int(random.next() % 6)
            let method: ClubPoll.Method = [.single, .ranked, .approval][Int(random.next() % 3)]
            var ana: [(Int64, (inout ClubLine) -> Void, ClubLine.Kind)] = [
                (2, Logs.admit(1), .admit), (3, Logs.admit(2), .admit),
                (10, Self.poll("p1", (1...options).map { "Book \($0)" }, method: method), .poll),
            ]
            var others: [[(Int64, (inout ClubLine) -> Void, ClubLine.Kind)]] = [[], []]
            for member in 0..<3 {
                for index in 0..<(1 + Int(random.next() % 3)) {
                    var choices = Array(1...options).shuffled(using: &random)
                    choices = Array(choices.prefix(method == .single ? 1 : 1 + Int(random.next() % UInt64(options))))
                    let time = Int64(20 + index * 10 + Int(random.next() % 40))
                    if member == 0 {
                        ana.append((time, Self.vote(choices), .vote))
                    } else {
                        others[member - 1].append((time, Self.vote(choices), .vote))
                    }
                }
            }
            ana.sort { $0.0 < $1.0 }
            for index in others.indices { others[index].sort { $0.0 < $1.0 } }
            ana.append(
                (
                    200, Self.close([0: ana.count + 1, 1: 1 + Int(random.next() % 4), 2: 1 + Int(random.next() % 4)]),
                    .close
                ))
            let logs = [Logs.log(0, ana), Logs.log(1, others[0]), Logs.log(2, others[1])]
            let club = Logs.fold(logs)
            for order in [[2, 1, 0], [1, 0, 2], [0, 2, 1]] {
                let again = Logs.fold(order.map { logs[$0] })
                #expect(again == club)
                #expect(again.poll("p1")?.tally == club.poll("p1")?.tally)
            }
            // The winner has the most votes in the last round.
            if let tally = club.poll("p1")?.tally, let winner = tally.winner, let last = tally.rounds.last {
                #expect(last.counts.first { $0.option == winner }?.votes == last.counts.map(\.votes).max())
            }
        }
    }

    @Test func aPollOrBallotBeyondTheBoundsIsRefused() {
        func problem(_ line: String) -> String? {
            do {
                _ = try ClubLine.decode(Data(line.utf8))
                return nil
            } catch let problem as ClubLine.Problem {
                return problem.detail
            } catch {
                return "\(error)"
            }
        }
        let many = (1...10_000).map { "{\"title\":\"Book \($0)\"}" }.joined(separator: ",")
        #expect(
            problem(
                #"{"v":1,"n":2,"t":5,"c":0,"op":"poll","poll":{"id":"p1","question":"Q","method":"ranked","options":["#
                    + many + "]}}")?.contains("2 to 50 options") == true)
        let names = (1...10_000).map(String.init).joined(separator: ",")
        #expect(
            problem(#"{"v":1,"n":2,"t":5,"c":0,"op":"vote","id":"p1","choices":["# + names + "]}")?.contains(
                "different options") == true)
        #expect(problem(#"{"v":1,"n":2,"t":5,"c":0,"op":"vote","id":"p1","choices":[1,1]}"#) != nil)
        #expect(problem(#"{"v":1,"n":2,"t":5,"c":0,"op":"vote","id":"p1","choices":[]}"#) != nil)
        #expect(problem(#"{"v":1,"n":2,"t":5,"c":0,"op":"rsvp","id":"m1","answer":"perhaps"}"#) != nil)
        #expect(problem(#"{"v":1,"n":2,"t":5,"c":0,"op":"rsvp","id":"m1","answer":"yes"}"#) == nil)
        #expect(
            problem(
                #"{"v":1,"n":2,"t":5,"c":0,"op":"poll","poll":{"id":"p1","question":"Q","method":"single","options":[{"title":"A"},{"title":"a"}]}}"#
            ) != nil)
    }
}
