#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A shared club as its members' verified logs make it: the roster, the meetings, where each member
/// stands, and the posts. The same logs make the same club on every machine, in any arrival order:
/// lines are taken in the order of their clocks, then devices, then numbers.
public struct SharedClub: Equatable, Sendable {
    public var id: String
    public var name: String
    /// The founder's key fingerprint: the root of the roster.
    public var founder: String
    /// By name, then fingerprint.
    public var members: [ClubMember]
    /// By date, then id.
    public var meetings: [ClubMeeting]
    /// Each member's furthest published position in each club book, by fingerprint, then book.
    public var progress: [String: [String: ClubPosition]]
    /// The meetings whose target each member reached, by fingerprint.
    public var reached: [String: Set<String>]
    /// By when they were written, then author and id.
    public var posts: [ClubPost]
    /// Each member's answer to each meeting, by meeting, then fingerprint.
    public var rsvps: [String: [String: ClubRSVP]] = [:]
    /// Who may open polls.
    public var pollPolicy = ClubPoll.Policy.hosts
    /// By when they were opened, then id.
    public var polls: [SharedPoll] = []
    /// Verified lines that count for nothing (a vote after its poll closed, a poll opened by whom
    /// the policy does not allow), each with why: in the order they were taken.
    var ignored: [IgnoredLine] = []

    /// The member with this fingerprint.
    public func member(_ fingerprint: String) -> ClubMember? { members.first { $0.fingerprint == fingerprint } }

    /// The poll of this id.
    public func poll(_ id: String) -> SharedPoll? { polls.first { $0.poll.id == id } }

    /// Who may open a poll: a host, or under the `members` policy any member.
    public func mayOpenPolls(_ member: String) -> Bool {
        let state = self.member(member)?.state
        return state == .host || (pollPolicy == .members && state == .member)
    }

    /// Who may close a poll: a host, or its opener under the `members` policy.
    public func mayClose(_ poll: SharedPoll, _ member: String) -> Bool {
        let state = self.member(member)?.state
        return state == .host || (pollPolicy == .members && state == .member && poll.opener == member)
    }

    /// The book of a meeting or of any meeting: the club's own description of it.
    public func book(_ id: String) -> ClubBook? { meetings.lazy.compactMap(\.book).first { $0.id == id } }
}

public struct ClubMember: Equatable, Sendable {
    public enum State: String, Codable, Sendable, Comparable {
        /// Asked to join; not yet admitted: nothing of theirs is shown.
        case pending
        case member, host
        /// Stopped publishing: what they published stays.
        case left
        /// Removed by a host: what they published up to the removal stays.
        case removed

        public static func < (a: State, b: State) -> Bool { a.rawValue < b.rawValue }
    }

    public var fingerprint: String
    /// The OpenSSH public key, `TYPE BASE64`.
    public var key: String
    public var name: String
    public var state: State
    public var devices: [String]

    /// Whether what they publish is shown.
    public var counts: Bool { state != .pending }
}

/// A note or a highlight a member shared with the club.
public struct ClubPost: Equatable, Sendable {
    public var id: String
    public var author: String
    public var book: String
    /// The furthest place it may reveal.
    public var at: ClubPosition
    public var text: String?
    /// A highlight's passage.
    public var quote: String?
    public var place: String?
    public var written: Date
}

/// A verified line that counts for nothing, and why.
struct IgnoredLine: Equatable, Sendable {
    var device: String
    /// Its number in the device's log: its line in the file.
    var line: Int
    var detail: String
}

/// The lines of one device's log that were verified, with whose they are.
struct VerifiedLog: Sendable {
    var device: String
    /// The member's key fingerprint.
    var member: String
    var key: String
    var lines: [ClubLine]
}

