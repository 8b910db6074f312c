#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `agenda`: the meetings of the next `days` days, each with where you stand (`Agenda.items`). It
/// reads every book's line, and the histories of the meetings' books (for the recent pace).
public struct PlanAgenda: LibraryOperation {
    /// The club named (`--club`); else the scene's selected club, else every club.
    public var club: String?
    public var scene: SceneState
    public var now: Date
    public var days: Int
    /// The shared clubs the reader joined (a founder's own club is in the library already).
    public var joined: [JoinedClub]

    public init(club: String?, scene: SceneState, now: Date, days: Int, joined: [JoinedClub] = []) {
        self.joined = joined
        self.club = club
        self.scene = scene
        self.now = now
        self.days = days
    }

    public var books: LibraryScope.Books { .everything }

    /// The clubs to show: the one named, else the selected one, else every club (`nil`).
    func clubs(in library: Library) throws -> [Club]? {
        let all = library.joining(joined)
        if let club { return [try all.resolveClub(club)] }
        guard let selected = scene.club, let club = all.clubs.first(where: { $0.id == selected }) else {
            return all.clubs
        }
        return [club]
    }

    public func resolve(in snapshot: Library) throws -> OperationPlan<[AgendaItem]> {
        let clubs = try clubs(in: snapshot)
        let meetings = Agenda.meetings(of: clubs ?? snapshot.clubs, now: now, days: days)
        return OperationPlan(history: Set(meetings.compactMap(\.meeting.bookID))) { [now, days] library in
            try Agenda.items(in: library, clubs: clubs, now: now, days: days)
        }
    }
}
