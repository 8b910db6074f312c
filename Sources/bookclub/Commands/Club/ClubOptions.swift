import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the club commands share: the club and member arguments, `--name`, the roster change.
enum ClubOptions {
    static let club = Argument(
        name: "club", help: "The club: an id or id prefix, a name, or words of it. Omitted: the selected club.",
        isOptional: true)
    static let member = Argument(name: "member", help: "The member: a name, or a key fingerprint or its start.")
    static let memberName = Option(
        long: "name", kind: .value("name"), help: "The name the club knows you by (default: your login name).",
        parse: .note)

    static func name(_ arguments: ParsedArguments) throws -> String? {
        guard let name = try arguments[memberName] ?? nil else { return nil }
        guard let trimmed = name.nonBlank, trimmed.count <= 64 else {
            throw ParseError.invalidValue(value: name, label: "--name <name>", reason: "a name of 1 to 64 characters")
        }
        return trimmed
    }
}

extension Session {
    /// The name a member goes by when they give none: their login name.
    var readerName: String {
        (services.variables["USER"] ?? services.variables["LOGNAME"])?.nonBlank ?? "reader"
    }
}

extension ClubOptions {
    /// The club's book named by words of its title; omitted, the next meeting's.
    static func book(_ words: String?, of club: SharedClub, now: Date) throws -> ClubBook {
        var books: [ClubBook] = []
        for book in club.meetings.compactMap(\.book) where !books.contains(where: { $0.id == book.id }) {
            books.append(book)
        }
        guard let words = words?.lowercased().trimmed, !words.isEmpty else {
            if let next = club.meetings.first(where: { $0.date >= now && $0.book != nil })?.book { return next }
            if books.count == 1 { return books[0] }
            throw CommandFailure("\(club.name) has no upcoming meeting with a book: name the book with --club-book.")
        }
        let matches = books.filter { $0.title.lowercased().contains(words) || $0.id.hasPrefix(words) }
        guard matches.count == 1 else {
            throw CommandFailure(
                matches.isEmpty
                    ? "\(club.name) meets about no book like \(words): its books: \(books.map(\.title).joined(separator: ", "))."
                    : "\(words) names \(matches.count) of \(club.name)'s books: \(matches.map(\.title).joined(separator: ", "))."
            )
        }
        return matches[0]
    }

    /// The place a post may reveal: where the reader is in their linked copy, or lower (`--at`).
    static func place(_ at: String?, of book: ClubBook, club: SharedClub, sync: ClubSync, in session: Session) throws
        -> ClubPosition
    {
        guard let linked = sync.state.links[book.id], let own = try session.library().state[id: linked] else {
            throw CommandFailure(
                "Link your copy of \(book.title) first: bookclub club link \(club.name.shellWord) BOOK")
        }
        let here = Spoilers.position(of: own)
        guard let at else {
            // A post placed where you are would tell the club what the setting keeps from it.
            let granularity = try session.settings().state.clubProgress
            guard granularity == .exact else {
                throw CommandFailure(
                    "Give the place the post may reveal with --at (a page, a percent or target): the clubProgress setting (\(granularity)) keeps where you are from the club."
                )
            }
            return here
        }
        let lowered: ClubPosition
        if at.lowercased() == "target" {
            guard let meeting = club.meetings.first(where: { $0.date >= session.now() && $0.book?.id == book.id }),
                let target = ClubSync.target(of: meeting)
            else { throw CommandFailure("No upcoming meeting of \(club.name) about \(book.title) has a target.") }
            lowered = target
        } else {
            switch ProgressValue(parsing: at) {
            case .page(let page)?:
                guard let pages = own.pages, page <= pages else {
                    throw CommandFailure(
                        "--at \(at): your copy of \(own.title) has \(own.pages.map { NumberText.count($0, "page") } ?? "no page count"); give a percent."
                    )
                }
                lowered = ClubPosition(
                    page: page, pages: pages, isbn: here.isbn, fraction: Double(page) / Double(pages))
            case .percent(let percent)?:
                lowered = ClubPosition(
                    page: own.pages.map { Int((percent / 100 * Double($0)).rounded()) }, pages: own.pages,
                    isbn: here.isbn,
                    fraction: percent / 100)
            default:
                throw ParseError.invalidValue(
                    value: at, label: "--at <place>", reason: "expected a page, a percent or target")
            }
        }
        guard here.furthest(lowered) == here || Spoilers.reveals(lowered, to: here) else {
            throw CommandFailure(
                "--at \(at) is further than you have read (\(SharedClubText.place(here, author: nil))): a post can only be placed lower."
            )
        }
        return lowered
    }
}

