#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A book club: a name, a description, and its schedule of meetings.
///
/// The club's current book is derived from its schedule (the book of the next meeting), never stored.
public struct Club: Identifiable, Codable, Equatable, Sendable {
    public typealias ID = String

    public let id: ID
    public var name: String
    public var description: String?
    /// The meetings, in date order.
    public private(set) var meetings: [Meeting]

    public init(id: ID, name: String, description: String? = nil, meetings: [Meeting] = []) {
        self.id = id
        self.name = name
        self.description = description
        self.meetings = meetings.sorted { $0.date < $1.date }
    }

    /// The first meeting at or after `now`.
    public func nextMeeting(after now: Date) -> Meeting? {
        meetings.first { $0.date >= now }
    }

    /// The book of the next meeting that has one.
    public func currentBookID(at now: Date) -> Book.ID? {
        meetings.first { $0.date >= now && $0.bookID != nil }?.bookID
    }

    /// The club's last meeting before `meeting` about the same book, if any.
    public func meeting(before meeting: Meeting) -> Meeting? {
        meetings.last { $0.date < meeting.date && $0.bookID == meeting.bookID }
    }

    /// Adds a meeting in date order.
    public mutating func schedule(_ meeting: Meeting) {
        let index = meetings.firstIndex { $0.date > meeting.date } ?? meetings.endIndex
        meetings.insert(meeting, at: index)
    }

    /// Removes a meeting; returns it.
    @discardableResult
    public mutating func cancel(meetingID: Meeting.ID) -> Meeting? {
        guard let index = meetings.firstIndex(where: { $0.id == meetingID }) else { return nil }
        return meetings.remove(at: index)
    }

    /// Takes a removed book off the meetings that were to discuss it.
    mutating func forget(bookID: Book.ID) {
        for index in meetings.indices where meetings[index].bookID == bookID { meetings[index].bookID = nil }
    }

    /// Points the meetings that were to discuss one book at another (an imported club whose book was
    /// already in the store under another id).
    mutating func replace(bookID old: Book.ID, with new: Book.ID) {
        for index in meetings.indices where meetings[index].bookID == old { meetings[index].bookID = new }
    }

    /// The meeting a reference names: an id or unique id prefix, `next`, or a date (`2026-12-03`)
    /// on which exactly one meeting falls.
    public func meeting(_ reference: String, now: Date, timeZone: Zone) throws -> Meeting {
        let needle = reference.lowercased().trimmed
        if needle == "next", let next = nextMeeting(after: now) { return next }
        let byID = meetings.filter { $0.id.hasPrefix(needle) && !needle.isEmpty }
        if byID.count == 1 { return byID[0] }
        if let day = When.parse(reference.trimmed, now: now, timeZone: timeZone, looking: .ahead) {
            let sameDay = meetings.filter { timeZone.day(of: $0.date) == timeZone.day(of: day) }
            if sameDay.count == 1 { return sameDay[0] }
        }
        throw BookClubError.meetingNotFound(club: name, reference: reference)
    }
}

/// One meeting of a club: when, which book, how far to read, where.
public struct Meeting: Identifiable, Codable, Equatable, Sendable {
    public typealias ID = String

    public let id: ID
    public var date: Date
    public var bookID: Book.ID?
    public var target: Target?
    /// A place or a link.
    public var place: String?

    public init(id: ID, date: Date, bookID: Book.ID? = nil, target: Target? = nil, place: String? = nil) {
        self.id = id
        self.date = date
        self.bookID = bookID
        self.target = target
        self.place = place
    }

    /// How far to read by a meeting: a page or a percent, and a free label ("chapters 1-12").
    public struct Target: Codable, Equatable, Sendable {
        public var page: Int?
        public var percent: Double?
        public var label: String?

        public init(page: Int? = nil, percent: Double? = nil, label: String? = nil) {
            self.page = page
            self.percent = percent
            self.label = label
        }

        /// The target as a page of a book with `pages` pages, when it can be known.
        public func page(of pages: Int?) -> Int? {
            if let page { return page }
            guard let percent, let pages else { return nil }
            return Int((percent / 100 * Double(pages)).rounded(.up))
        }

        /// The target as a fraction of the book, when it can be known.
        public func fraction(of pages: Int?) -> Double? {
            if let percent { return percent / 100 }
            guard let page, let pages, pages > 0 else { return nil }
            return min(1, Double(page) / Double(pages))
        }

        /// "p. 250 (chapters 1-12)", "45%", "chapters 1-12"; in an audiobook, a percent as the time it
        /// stands for, "4:51 (30%)".
        public func text(in book: Book? = nil) -> String {
            var amount = page.map { "p. \($0)" } ?? percent.map { ProgressText.percent($0 / 100) }
            if page == nil, let percent, let book, let length = book.length, book.isHeard(book.currentReading) {
                amount = DurationText.clock(Int((percent / 100 * Double(length)).rounded())) + " (\(amount ?? ""))"
            }
            switch (amount, label) {
            case (let amount?, let label?): return "\(amount) (\(label))"
            case (let amount?, nil): return amount
            case (nil, let label?): return label
            case (nil, nil): return ""
            }
        }
    }
}

extension Library {
    /// The club called `name`, other than `except`. One rule for every club name: blanks around it
    /// and case do not count, so "Sci-Fi Club" and " sci-fi club" are one name.
    public func club(named name: String, except id: Club.ID? = nil) -> Club? {
        let key = name.trimmed.lowercased()
        return clubs.first { $0.id != id && $0.name.trimmed.lowercased() == key }
    }

    /// Adds a club, its name trimmed.
    public mutating func addClub(_ club: Club) throws {
        var club = club
        club.name = club.name.trimmed
        guard self.club(named: club.name) == nil else { throw BookClubError.duplicateClub(club.name) }
        clubs.append(club)
    }

    /// Renames a club; the name is trimmed and must be no other club's.
    public mutating func renameClub(_ id: Club.ID, to name: String) throws {
        let name = name.trimmed
        guard club(named: name, except: id) == nil else { throw BookClubError.duplicateClub(name) }
        guard let index = clubIndex(of: id) else { return }
        clubs[index].name = name
    }

    /// Removes a club and its meetings. Returns the removed club.
    @discardableResult
    public mutating func removeClub(_ id: Club.ID) -> Club? {
        clubIndex(of: id).map { clubs.remove(at: $0) }
    }

    /// The index of the club with this id.
    public func clubIndex(of id: Club.ID) -> Int? {
        clubs.firstIndex { $0.id == id }
    }
}

extension Club {
    /// Replaces a meeting in its place.
    mutating func replace(_ meeting: Meeting) {
        if let index = meetings.firstIndex(where: { $0.id == meeting.id }) { meetings[index] = meeting }
    }
}
