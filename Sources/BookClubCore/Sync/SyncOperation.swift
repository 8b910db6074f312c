#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A hybrid logical clock reading: wall-clock milliseconds, and a counter that moves on when the wall
/// clock does not (it stood still, went backwards, or another device's clock ran ahead). A device's
/// readings only ever grow, and a change made after seeing another's reads later than it.
public struct HybridClock: Codable, Comparable, Hashable, Sendable {
    public var milliseconds: Int64
    public var counter: Int

    public init(milliseconds: Int64 = 0, counter: Int = 0) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    /// The next reading at wall-clock time `now`.
    public mutating func tick(now: Date) -> HybridClock {
        let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if wall > milliseconds {
            (milliseconds, counter) = (wall, 0)
        } else {
            counter += 1
        }
        return self
    }

    /// Moves past a reading seen from another device.
    public mutating func witness(_ other: HybridClock) {
        if other > self { self = other }
    }

    public static func < (a: HybridClock, b: HybridClock) -> Bool {
        (a.milliseconds, a.counter) < (b.milliseconds, b.counter)
    }
}

/// One change a device made, as its log keeps it: a line of `devices/<device>.jsonl`.
///
/// Operations are applied in the order of `(clock, device, sequence)`, the same on every device, and
/// each says what a thing *is* after it (a field's value, an entry, a tombstone), never what to add to
/// it: applying the same set of operations gives the same library whatever order they arrived in.
struct SyncOperation: Equatable, Sendable {
    /// The format version this bookclub writes; a line of a later one is kept in its log and passed over.
    public static let version = 1

    public var device: String
    /// 1, 2, 3… in the order the device wrote them.
    public var sequence: Int
    public var clock: HybridClock
    public var change: Change

    public init(device: String, sequence: Int, clock: HybridClock, change: Change) {
        self.device = device
        self.sequence = sequence
        self.clock = clock
        self.change = change
    }

    /// The order every device applies operations in.
    static func precedes(_ a: SyncOperation, _ b: SyncOperation) -> Bool {
        if a.clock != b.clock { return a.clock < b.clock }
        if a.device != b.device { return a.device < b.device }
        return a.sequence < b.sequence
    }

    public enum Change: Equatable, Sendable {
        case addBook(BookCore)
        case setField(book: Book.ID, BookField)
        /// A tag put on (`on`) or taken off a book; tags are compared without case.
        case tag(book: Book.ID, tag: String, on: Bool)
        /// A removal that covers the book's operations up to each device's sequence in `seen`: one
        /// not covered (an edit made concurrently) brings the book back.
        case removeBook(book: Book.ID, seen: [String: Int])
        case putReading(book: Book.ID, ReadingCore)
        case removeReading(book: Book.ID, reading: UUID)
        case putEntry(book: Book.ID, reading: UUID, ReadingProgress.Entry)
        case removeEntry(book: Book.ID, reading: UUID, entry: UUID)
        case putHighlight(book: Book.ID, reading: UUID, Highlight)
        case removeHighlight(book: Book.ID, reading: UUID, highlight: Highlight.ID)
        case putClub(ClubCore)
        case removeClub(Club.ID)
        case putMeeting(club: Club.ID, Meeting)
        case removeMeeting(club: Club.ID, meeting: Meeting.ID)
        /// The readable name the device goes by (`sync init --name`).
        case nameDevice(String)

        /// The ids the change takes out of the library while the operations keep them.
        var hides: [String] {
            switch self {
            case .removeReading(_, let reading): [reading.uuidString]
            case .removeEntry(_, _, let entry): [entry.uuidString]
            case .removeHighlight(_, _, let highlight): [highlight]
            case .removeClub(let club): [club]
            case .removeMeeting(_, let meeting): [meeting]
            default: []
            }
        }

        /// The change, with a removal's `seen` left out (to compare what two diffs say).
        var withoutSeen: Self {
            if case .removeBook(let book, _) = self { return .removeBook(book: book, seen: [:]) }
            return self
        }

        /// What the change writes, whatever the value: two changes of one subject may write the same
        /// value, two of different subjects never do.
        var subject: String {
            switch self {
            case .addBook(let core): "book " + core.id
            case .removeBook(let book, _): "book " + book
            case .setField(let book, let field): "field \(book) \(field.name)"
            case .tag(let book, let tag, _): "tag \(book) \(tag.lowercased())"
            case .putReading(let book, let core): "reading \(book) \(core.id)"
            case .removeReading(let book, let reading): "reading \(book) \(reading)"
            case .putEntry(let book, _, let entry): "entry \(book) \(entry.id)"
            case .removeEntry(let book, _, let entry): "entry \(book) \(entry)"
            case .putHighlight(let book, _, let highlight): "highlight \(book) \(highlight.id)"
            case .removeHighlight(let book, _, let highlight): "highlight \(book) \(highlight)"
            case .putClub(let core): "club " + core.id
            case .removeClub(let club): "club " + club
            case .putMeeting(let club, let meeting): "meeting \(club) \(meeting.id)"
            case .removeMeeting(let club, let meeting): "meeting \(club) \(meeting)"
            case .nameDevice: "name"
            }
        }

