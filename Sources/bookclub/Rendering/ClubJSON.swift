import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `--json` shape of a meeting.
struct MeetingJSON: Encodable {
    var id: String
    var club: String
    var clubId: String
    var date: Date
    var book: String?
    var bookTitle: String?
    var target: Meeting.Target?
    var place: String?
    /// A shared club's: where each member stands, and whether they are coming.
    var members: [SharedClubJSON.Standing]? = nil

    init(_ meeting: Meeting, club: Club, library: Library) {
        id = meeting.id
        self.club = club.name
        clubId = club.id
        date = meeting.date
        book = meeting.bookID
        bookTitle = meeting.bookID.flatMap { library[id: $0]?.title }
        target = meeting.target
        place = meeting.place
    }
}

/// The `--json` shape of a club.
struct ClubJSON: Encodable {
    var id: String
    var name: String
    var description: String?
    /// The book of the next meeting that has one.
    var currentBook: String?
    var meetings: [MeetingJSON]
    /// A shared club's polls.
    var polls: [PollJSON]? = nil

    init(_ club: Club, library: Library, now: Date, shared: (club: SharedClub, me: String)? = nil) {
        id = club.id
        name = club.name
        description = club.description
        currentBook = club.currentBookID(at: now)
        meetings = club.meetings.map { meeting in
            var json = MeetingJSON(meeting, club: club, library: library)
            json.members = shared.flatMap { shared in
                shared.club.meetings.first { $0.id == meeting.id }.map {
                    shared.club.standings(at: $0).map(SharedClubJSON.Standing.init)
                }
            }
            return json
        }
        polls = shared.map { shared in
            shared.club.polls.map { PollJSON($0, club: shared.club, me: shared.me, now: now) }
        }
    }
}

/// The `--json` shape of an agenda item: the meeting and the numbers of where you stand.
struct AgendaJSON: Encodable {
    var meeting: MeetingJSON
    var targetPage: Int?
    var targetProgress: Double?
    var currentPage: Int?
    var progress: Double?
    var pagesToGo: Int?
    var daysLeft: Double
    var pagesPerDay: Double?
    var recentPagesPerDay: Double?
    /// An audiobook's: where you are and the minutes to go, the minutes a day that reach the target,
    /// and your recent pace.
    var currentListened: Int?
    var minutesToGo: Int?
    var minutesPerDay: Double?
    var recentMinutesPerDay: Double?
    var reached: Bool
    var onTrack: Bool?
    var standing: AgendaItem.Standing
    /// In a shared club, where each member stands.
    var members: [SharedClubJSON.Standing]?

    init(_ item: AgendaItem, library: Library) {
        meeting = MeetingJSON(item.meeting, club: item.club, library: library)
        targetPage = item.targetPage
        targetProgress = item.targetFraction
        currentPage = item.currentPage
        progress = item.book?.currentProgress
        pagesToGo = item.pagesToGo
        daysLeft = (item.daysLeft * 10).rounded() / 10
        pagesPerDay = item.pagesPerDay.map { ($0 * 10).rounded() / 10 }
        recentPagesPerDay = item.recentPagesPerDay.map { ($0 * 10).rounded() / 10 }
        (currentListened, minutesToGo) = (item.currentListened, item.minutesToGo)
        minutesPerDay = item.minutesPerDay.map { ($0 * 10).rounded() / 10 }
        recentMinutesPerDay = item.recentMinutesPerDay.map { ($0 * 10).rounded() / 10 }
        reached = item.standing == .reached
        onTrack = item.standing == .unknown ? nil : item.standing != .behind
        standing = item.standing
    }
}

enum MeetingText {
    /// "Dune to p. 250 (chapters 1-12)"
    /// - Parameter clubBooks: a shared club's books by meeting, for a meeting whose book the reader has
    ///   not linked.
    static func describe(_ meeting: Meeting, library: Library, clubBooks: [Meeting.ID: ClubBook] = [:]) -> String {
        var text =
            meeting.bookID.flatMap { library[id: $0]?.title }
            ?? clubBooks[meeting.id].map { "\($0.title) (not linked: bookclub club link)" } ?? "no book chosen"
        if let target = meeting.target { text += " to " + target.text(in: meeting.bookID.flatMap { library[id: $0] }) }
        return text
    }

    /// "you are on p. 206, 44 pages to go, 5.5 pages a day" and a flag when behind; in an audiobook
    /// "you are at 3:25, 1 h 40 min to go, 25 min a day".
    static func standing(_ item: AgendaItem) -> String {
        switch item.standing {
        case .unknown where item.pagesToGo == nil && item.minutesToGo == nil: return ""
        case .reached: return "target reached"
        case .unknown, .onTrack, .behind:
            if let minutesToGo = item.minutesToGo {
                let perDay = { (minutes: Double?) in DurationText.describe(minutes: Int((minutes ?? 0).rounded(.up))) }
                var text =
                    "you are at \(DurationText.clock(item.currentListened ?? 0)), \(minutesToGo == 0 ? "0 min" : DurationText.describe(minutes: minutesToGo)) to go, \(perDay(item.minutesPerDay)) a day"
                if item.standing == .behind {
                    text += "; behind: your recent pace is \(perDay(item.recentMinutesPerDay)) a day"
                }
                return text
            }
            var text =
                "you are on p. \(item.currentPage ?? 0), \(NumberText.count(item.pagesToGo ?? 0, "page")) to go, \(NumberText.short(item.pagesPerDay ?? 0)) pages a day"
            if item.standing == .behind {
                text += "; behind: your recent pace is \(NumberText.short(item.recentPagesPerDay ?? 0)) pages a day"
            }
            return text
        }
    }
}
