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

    /// The member with this fingerprint.
    public func member(_ fingerprint: String) -> ClubMember? { members.first { $0.fingerprint == fingerprint } }

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
        for item in all where item.line.n <= cut[item.device] ?? Int.max {
            let line = item.line
            guard roster.admitted.contains(item.member) else { continue }
            let isHost = roster.everHost.contains(item.member)
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
        return club
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
