#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One line of a member's log in a shared club's folder (`members/<device>.jsonl`): what the member
/// published, stamped with the member's hybrid clock and the line's number in the log. Another member's
/// log is untrusted input: a line is read only if its kind is known, every id is of the form bookclub
/// writes and every value is one a command could have made.
///
/// ```json
/// {"at":{"fraction":0.42,"page":120,"pages":412},"book":"5f2c…","c":0,"n":7,"op":"progress","t":1764041427123,"v":1}
/// ```
///
/// Every batch of lines ends in a `seal`: an SSH signature over the batch and the seal before it.
struct ClubLine: Codable, Equatable, Sendable {
    /// The format version bookclub writes.
    static let version = 1
    /// The longest line read: longer ones are refused rather than held.
    static let maximumLength = 256 * 1024
    /// The longest post or passage, in characters.
    static let maximumText = 20_000

    var v = ClubLine.version
    /// 1, 2, 3… in the order the device wrote them.
    var n: Int
    /// The hybrid clock: milliseconds and counter.
    var t: Int64
    var c: Int
    var op: Kind

    // What each kind carries; every other field is absent.
    /// `start`: the club.
    var club: String?
    /// `start`: the device, as the log's file names it.
    var device: String?
    /// `start`, `admit`: an OpenSSH public key, `TYPE BASE64`.
    var key: String?
    /// `start`, `found`: the member's name; the club's name.
    var name: String?
    /// `admit`, `host`, `remove`: the member, by their key's fingerprint.
    var member: String?
    /// `remove`: the last line of each of the member's devices that still counts; `close`: the last line
    /// of each device's log the closer had read, whose votes count.
    var through: [String: Int]?
    /// `meeting`.
    var meeting: ClubMeeting?
    /// `cancel`, `rsvp`: a meeting; `post`: the post; `vote`, `close`: a poll.
    var id: String?
    /// `progress`, `post`: the club's book.
    var book: String?
    /// `progress`: where the member is; `post`: the furthest place it may reveal.
    var at: ClubPosition?
    /// `reached`: the meeting whose target the member reached.
    var reached: String?
    /// `post`: the member's words; `rsvp`: a note.
    var text: String?
    /// `post`: the passage of a highlight.
    var quote: String?
    /// `post`: where a highlight is in the author's copy ("p. 301", "loc. 4410").
    var place: String?
    /// `post`: when it was written (a highlight: when it was made), in milliseconds.
    var written: Int64?
    /// `rsvp`: whether the member is coming.
    var answer: ClubRSVP.Answer?
    /// `poll`: the question, its options, how it is counted.
    var poll: ClubPoll?
    /// `vote`: the options chosen, numbered from 1; in order of preference in a ranked poll.
    var choices: [Int]?
    /// `policy`: who may open polls.
    var polls: ClubPoll.Policy?
    /// `seal`: the armored SSH signature.
    var sig: String?

    enum Kind: String, Codable, Sendable {
        /// The log's first line: who writes it, for which club. The founder's names the club too.
        case start
        /// The founder's: the club's name.
        case found
        /// A host's: a member admitted (with their key), named a host, or removed.
        case admit, host, remove
        /// The member stops publishing.
        case leave
        /// A host's: a meeting planned or changed (whole), or cancelled.
        case meeting, cancel
        /// How far the member has read a club book (their furthest position).
        case progress
        /// The member reached a meeting's target (the `target` granularity says only this).
        case reached
        /// A note or a highlight shared with the club.
        case post
        /// Whether the member is coming to a meeting (the latest answer counts).
        case rsvp
        /// A host's: who may open polls.
        case policy
        /// A poll opened, a ballot cast (the latest before the close counts), a poll closed.
        case poll, vote, close
        /// The end of a batch: its signature.
        case seal
    }

    var clock: HybridClock { HybridClock(milliseconds: t, counter: c) }

    init(_ op: Kind, sequence: Int, clock: HybridClock) {
        (self.op, n, t, c) = (op, sequence, clock.milliseconds, clock.counter)
    }

