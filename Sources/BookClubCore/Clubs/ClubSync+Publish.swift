#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What leaves the library for a shared club, and only that: the furthest position in the books linked
/// to the club's (at the reader's granularity), and a host's meetings. Notes and highlights leave
/// only when a command names the club (`ClubChange.post`).
extension ClubSync {
    /// The club books the library holds under the same ISBN, else the same title and author, that are
    /// not linked yet: a link each.
    public func foundLinks(in club: SharedClub, library: Library) -> [String: Book.ID] {
        var links: [String: Book.ID] = [:]
        for meeting in club.meetings {
            guard let book = meeting.book, state.links[book.id] == nil, links[book.id] == nil else { continue }
            links[book.id] = library.copy(of: book)?.id
        }
        return links
    }

    /// The club books of `club` the reader has not linked, and could not be linked for them.
    public func unlinked(in club: SharedClub) -> [ClubBook] {
        var books: [ClubBook] = []
        for book in club.meetings.compactMap(\.book) where state.links[book.id] == nil && !books.contains(book) {
            books.append(book)
        }
        return books
    }

    /// Whether this reader is in the club as a member or host: only they publish progress and posts (a
    /// pending member's would wait in the folder, unshown, and they were told only their name leaves).
    public func isIn(_ club: SharedClub) -> Bool {
        !state.left && [.member, .host].contains(club.member(state.fingerprint)?.state)
    }

    /// What the linked books say that the club has not heard: at `exact`, each book's furthest
    /// position when it moved on; at `target`, each meeting whose target was reached.
    public func progressChanges(library: Library, club: SharedClub, granularity: ClubProgress) -> [ClubChange] {
        guard isIn(club), granularity != .off else { return [] }
        var changes: [ClubChange] = []
        for (clubBook, bookID) in state.links.sorted(by: { $0.key < $1.key }) {
            guard let book = library[id: bookID] else { continue }
            let position = Spoilers.position(of: book)
            switch granularity {
            case .exact:
                guard position.fraction ?? 0 > 0 || position.finished == true else { continue }
                let published = state.published[clubBook]
                if published != position, published.map({ $0.furthest(position) == position }) ?? true {
                    changes.append(.progress(book: clubBook, position))
                }
            case .target:
                for meeting in club.meetings
                where meeting.book?.id == clubBook && !state.reachedPublished.contains(meeting.id) {
                    if let target = Self.target(of: meeting), Spoilers.reveals(target, to: position) {
                        changes.append(.reached(meeting: meeting.id))
                    }
                }
            case .off:
                break
            }
        }
        return changes
    }

    /// A meeting's target as a place in the club's edition of its book.
    public static func target(of meeting: ClubMeeting) -> ClubPosition? {
        guard let target = meeting.target, let fraction = target.fraction(of: meeting.book?.pages) else { return nil }
        return ClubPosition(
            page: target.page(of: meeting.book?.pages), pages: meeting.book?.pages, isbn: meeting.book?.isbn,
            fraction: fraction)
    }

    /// Notes what `changes` published, so that it is not published again.
    mutating func record(_ changes: [ClubChange]) {
        for change in changes {
            switch change {
            case .progress(let book, let position): state.published[book] = position
            case .reached(let meeting): state.reachedPublished.insert(meeting)
            default: break
            }
        }
    }

    /// The meetings of the reader's own club of this id (a founder's), as the club's lines: those that
    /// changed, and those no longer planned.
    public func meetingChanges(library: Library, club: SharedClub) -> [ClubChange] {
        guard club.founder == state.fingerprint, let local = library.clubs.first(where: { $0.id == state.club }) else {
            return []
        }
        var changes: [ClubChange] = []
        for meeting in local.meetings {
            // A book the command did not load is left as the club has it.
            if let id = meeting.bookID, library[id: id] == nil { continue }
            let book = meeting.bookID.flatMap { library[id: $0] }.map(ClubBook.init)
            let shared = ClubMeeting(
                id: meeting.id, date: meeting.date, book: book, target: meeting.target, place: meeting.place)
            if !club.meetings.contains(shared) { changes.append(.meeting(shared)) }
        }
        for meeting in club.meetings where !local.meetings.contains(where: { $0.id == meeting.id }) {
            changes.append(.cancel(meeting.id))
        }
        return changes
    }

    /// The club as this reader joined it: the club and their links.
    public func joined(_ club: SharedClub) -> JoinedClub { JoinedClub(club: club, links: state.links) }
}

extension Library {
    /// The reader's copy of a club book: the book of the same ISBN, else the only one of the same title
    /// and author.
    public func copy(of book: ClubBook) -> Book? {
        if let key = book.isbn.flatMap(ISBN.matchKey),
            let match = books.first(where: { $0.isbn.flatMap(ISBN.matchKey) == key })
        {
            return match
        }
        let matches = books.filter {
            $0.title.lowercased() == book.title.lowercased()
                && ($0.author ?? "").lowercased() == (book.author ?? "").lowercased()
        }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The library with the clubs the reader joined among its own, each as `JoinedClub.asClub` makes
    /// it (a founder's club is the library's own already): so that they are named, listed and
    /// planned for as its own clubs are.
    public func joining(_ joined: [JoinedClub]) -> Library {
        var library = self
        library.clubs += joined.filter { joined in !clubs.contains { $0.id == joined.club.id } }.map {
            $0.asClub(library: self)
        }
        return library
    }
}

/// A shared club with the reader's links to its books.
public struct JoinedClub: Equatable, Sendable {
    public var club: SharedClub
    /// The reader's own book for each club book, by the club book's id.
    public var links: [String: Book.ID]

    /// The club's meetings as the reader's own club: each meeting's book is the reader's linked copy,
    /// and its target a page of that copy (the same page in the same edition, the same fraction in
    /// another).
    public func asClub(library: Library) -> Club {
        Club(
            id: club.id, name: club.name,
            meetings: club.meetings.map { meeting in
                let book = meeting.book.flatMap { links[$0.id] }.flatMap { library[id: $0] }
                var target = meeting.target
                if let place = ClubSync.target(of: meeting), let book, target?.page != nil {
                    let converted = ClubFeed.place(of: place, in: Spoilers.position(of: book))
                    target?.page = converted?.page
                    if converted?.page == nil { target?.percent = place.fraction.map { $0 * 100 } }
                }
                return Meeting(
                    id: meeting.id, date: meeting.date, bookID: book?.id, target: target, place: meeting.place)
            })
    }
}