enum ClubFold {
    /// The club the verified logs make, rooted in the founder's key (its fingerprint).
    static func club(id: String, founder: String, logs: [VerifiedLog]) -> SharedClub {
        var all: [(line: ClubLine, device: String, member: String, key: String)] = []
        for log in logs {
            for line in log.lines where line.op != .seal { all.append((line, log.device, log.member, log.key)) }
        }
        all.sort { ($0.line.clock, $0.device, $0.line.n) < ($1.line.clock, $1.device, $1.line.n) }

        // A removal covers the member's lines up to a number on each device; the roster is worked out
        // again without the lines past it, until no removal changes.
        var devices: [String: Set<String>] = [:]
        for log in logs { devices[log.member, default: []].insert(log.device) }
        var cut: [String: Int] = [:]
        var roster = Roster(founder: founder)
        for _ in 0..<(ClubFolder.maximumLogs + 1) {
            roster = Roster(founder: founder)
            for item in all where item.line.n <= cut[item.device] ?? Int.max {
                roster.apply(item.line, author: item.member, key: item.key)
            }
            var next: [String: Int] = [:]
            for (member, through) in roster.removed {
                // A log's start names its member whatever is removed.
                for device in devices[member] ?? [] { next[device] = max(1, through[device] ?? 0) }
            }
            if next == cut { break }
            cut = next
        }

        var club = SharedClub(
            id: id, name: roster.name ?? id, founder: founder, members: [], meetings: [], progress: [:], reached: [:],
            posts: [])
        var meetings: [String: ClubMeeting] = [:]
        var cancelled = Set<String>()
        var posts: [String: ClubPost] = [:]
        var decisions = Decisions()
        for item in all where item.line.n <= cut[item.device] ?? Int.max {
            let line = item.line
            guard roster.admitted.contains(item.member) else { continue }
            let isHost = roster.everHost.contains(item.member)
            decisions.apply(line, member: item.member, device: item.device, isHost: isHost)
            switch line.op {
            case .meeting where isHost:
                if let meeting = line.meeting, !cancelled.contains(meeting.id) { meetings[meeting.id] = meeting }
            case .cancel where isHost:
                if let id = line.id {
                    cancelled.insert(id)
                    meetings[id] = nil
                }
            case .progress:
                if let book = line.book, let at = line.at { club.progress[item.member, default: [:]][book] = at }
            case .reached:
                if let meeting = line.reached { club.reached[item.member, default: []].insert(meeting) }
            case .post:
                if let id = line.id, let book = line.book, let at = line.at, let written = line.written {
                    posts[item.member + " " + id] = ClubPost(
                        id: id, author: item.member, book: book, at: at, text: line.text, quote: line.quote,
                        place: line.place, written: Date(timeIntervalSince1970: Double(written) / 1000))
                }
            default:
                break
            }
        }
        club.members = roster.state.map { fingerprint, state in
            ClubMember(
                fingerprint: fingerprint, key: roster.keys[fingerprint] ?? "", name: roster.names[fingerprint] ?? "",
                state: state, devices: (devices[fingerprint] ?? []).sorted())
        }
        .sorted { ($0.name, $0.fingerprint) < ($1.name, $1.fingerprint) }
        club.meetings = meetings.values.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        club.posts = posts.values.sorted { ($0.written, $0.author, $0.id) < ($1.written, $1.author, $1.id) }
        decisions.finish(&club, cancelled: cancelled)
        return club
    }

    /// RSVPs and polls, as the lines taken in order make them.
    private struct Decisions {
        struct Vote {
            var member: String
            var device: String
            var line: ClubLine
            var choices: [Int]
        }

        var policy = ClubPoll.Policy.hosts
        var polls: [String: SharedPoll] = [:]
        var closes: [String: [String: Int]] = [:]
        var votes: [String: [Vote]] = [:]
        var rsvps: [String: [String: ClubRSVP]] = [:]
        var rsvpLines: [String: [(device: String, n: Int)]] = [:]
        var meetings = Set<String>()
        var ignored: [IgnoredLine] = []