    /// The line with its line break, as bookclub writes it: compact, keys sorted.
    func encoded() -> Data {
        var data = (try? Self.encoder.encode(self)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private static let encoder = JSONCoding.encoder(pretty: false)
    private static let decoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// Reads one line (without its line break); throws a `Problem` that says what is wrong.
    static func decode(_ data: Data) throws -> ClubLine {
        guard data.count <= maximumLength else { throw Problem("longer than \(maximumLength / 1024) KiB") }
        guard JSONCoding.isShallow(data) else { throw Problem("nested too deeply") }
        let line: ClubLine
        do {
            line = try decoder.decode(ClubLine.self, from: data)
        } catch let error as DecodingError {
            throw Problem("not a line bookclub writes (\(JSONCoding.describe(error)))")
        } catch {
            throw Problem("not a line bookclub writes")
        }
        try line.check()
        return line
    }

    struct Problem: Error, Equatable {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }

    /// The fields each kind carries.
    private var fields: Set<String> {
        var fields = Set<String>()
        if club != nil { fields.insert("club") }
        if device != nil { fields.insert("device") }
        if key != nil { fields.insert("key") }
        if name != nil { fields.insert("name") }
        if member != nil { fields.insert("member") }
        if through != nil { fields.insert("through") }
        if meeting != nil { fields.insert("meeting") }
        if id != nil { fields.insert("id") }
        if book != nil { fields.insert("book") }
        if at != nil { fields.insert("at") }
        if reached != nil { fields.insert("reached") }
        if text != nil { fields.insert("text") }
        if quote != nil { fields.insert("quote") }
        if place != nil { fields.insert("place") }
        if written != nil { fields.insert("written") }
        if answer != nil { fields.insert("answer") }
        if poll != nil { fields.insert("poll") }
        if choices != nil { fields.insert("choices") }
        if polls != nil { fields.insert("polls") }
        if sig != nil { fields.insert("sig") }
        return fields
    }

    private func check() throws {
        guard v == Self.version else { throw Problem("`v`: version \(v), this bookclub reads \(Self.version)") }
        guard n > 0, t >= 0, c >= 0, c < 1 << 32 else { throw Problem("`n`, `t` and `c`: expected numbers from 0") }
        let (required, optional): (Set<String>, Set<String>) =
            switch op {
            case .start: (["club", "device", "key", "name"], [])
            case .found: (["name"], [])
            case .admit: (["member", "key"], [])
            case .host: (["member"], [])
            case .remove: (["member", "through"], [])
            case .leave: ([], [])
            case .meeting: (["meeting"], [])
            case .cancel: (["id"], [])
            case .progress: (["book", "at"], [])
            case .reached: (["reached"], [])
            case .post: (["id", "book", "at", "written"], ["text", "quote", "place"])
            case .rsvp: (["id", "answer"], ["text"])
            case .policy: (["polls"], [])
            case .poll: (["poll"], [])
            case .vote: (["id", "choices"], [])
            case .close: (["id", "through"], [])
            case .seal: (["sig"], [])
            }
        let present = fields
        guard required.isSubset(of: present), present.isSubset(of: required.union(optional)) else {
            let extra = present.subtracting(required.union(optional)).sorted()
            let missing = required.subtracting(present).sorted()
            throw Problem(
                "`\(op.rawValue)`: "
                    + (missing.isEmpty
                        ? "unexpected " + extra.joined(separator: ", ") : "missing " + missing.joined(separator: ", ")))
        }
        if let club { try Self.checkID(club, "club") }
        if let device, !SyncLine.isDeviceID(device) { throw Problem("`device`: not an id bookclub makes") }
        if let key, SSHPublicKey.parse(key) == nil { throw Problem("`key`: not an OpenSSH public key") }
        if let name { try Self.checkName(name, "name") }
        if let member, !Self.isFingerprint(member) { throw Problem("`member`: not a key fingerprint") }
        if let through {
            guard through.count <= ClubFolder.maximumLogs,
                through.allSatisfy({ SyncLine.isDeviceID($0.key) && $0.value >= 0 })
            else { throw Problem("`through`: expected devices and line numbers") }
        }
        if let meeting { try meeting.check() }
        if let id { try Self.checkID(id, "id") }
        if let book { try Self.checkID(book, "book") }
        if let at { try at.check() }
        if let reached { try Self.checkID(reached, "reached") }
        for (text, what) in [(text, "text"), (quote, "quote")] {
            if let text, text.trimmed.isEmpty || text.count > Self.maximumText {
                throw Problem("`\(what)`: expected up to \(Self.maximumText) characters")
            }
        }
        if op == .post, text == nil, quote == nil { throw Problem("`post`: expected a text or a passage") }
        if let place { try Self.checkName(place, "place") }
        if let poll { try poll.check() }
        if let choices {
            guard (1...ClubPoll.maximumOptions).contains(choices.count),
                choices.allSatisfy({ (1...ClubPoll.maximumOptions).contains($0) }), Set(choices).count == choices.count
            else {
                throw Problem("`choices`: expected up to \(ClubPoll.maximumOptions) different options, numbered from 1")
            }
        }
        if let written, written < 0 { throw Problem("`written`: expected a time") }
        if let sig, sig.utf8.count > 16 * 1024 || !sig.hasPrefix("-----BEGIN SSH SIGNATURE-----") {
            throw Problem("`sig`: not an SSH signature")
        }
    }

    static func checkID(_ id: String, _ what: String) throws {
        guard SyncLine.isID(id) else { throw Problem("`\(what)`: not an id bookclub makes") }
    }

    static func checkName(_ name: String, _ what: String) throws {
        guard !name.trimmed.isEmpty, name.count <= 200 else { throw Problem("`\(what)`: expected a short text") }
    }

    /// `SHA256:` and 43 characters of base64, as `ssh-keygen -l` prints a key's fingerprint.
    static func isFingerprint(_ text: String) -> Bool {
        text.hasPrefix("SHA256:") && text.utf8.count == 50
            && text.utf8.dropFirst(7).allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "/")
            }
    }
}

