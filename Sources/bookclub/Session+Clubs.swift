import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Shared clubs around a command: a club command syncs its club first (pull, verify, publish, push);
/// a command that moved a linked book on publishes it after its save.
extension Session {
    var clubHome: ClubHome { ClubHome(storePath: storage.path, fileSystem: services.fileSystem) }

    var keygen: SSHKeygen {
        SSHKeygen(runner: services.runner, environment: services.variables, fileSystem: services.fileSystem)
    }

    /// The key that signs: the `clubKey` setting (`~/` for the home folder), else bookclub's own.
    func clubKeyPath() throws -> String {
        let key = try settings().state.clubKey.trimmed
        if key.isEmpty { return clubHome.defaultKeyPath }
        if key.hasPrefix("~/") { return (services.variables["HOME"] ?? FileSystem.userHome()) + key.dropFirst(1) }
        return absolutePath(key)
    }

    /// The shared club a reference names.
    func sharedClub(_ reference: String?) throws -> ClubSync {
        ClubSync(
            home: clubHome, keygen: keygen, state: try clubHome.choose(reference, selected: try scene().state.club))
    }

    /// Syncs a shared club: in a git work tree pulls first; verifies what came; links the club's books
    /// found in the library; publishes what is due and `extra`; commits this device's log and pushes.
    @discardableResult
    func syncClub(_ sync: inout ClubSync, publishing extra: [ClubChange] = []) throws -> SharedClub {
        let git = Git(folder: sync.state.folder, environment: services.variables, runner: services.runner)
        try git?.pull()
        var (club, report) = try sync.sync(now: services.now())
        let library = try self.library().state
        try sync.link(sync.foundLinks(in: club, library: library))
        let changes =
            sync.meetingChanges(library: library, club: club)
            + sync.progressChanges(library: library, club: club, granularity: try settings().state.clubProgress) + extra
        if !changes.isEmpty {
            try sync.publish(changes, now: services.now(), club: club)
            club = try sync.club()
        }
        try git?.commitAndPush(
            log: ClubFolder(path: sync.state.folder).logPath(of: sync.state.device), device: sync.state.name)
        warn(report, club: club)
        return club
    }

    /// Every shared club of this store, as its verified logs make it once what came is read (nothing is
    /// published, nothing pushed): for `agenda` and `notes`. A club that cannot be read is a warning.
    func sharedClubsRead() -> [(sync: ClubSync, joined: JoinedClub)] {
        let home = clubHome
        var clubs: [(sync: ClubSync, joined: JoinedClub)] = []
        for id in home.clubs() {
            do {
                guard let state = try home.state(of: id) else { continue }
                var sync = ClubSync(home: home, keygen: keygen, state: state)
                let (club, report) = try sync.sync(now: services.now())
                warn(report, club: club)
                clubs.append((sync, sync.joined(club)))
            } catch {
                output.write("could not read club \(id): \(ErrorReport.line(error, timeZone: timeZone))", as: .warning)
            }
        }
        return clubs
    }

    /// The library with the shared clubs this store joined among its own clubs (`Library.joining`),
    /// those clubs (their books found in the library linked), and their books by meeting (for a
    /// meeting whose book the reader has not linked).
    func libraryJoiningClubs() throws -> (
        library: Library, shared: [(sync: ClubSync, joined: JoinedClub)], clubBooks: [Meeting.ID: ClubBook]
    ) {
        let library = try library().state
        var shared = sharedClubsRead()
        // The club books found in the library since the last club command are linked now.
        for index in shared.indices {
            try shared[index].sync.link(shared[index].sync.foundLinks(in: shared[index].joined.club, library: library))
            shared[index].joined = shared[index].sync.joined(shared[index].joined.club)
        }
        return (library.joining(shared.map(\.joined)), shared, clubBooks(shared))
    }

    /// The shared clubs' books by meeting, for a meeting whose book the reader has not linked.
    func clubBooks(_ shared: [(sync: ClubSync, joined: JoinedClub)]) -> [Meeting.ID: ClubBook] {
        var books: [Meeting.ID: ClubBook] = [:]
        for meeting in shared.flatMap(\.joined.club.meetings) { books[meeting.id] = meeting.book }
        return books
    }

    func warn(_ report: ClubReport, club: SharedClub) {
        if report.restored {
            output.write(
                "\(club.name): this member's log in the folder was damaged; it was written again from the copy kept here",
                as: .warning)
        }
        for problem in report.problems {
            output.write(TerminalText("\(club.name): \(SyncText.problem(problem))"), as: .warning)
        }
        for line in report.ignored {
            output.write(TerminalText("\(club.name): \(line.file):\(line.line): \(line.detail)"), as: .warning)
        }
        if report.waiting > 0 {
            output.write(
                "\(club.name): more arrived than one sync verifies; the rest comes with the next", as: .warning)
        }
    }

    /// After a command's save: publishes, to each shared club, the linked books it moved on, and to a
    /// club the reader founded, the meetings it planned or cancelled.
    /// A failure is a warning: the change stands here, and the next club sync publishes it.
    func publishToClubs() {
        guard let change = savedChange, !change.books.isEmpty || change.clubs != nil else { return }
        let home = clubHome
        let clubs = home.clubs()
        guard !clubs.isEmpty else { return }
        let changed = Library(books: change.books.compactMap(\.after))
        let ids = Set(changed.books.map(\.id))
        for id in clubs {
            var name = id
            do {
                let plans = change.clubs.map { $0.after.contains { $0.id == id } || $0.before.contains { $0.id == id } }
                guard let state = try home.state(of: id), !state.left,
                    state.links.values.contains(where: ids.contains) || plans == true
                else { continue }
                name = state.clubName
                var sync = ClubSync(home: home, keygen: keygen, state: state)
                // What came first (an admission, a meeting), then what this change says.
                let (club, read) = try sync.sync(now: services.now())
                warn(read, club: club)
                var changes = sync.progressChanges(
                    library: changed, club: club, granularity: try settings().state.clubProgress)
                if plans == true { changes = sync.meetingChanges(library: try library().state, club: club) + changes }
                guard !changes.isEmpty else { continue }
                try sync.publish(changes, now: services.now(), club: club)
            } catch {
                output.write(
                    "the change is saved here, but not yet shared with \(name) (the next `bookclub club sync` tries again): \(ErrorReport.line(error, timeZone: timeZone))",
                    as: .warning)
            }
        }
    }
}