        mutating func apply(_ line: ClubLine, member: String, device: String, isHost: Bool) {
            func ignore(_ detail: String) { ignored.append(IgnoredLine(device: device, line: line.n, detail: detail)) }
            switch line.op {
            case .meeting where isHost: if let id = line.meeting?.id { meetings.insert(id) }
            case .policy:
                guard isHost, let polls = line.polls else {
                    return ignore("a poll policy set by a member who is not a host")
                }
                policy = polls
            case .poll:
                guard let poll = line.poll else { return }
                guard isHost || policy == .members else { return ignore("a poll opened by a member who is not a host") }
                guard polls[poll.id] == nil else { return ignore("a second poll with the id \(poll.id)") }
                polls[poll.id] = SharedPoll(
                    poll: poll, opener: member, opened: Date(timeIntervalSince1970: Double(line.t) / 1000),
                    closedBy: nil, ballots: [:])
            case .vote:
                guard let id = line.id, let choices = line.choices else { return }
                guard let poll = polls[id]?.poll else { return ignore("a vote in a poll the club does not have") }
                guard choices.allSatisfy({ $0 <= poll.options.count }) else {
                    return ignore("a vote for an option that poll \(id) does not have")
                }
                guard poll.method != .single || choices.count == 1 else {
                    return ignore("a vote for more than one option in poll \(id), where one is chosen")
                }
                votes[id, default: []].append(
                    Vote(member: member, device: device, line: line, choices: choices.map { $0 - 1 }))
            case .close:
                guard let id = line.id, let through = line.through, let poll = polls[id] else {
                    return ignore("a close of a poll the club does not have")
                }
                guard isHost || (policy == .members && poll.opener == member) else {
                    return ignore("a close of poll \(id) by a member who may not close it")
                }
                guard poll.closedBy == nil else { return }
                polls[id]?.closedBy = member
                closes[id] = through
            case .rsvp:
                guard let id = line.id, let answer = line.answer else { return }
                rsvps[id, default: [:]][member] = ClubRSVP(answer: answer, note: line.text)
                rsvpLines[id, default: []].append((device, line.n))
            default:
                break
            }
        }

        /// Each poll's ballots that count: a member's latest before the close (as far as the closer had
        /// read each log), else before its closing time.
        mutating func finish(_ club: inout SharedClub, cancelled: Set<String>) {
            for (id, var poll) in polls {
                for vote in votes[id] ?? [] {
                    let late =
                        closes[id].map { vote.line.n > $0[vote.device] ?? 0 } == true
                        || poll.poll.closes.map { vote.line.t >= Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
                            == true
                    if late {
                        ignored.append(
                            IgnoredLine(
                                device: vote.device, line: vote.line.n,
                                detail: "a vote in poll \(id) after it closed: not counted"))
                    } else {
                        poll.ballots[vote.member] = vote.choices
                    }
                }
                polls[id] = poll
            }
            club.polls = polls.values.sorted { ($0.opened, $0.poll.id) < ($1.opened, $1.poll.id) }
            club.pollPolicy = policy
            let planned = Set(club.meetings.map(\.id))
            for (meeting, lines) in rsvpLines where !meetings.contains(meeting) && !cancelled.contains(meeting) {
                for line in lines {
                    ignored.append(
                        IgnoredLine(
                            device: line.device, line: line.n, detail: "an answer to a meeting the club does not have"))
                }
            }
            club.rsvps = rsvps.filter { planned.contains($0.key) }
            club.ignored = ignored.sorted { ($0.device, $0.line) < ($1.device, $1.line) }
        }
    }

    /// Who is in the club, as the roster lines taken in order make it.
    private struct Roster {
        let founder: String
        var name: String?
        var state: [String: ClubMember.State] = [:]
        var keys: [String: String] = [:]
        var names: [String: String] = [:]
        var removed: [String: [String: Int]] = [:]
        /// Members admitted at some point, and the founder: what they published while in the club stays.
        var admitted = Set<String>()
        /// Hosts, including those later removed: the meetings they planned while hosts stay.
        var everHost = Set<String>()

        init(founder: String) { self.founder = founder }

        mutating func apply(_ line: ClubLine, author: String, key: String) {
            let isHost = state[author] == .host
            switch line.op {
            case .start:
                keys[author] = key
                if let name = line.name { names[author] = name }
                if state[author] == nil { state[author] = author == founder ? .host : .pending }
                if author == founder {
                    everHost.insert(author)
                    admitted.insert(author)
                }
            case .found where author == founder:
                name = line.name
            case .admit where isHost:
                guard let member = line.member, let key = line.key, let parsed = SSHPublicKey.parse(key),
                    SSHPublicKey.fingerprint(blob: parsed.blob) == member, member != founder
                else { return }
                keys[member] = keys[member] ?? key
                if state[member] == nil || state[member] == .pending || state[member] == .removed {
                    state[member] = .member
                    removed[member] = nil
                    admitted.insert(member)
                }
            case .host where isHost:
                guard let member = line.member, state[member] == .member else { return }
                state[member] = .host
                everHost.insert(member)
            case .remove where isHost:
                guard let member = line.member, member != founder else { return }
                state[member] = .removed
                removed[member] = line.through ?? [:]
            case .leave where state[author] == .member || state[author] == .host:
                if author != founder { state[author] = .left }
            default:
                break
            }
        }
    }
}
