import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A shared club as text: its members, and its posts with where each sits in the author's copy.
enum SharedClubText {
    static func members(_ club: SharedClub, me: String, width: Int?, style: Style) -> [TerminalText] {
        let rows = club.members.map { member -> [TerminalText] in
            var state = member.state.rawValue
            if member.fingerprint == club.founder { state += ", founder" }
            if member.fingerprint == me { state += ", you" }
            return [
                TerminalText(member.name.isEmpty ? "(no name)" : member.name), TerminalText(state),
                TerminalText(member.fingerprint),
            ]
        }
        return Table(rows: rows, flexibleColumn: 0).render(width: width) { column, text in
            column == 2 ? style.dim(text) : text
        }
    }

    /// "p. 300 of Ana's 412-page edition, 73 %", or "73 %", or "the end".
    static func place(_ at: ClubPosition, author: String?) -> String {
        if at.finished == true, at.page == nil, at.fraction == nil { return "the end" }
        let percent = (at.fraction ?? at.derivedFraction).map { ProgressText.percent($0) }
        guard let page = at.page else { return percent ?? "somewhere unknown" }
        let edition = at.pages.map { " of \(author.map { "\($0)'s " } ?? "")\($0)-page edition" } ?? ""
        return "p. \(page)\(edition)" + (percent.map { ", \($0)" } ?? "")
    }

    /// A place in the reader's own copy: "p. 849 (95%)", or "95%".
    static func readerPlace(_ at: ClubPosition) -> String {
        let percent = (at.fraction ?? at.derivedFraction).map { ProgressText.percent($0) } ?? ""
        guard let page = at.page else { return percent }
        return "p. \(page)" + (percent.isEmpty ? "" : " (\(percent))")
    }

    /// "ben: p. 300 of 896 (33%)", "cy: target reached", "ana: shares no progress".
    static func standing(_ standing: MemberStanding) -> TerminalText {
        var text = standing.member.name + ": "
        if let position = standing.position {
            text += position.finished == true ? "finished" : readerPlace(position)
            if let pages = position.pages, position.page != nil { text = text.replacing(" (", with: " of \(pages) (") }
            if standing.reached == true { text += ", target reached" }
        } else {
            text += standing.reached == true ? "target reached" : "shares no progress"
        }
        if let rsvp = standing.rsvp { text += "; " + Self.rsvp(rsvp) }
        return TerminalText(text)
    }

    /// "coming", "not coming", "maybe (if the train runs)".
    static func rsvp(_ rsvp: ClubRSVP) -> String {
        let answer =
            switch rsvp.answer {
            case .yes: "coming"
            case .no: "not coming"
            case .maybe: "maybe"
            }
        return answer + (rsvp.note.map { " (\($0))" } ?? "")
    }

    /// "2 coming, 1 maybe, 1 not coming, 1 yet to say".
    static func attendance(_ standings: [MemberStanding]) -> String {
        let answers = standings.map(\.rsvp?.answer)
        let parts = [
            (answers.filter { $0 == .yes }.count, "coming"), (answers.filter { $0 == .maybe }.count, "maybe"),
            (answers.filter { $0 == .no }.count, "not coming"), (answers.filter { $0 == nil }.count, "yet to say"),
        ]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// A post: who, where, when; then its passage and words.
    static func post(_ post: ClubPost, club: SharedClub, bookTitle: String?, timeZone: Zone) -> [TerminalText] {
        let author = club.member(post.author)?.name ?? post.author
        var head = "\(author), \(place(post.at, author: author))"
        if let bookTitle { head = "\(bookTitle): " + head }
        if let place = post.place { head += " (\(place))" }
        head += ", \(DateText.day(post.written, timeZone: timeZone))"
        var lines: [TerminalText] = [TerminalText(head)]
        if let quote = post.quote { lines.append(TerminalText("  > \(quote)")) }
        if let text = post.text { lines.append(TerminalText("  \(text)")) }
        return lines
    }

    /// The club's posts as a section of the meeting's notes, in book order.
    static func markdown(_ feed: ClubFeed, club: SharedClub, timeZone: Zone) -> TerminalText {
        var lines: [TerminalText] = ["", "## From the club", ""]
        if feed.shown.isEmpty { lines.append("_Nothing you can see yet._") }
        for post in feed.shown {
            let author = club.member(post.author)?.name ?? post.author
            var line = "- \(author), \(place(post.at, author: author))"
            if let place = post.place { line += " (\(place))" }
            line += ", \(DateText.day(post.written, timeZone: timeZone)): "
            if let quote = post.quote { line += "> \(quote)" + (post.text == nil ? "" : " ") }
            if let text = post.text { line += text }
            lines.append(TerminalText(line))
        }
        if let hidden = hidden(feed) { lines += ["", TerminalText("_\(hidden.string)._")] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Who is coming, as a section of the meeting's notes: a line a member.
    static func markdown(_ standings: [MemberStanding]) -> TerminalText {
        var lines: [TerminalText] = ["", "## Who is coming", "", TerminalText(attendance(standings) + ".")]
        lines += standings.map { "- " + standing($0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "2 more posts wait until you read further; the next at p. 310 (75 %)".
    static func hidden(_ feed: ClubFeed) -> TerminalText? {
        guard feed.hidden > 0 else { return nil }
        var line =
            "\(NumberText.count(feed.hidden, "more post")) \(feed.hidden == 1 ? "waits" : "wait") until you read further"
        if let next = feed.nextUnlock {
            line += "; the next at " + (next.finished == true ? "the end" : readerPlace(next))
        } else {
            line += " (link your copy of the book: bookclub club link)"
        }
        return TerminalText(line)
    }
}

/// The `--json` shapes of a shared club.
enum SharedClubJSON {
    struct Member: Encodable {
        var name: String
        var fingerprint: String
        var state: String
        var founder: Bool
        var you: Bool
        var devices: [String]
    }

    static func members(_ club: SharedClub, me: String) -> [Member] {
        club.members.map {
            Member(
                name: $0.name, fingerprint: $0.fingerprint, state: $0.state.rawValue,
                founder: $0.fingerprint == club.founder,
                you: $0.fingerprint == me, devices: $0.devices)
        }
    }

    struct Standing: Encodable {
        var name: String
        var fingerprint: String
        var position: ClubPosition?
        var reached: Bool?
        /// yes, no or maybe; absent when they have not said.
        var rsvp: String?
        var rsvpNote: String?

        init(_ standing: MemberStanding) {
            (name, fingerprint) = (standing.member.name, standing.member.fingerprint)
            (position, reached) = (standing.position, standing.reached)
            (rsvp, rsvpNote) = (standing.rsvp?.answer.rawValue, standing.rsvp?.note)
        }
    }

    struct Post: Encodable {
        var id: String
        var author: String
        var authorName: String
        var book: String
        var bookTitle: String?
        var at: ClubPosition
        var text: String?
        var quote: String?
        var place: String?
        var written: Date
    }

    struct Feed: Encodable {
        var club: String
        var posts: [Post]
        var hidden: Int
        var nextUnlock: ClubPosition?
    }

    static func feed(_ feed: ClubFeed, club: SharedClub) -> Feed {
        Feed(
            club: club.name,
            posts: feed.shown.map {
                Post(
                    id: $0.id, author: $0.author, authorName: club.member($0.author)?.name ?? "", book: $0.book,
                    bookTitle: club.book($0.book)?.title, at: $0.at, text: $0.text, quote: $0.quote, place: $0.place,
                    written: $0.written)
            }, hidden: feed.hidden, nextUnlock: feed.nextUnlock)
    }
}

extension SharedClubJSON {
    /// A shared club as a command that changed it prints it.
    struct Summary: Encodable {
        var id: String
        var name: String
        var folder: String
        /// This member's key fingerprint.
        var you: String
        var left: Bool
        var members: [Member]
        /// The reader's own book for each club book, by the club book's id.
        var links: [String: String]
        var posts: Int
    }

    static func summary(_ club: SharedClub, _ state: ClubMembership) -> Summary {
        Summary(
            id: club.id, name: club.name, folder: state.folder, you: state.fingerprint, left: state.left,
            members: members(club, me: state.fingerprint), links: state.links, posts: club.posts.count)
    }
}