extension ClubOptions {
    static let poll = Argument(
        name: "poll", help: "The poll: its id or the start of it. Omitted: the only open poll.", isOptional: true)

    /// Throws, saying why, unless the reader is in the club as a member or host: `failure` says what
    /// did not happen ("Nothing posted").
    static func requireMember(_ sync: ClubSync, _ club: SharedClub, _ failure: String) throws {
        guard !sync.isIn(club) else { return }
        let why =
            switch club.member(sync.state.fingerprint)?.state {
            case .pending?: "a host of \(club.name) has not admitted you yet"
            case .removed?: "you were removed from \(club.name)"
            default: "you left \(club.name)"
            }
        throw CommandFailure("\(failure): \(why).")
    }

    /// The poll a reference names (its id or the start of it); omitted, the only open poll.
    static func poll(_ reference: String?, of club: SharedClub, now: Date) throws -> SharedPoll {
        let list = "bookclub club polls \(club.name.shellWord)"
        if let reference {
            let matches = club.polls.filter { $0.poll.id.hasPrefix(reference.lowercased()) }
            guard matches.count == 1 else {
                throw CommandFailure(
                    matches.isEmpty
                        ? "\(club.name) has no poll \(reference): see \(list)."
                        : "\(reference) names \(matches.count) polls of \(club.name): give more of the id (\(list)).")
            }
            return matches[0]
        }
        let open = club.polls.filter { !$0.isClosed(at: now) }
        guard open.count == 1 else {
            throw CommandFailure(
                open.isEmpty
                    ? "\(club.name) has no open poll"
                        + (club.polls.last.map {
                            " (\($0.poll.question) is \(PollText.status($0, club: club, now: now)))"
                        } ?? "")
                        + ": see \(list)."
                    : "\(club.name) has \(open.count) open polls: name one by its id (\(open.map(\.poll.id).joined(separator: ", ")))."
            )
        }
        return open[0]
    }
}

extension Session {
    /// The reader's furthest position in each club book they linked.
    func clubPositions(_ sync: ClubSync) throws -> [String: ClubPosition] {
        let library = try self.library().state
        var positions: [String: ClubPosition] = [:]
        for (clubBook, id) in sync.state.links {
            if let book = library[id: id] { positions[clubBook] = Spoilers.position(of: book) }
        }
        return positions
    }
}

/// What the roster commands (`club admit`, `expel`, `host`) take: the club, the member, `--json`.
struct RosterTarget {
    var reference: String?
    var member: String
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        reference = try arguments[ClubOptions.club]
        member = try arguments[ClubOptions.member] ?? ""
        json = arguments[CommonOptions.json]
    }
}

/// A host's change of the roster: synced first, the member found, the change published and pushed.
protocol RosterCommand: Command {
    /// What the change made of the member, for the message ("admitted").
    static var verb: String { get }
    /// The change for `member`, or why there is none.
    static func change(for member: ClubMember) throws -> ClubChange
    init(target: RosterTarget)
    var target: RosterTarget { get }
}

extension RosterCommand {
    static func rosterConfiguration(name: String, abstract: String, discussion: String) -> CommandConfiguration {
        CommandConfiguration(
            name: name, abstract: abstract, discussion: discussion, examples: ["bookclub club \(name) sci-fi Ben"],
            arguments: [ClubOptions.club, ClubOptions.member], options: [CommonOptions.json])
    }

    init(_ arguments: ParsedArguments) throws {
        self.init(target: try RosterTarget(arguments))
    }

    func run(in session: Session) throws {
        var sync = try session.sharedClub(target.reference)
        let club = try session.syncClub(&sync)
        guard club.member(sync.state.fingerprint)?.state == .host else {
            throw CommandFailure(
                "Only a host of \(club.name) can do that; its hosts: \(club.members.filter { $0.state == .host }.map(\.name).joined(separator: ", "))."
            )
        }
        let member = try club.member(matching: target.member)
        guard member.fingerprint != club.founder else { throw CommandFailure("\(member.name) founded \(club.name).") }
        let changed = try session.syncClub(&sync, publishing: [Self.change(for: member)])
        if target.json { try session.writeJSON(SharedClubJSON.summary(changed, sync.state)) }
        let now = changed.member(member.fingerprint)?.state.rawValue ?? "?"
        session.output.write(
            TerminalText("\(member.name) (\(member.fingerprint)) \(Self.verb): now \(now)."), as: .message)
    }
}