        /// The book the change is about, if any.
        var book: Book.ID? {
            switch self {
            case .addBook(let core): core.id
            case .setField(let book, _), .tag(let book, _, _), .removeBook(let book, _), .putReading(let book, _),
                .removeReading(let book, _), .putEntry(let book, _, _), .removeEntry(let book, _, _),
                .putHighlight(let book, _, _), .removeHighlight(let book, _, _):
                book
            case .putClub, .removeClub, .putMeeting, .removeMeeting, .nameDevice: nil
            }
        }
    }
}

/// A book without its readings: what `addBook` carries. Its fields repeat `Book`'s on purpose: they are
/// the log's format (as `StoredBook`'s are the store's), and a field added to `Book` is added here when
/// it is to travel.
struct BookCore: Codable, Equatable, Sendable {
    public var id: Book.ID
    public var title: String
    public var author: String?
    public var pages: Int?
    public var isbn: String?
    public var coverName: String?
    public var tags: [String]
    public var rating: Double?
    public var review: String?
    public var privateNotes: String?
    public var contributors: [Contributor]?
    public var details: [String: [String]]?
    public var format: Book.Format?
    public var length: Int?
    public var added: Date

    init(_ book: Book) {
        (id, title, author, pages, isbn, coverName, tags) =
            (book.id, book.title, book.author, book.pages, book.isbn, book.coverName, book.tags)
        (rating, review, privateNotes, contributors, details, added) =
            (book.rating, book.review, book.privateNotes, book.contributors, book.details, book.added)
        (format, length) = (book.format, book.length)
    }

    /// The book these fields make, with `readings`.
    func book(readings: [Reading], tags: [String]? = nil) -> Book {
        Book(
            id: id, title: title, author: author, pages: pages, isbn: isbn, coverName: coverName,
            tags: tags ?? self.tags,
            rating: rating, review: review, privateNotes: privateNotes, contributors: contributors, details: details,
            format: format, length: length, added: added, readings: readings)
    }
}

/// One of a book's own fields with its value; each is last-writer-wins on its own.
enum BookField: Equatable, Sendable {
    case title(String)
    case author(String?)
    case pages(Int?)
    case isbn(String?)
    case coverName(String?)
    case rating(Double?)
    case review(String?)
    case privateNotes(String?)
    case contributors([Contributor]?)
    case details([String: [String]]?)
    case format(Book.Format?)
    case length(Int?)

    var name: String {
        switch self {
        case .title: "title"
        case .author: "author"
        case .pages: "pages"
        case .isbn: "isbn"
        case .coverName: "coverName"
        case .rating: "rating"
        case .review: "review"
        case .privateNotes: "privateNotes"
        case .contributors: "contributors"
        case .details: "details"
        case .format: "format"
        case .length: "length"
        }
    }

    /// The fields in which `new` differs from `old`.
    static func changes(from old: Book, to new: Book) -> [BookField] {
        var fields: [BookField] = []
        if old.title != new.title { fields.append(.title(new.title)) }
        if old.author != new.author { fields.append(.author(new.author)) }
        if old.pages != new.pages { fields.append(.pages(new.pages)) }
        if old.isbn != new.isbn { fields.append(.isbn(new.isbn)) }
        if old.coverName != new.coverName { fields.append(.coverName(new.coverName)) }
        if old.rating != new.rating { fields.append(.rating(new.rating)) }
        if old.review != new.review { fields.append(.review(new.review)) }
        if old.privateNotes != new.privateNotes { fields.append(.privateNotes(new.privateNotes)) }
        if old.contributors != new.contributors { fields.append(.contributors(new.contributors)) }
        if old.details != new.details { fields.append(.details(new.details)) }
        if old.format != new.format { fields.append(.format(new.format)) }
        if old.length != new.length { fields.append(.length(new.length)) }
        return fields
    }

    func apply(to core: inout BookCore) {
        switch self {
        case .title(let value): core.title = value
        case .author(let value): core.author = value
        case .pages(let value): core.pages = value
        case .isbn(let value): core.isbn = value
        case .coverName(let value): core.coverName = value
        case .rating(let value): core.rating = value
        case .review(let value): core.review = value
        case .privateNotes(let value): core.privateNotes = value
        case .contributors(let value): core.contributors = value
        case .details(let value): core.details = value
        case .format(let value): core.format = value
        case .length(let value): core.length = value
        }
    }
}

/// A reading without its entries and highlights: what `putReading` carries.
struct ReadingCore: Codable, Equatable, Sendable {
    public var id: UUID
    public var started: Date?
    public var ending: Ending?
    public var resumed: [Ending]?
    public var format: Book.Format?

    init(_ reading: Reading) {
        (id, started, ending, resumed) = (reading.id, reading.started, reading.ending, reading.resumed)
        format = reading.format
    }
}

/// A club without its meetings: what `putClub` carries.
struct ClubCore: Codable, Equatable, Sendable {
    public var id: Club.ID
    public var name: String
    public var description: String?

    init(_ club: Club) {
        (id, name, description) = (club.id, club.name, club.description)
    }
}
