#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `notes --club`: the notes for one of the chosen club's meetings (`MeetingNotes.report`). It reads
/// every book's line (the clubs name books by id), and the meeting's book's history.
public struct GatherMeetingNotes: LibraryOperation {
    public var club: ClubChoice
    /// `next`, a meeting id, or its date (see `Club.meeting(_:now:timeZone:)`).
    public var meeting: String
    public var now: Date
    public var timeZone: Zone

    /// The shared clubs the reader joined, chosen from when the library has no club of the name.
    public var joined: [JoinedClub] = []

    public init(club: ClubChoice, meeting: String?, now: Date, timeZone: Zone) {
        self.club = club
        self.meeting = meeting ?? "next"
        self.now = now
        self.timeZone = timeZone
    }

    public var books: LibraryScope.Books { .everything }

    public func resolve(in snapshot: Library) throws -> OperationPlan<MeetingNotes.Report> {
        let club = try self.club.choose(in: snapshot.joining(joined))
        let meeting = try club.meeting(meeting, now: now, timeZone: timeZone)
        return OperationPlan(history: meeting.bookID.map { [$0] } ?? []) { [now] library in
            try MeetingNotes.report(club: club, meeting: meeting, library: library, now: now)
        }
    }
}