/// A place in a book as a club member publishes it: the page of their copy and its page count, its
/// ISBN, and the fraction read. A post carries the furthest place it may reveal.
public struct ClubPosition: Codable, Equatable, Sendable {
    public var page: Int?
    /// The page count of the member's copy.
    public var pages: Int?
    public var isbn: String?
    /// 0...1 of the book.
    public var fraction: Double?
    /// The member finished the book (a post: it may reveal anything).
    public var finished: Bool?

    public init(
        page: Int? = nil, pages: Int? = nil, isbn: String? = nil, fraction: Double? = nil, finished: Bool? = nil
    ) {
        (self.page, self.pages, self.isbn, self.fraction, self.finished) = (page, pages, isbn, fraction, finished)
    }

    func check() throws {
        if let page, !(0...Library.pageCounts.upperBound).contains(page) {
            throw ClubLine.Problem("`at.page`: expected a page")
        }
        if let pages, !Library.pageCounts.contains(pages) {
            throw ClubLine.Problem("`at.pages`: expected a page count")
        }
        if let fraction, !fraction.isFinite || !(0...1).contains(fraction) {
            throw ClubLine.Problem("`at.fraction`: expected 0 to 1")
        }
        if let isbn, ISBN.matchKey(isbn) == nil { throw ClubLine.Problem("`at.isbn`: expected an ISBN") }
    }
}

/// A meeting as a host publishes it: its book described, so that each member can find their own copy.
public struct ClubMeeting: Codable, Equatable, Sendable {
    public var id: Meeting.ID
    public var date: Date
    public var book: ClubBook?
    public var target: Meeting.Target?
    public var place: String?

    func check() throws {
        try ClubLine.checkID(id, "meeting.id")
        if let book { try book.check() }
        if let place { try ClubLine.checkName(place, "meeting.place") }
        if let page = target?.page, !(1...Library.pageCounts.upperBound).contains(page) {
            throw ClubLine.Problem("`meeting.target.page`: expected a page")
        }
        if let percent = target?.percent, !percent.isFinite || !(0...100).contains(percent) {
            throw ClubLine.Problem("`meeting.target.percent`: expected 0 to 100")
        }
        if let label = target?.label { try ClubLine.checkName(label, "meeting.target.label") }
    }
}

/// A club book: the host's id for it, and what a member's copy is matched by.
public struct ClubBook: Codable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var author: String?
    public var isbn: String?
    public var pages: Int?

    func check() throws {
        try ClubLine.checkID(id, "book.id")
        try ClubLine.checkName(title, "book.title")
        if let author { try ClubLine.checkName(author, "book.author") }
        if let isbn, ISBN.matchKey(isbn) == nil { throw ClubLine.Problem("`book.isbn`: expected an ISBN") }
        if let pages, !Library.pageCounts.contains(pages) {
            throw ClubLine.Problem("`book.pages`: expected a page count")
        }
    }
}

extension ClubBook {
    /// A book of the reader's library, as the club knows it.
    public init(_ book: Book) {
        self.init(id: book.id, title: book.title, author: book.author, isbn: book.isbn, pages: book.pages)
    }
}
