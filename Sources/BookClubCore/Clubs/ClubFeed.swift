#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The posts of a shared club a reader may see: their own, and the others' whose place the reader
/// has passed in their linked copy of the book. Hidden posts are absent; only their count and the
/// nearest place where one unlocks are told.
public struct ClubFeed: Equatable, Sendable {
    /// In book order (by fraction of the book), then by when they were written.
    public var shown: [ClubPost]
    public var hidden: Int
    /// The nearest place, in the reader's copy where it is linked, where a hidden post unlocks.
    public var nextUnlock: ClubPosition?

    /// - Parameters:
    ///   - positions: the reader's furthest position in each club book they linked, by club book.
    ///   - spoilers: show everything (`--spoilers`).
    public init(
        _ club: SharedClub, me: String, positions: [String: ClubPosition], books: Set<String>? = nil,
        since: Date? = nil, spoilers: Bool = false
    ) {
        var shown: [ClubPost] = []
        var hidden: [(ClubPost, ClubPosition?)] = []
        for post in club.posts {
            guard club.member(post.author)?.counts ?? false else { continue }
            if let books, !books.contains(post.book) { continue }
            if let since, post.written < since { continue }
            let reader = positions[post.book]
            if spoilers || post.author == me || reader.map({ Spoilers.reveals(post.at, to: $0) }) ?? false {
                shown.append(post)
            } else {
                hidden.append((post, reader))
            }
        }
        self.shown = shown.sorted {
            ($0.book, $0.at.fraction ?? $0.at.derivedFraction ?? 2, $0.written, $0.id)
                < ($1.book, $1.at.fraction ?? $1.at.derivedFraction ?? 2, $1.written, $1.id)
        }
        self.hidden = hidden.count
        nextUnlock =
            hidden.compactMap { post, reader in reader.flatMap { Self.place(of: post.at, in: $0) } }
            .min { ($0.fraction ?? 2) < ($1.fraction ?? 2) }
    }

    /// A post's place in the reader's copy: the same page in the same edition, else the same fraction.
    public static func place(of at: ClubPosition, in reader: ClubPosition) -> ClubPosition? {
        if at.finished == true { return ClubPosition(pages: reader.pages, fraction: 1, finished: true) }
        if Spoilers.sameEdition(at, reader), let page = at.page ?? at.derivedPage {
            return ClubPosition(page: page, pages: reader.pages, fraction: at.fraction ?? at.derivedFraction)
        }
        guard let fraction = at.fraction ?? at.derivedFraction else { return nil }
        return ClubPosition(
            page: reader.pages.map { Int((fraction * Double($0)).rounded(.up)) }, pages: reader.pages,
            fraction: fraction)
    }
}

/// Where one member stands against a shared meeting's target.
public struct MemberStanding: Equatable, Sendable {
    public var member: ClubMember
    /// Their furthest published position in the meeting's book; `nil` when they publish none.
    public var position: ClubPosition?
    /// Whether they reached the target: published as such, or read from their position; `nil` when
    /// unknown.
    public var reached: Bool?
    /// Whether they are coming; `nil` when they have not said.
    public var rsvp: ClubRSVP?
}

extension SharedClub {
    /// Each member's standing against a meeting, in roster order (those who left or were removed not
    /// among them).
    public func standings(at meeting: ClubMeeting) -> [MemberStanding] {
        let target = ClubSync.target(of: meeting)
        return members.filter { $0.state == .member || $0.state == .host }.map { member in
            let position = meeting.book.flatMap { progress[member.fingerprint]?[$0.id] }
            var reached: Bool? = reached[member.fingerprint]?.contains(meeting.id) == true ? true : nil
            if reached == nil, let position, let target { reached = Spoilers.reveals(target, to: position) }
            return MemberStanding(
                member: member, position: position, reached: reached, rsvp: rsvps[meeting.id]?[member.fingerprint])
        }
    }
}
