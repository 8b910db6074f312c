#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a member publishes: each becomes a line of their log, and a command's lines end in one seal.
public enum ClubChange: Equatable, Sendable {
    case progress(book: String, ClubPosition)
    case reached(meeting: Meeting.ID)
    case post(id: String, book: String, at: ClubPosition, text: String?, quote: String?, place: String?, written: Date)
    /// A host's: admit a pending member (their key), name a host, remove a member.
    case admit(member: String, key: String)
    case host(member: String)
    case remove(member: String)
    case leave
    /// A host's: a meeting planned or changed, or cancelled.
    case meeting(ClubMeeting)
    case cancel(Meeting.ID)
    /// Whether the member comes to a meeting.
    case rsvp(meeting: Meeting.ID, ClubRSVP.Answer, note: String?)
    /// A host's: who may open polls.
    case policy(ClubPoll.Policy)
    /// Opens a poll; votes in one (options numbered from 1, in order of preference); closes one: the
    /// ballots that count are those this device had read.
    case poll(ClubPoll)
    case vote(poll: String, choices: [Int])
    case close(poll: String)
}

/// What a club sync did.
public struct ClubReport: Equatable, Sendable {
    /// Problems found in the folder, each said once (until it changes): what follows each waits.
    public var problems: [SyncReport.Problem] = []
    /// Verified lines that count for nothing (a vote after its poll closed), the first of each log
    /// with how many more, said once (until more come).
    public var ignored: [SyncReport.Problem] = []
    /// This device's log in the folder was damaged and was written again from the verified copy.
    public var restored = false
    /// Seals left for the next sync: more arrived than one sync verifies.
    public var waiting = 0
}

/// A shared club, synced through its folder: every member device appends to its own log, signs each
/// batch with `ssh-keygen`, and reads the others' through verified copies kept at home.
public struct ClubSync {
    public let home: ClubHome
    public let keygen: SSHKeygen
    public internal(set) var state: ClubMembership
    var fileSystem: FileSystem { home.fileSystem }
    var folder: ClubFolder { ClubFolder(path: state.folder) }
    var scratch: String { home.folder(of: state.club) + "/scratch" }

    /// The most seals one sync verifies (one `ssh-keygen` each): however many arrive, a sync takes a
    /// bounded time, and the rest wait for the next.
    static let sealsPerSync = 200

    public init(home: ClubHome, keygen: SSHKeygen, state: ClubMembership) {
        (self.home, self.keygen, self.state) = (home, keygen, state)
    }

    /// The key at `keyPath`, made there first when it is bookclub's own (`home.defaultKeyPath`) and
    /// missing: `TYPE BASE64`.
    public static func key(at keyPath: String, home: ClubHome, keygen: SSHKeygen) throws -> String {
        guard keygen.isAvailable else { throw BookClubError.unavailable(SSHKeygen.missing) }
        if keyPath == home.defaultKeyPath, try home.fileSystem.size(keyPath) == nil {
            try keygen.makeKey(at: keyPath)
        }
        return try keygen.publicKey(of: keyPath)
    }

    /// Shares `club` through the folder at `folderPath` (absolute; made when missing), this reader its
    /// founder: their log starts with the club's name (the meetings follow with the first sync, as
    /// every later change of them does).
    public static func share(
        _ club: Club, folderPath: String, home: ClubHome, keygen: SSHKeygen, keyPath: String,
        name: String, device: String, now: Date
    ) throws -> (ClubSync, ClubReport) {
        if try home.state(of: club.id) != nil {
            throw BookClubError.clubRefused("\(club.name) is shared already: see `bookclub club members \(club.name)`")
        }
        let folder = ClubFolder(path: folderPath)
        if let other = Self.clubs(in: folder, fileSystem: home.fileSystem).first(where: { $0.club != club.id }) {
            throw BookClubError.clubRefused(
                "\(folderPath) holds another club already (\(other.name)): give an empty folder")
        }
        let key = try Self.key(at: keyPath, home: home, keygen: keygen)
        try home.fileSystem.makeFolder(folder.membersPath)
        try home.fileSystem.makeFolder(home.folder(of: club.id))
        var sync = ClubSync(
            home: home, keygen: keygen,
            state: ClubMembership(
                club: club.id, folder: folderPath, founder: key, device: device, keyPath: keyPath, key: key, name: name,
                clubName: club.name))
        var found = ClubLine(.found, sequence: 0, clock: HybridClock())
        found.name = club.name
        let unlock = try sync.lock()
        try sync.publish([found], now: now)
        unlock()
        let (_, synced) = try sync.sync(now: now)
        return (sync, synced)
    }

    /// A club found in a folder: its id and name as its founder's log says, and the founder's key.
    public struct Found: Equatable, Sendable {
        public var club: String
        public var name: String
        public var founder: String
        public var fingerprint: String
    }

    /// The clubs a folder's logs say they found (unverified: for choosing the key to pin).
    public static func clubs(in folder: ClubFolder, fileSystem: FileSystem) -> [Found] {
        var found: [Found] = []
        for log in folder.logs(fileSystem).prefix(ClubFolder.maximumLogs) where !log.isCopy {
            let path = folder.membersPath + "/" + log.name
            guard fileSystem.kind(path) == nil, let data = try? fileSystem.readPlainRange(path, 0, 1 << 20) else {
                continue
            }
            let read = ClubLog(data, device: log.device, after: ClubLog.Mark())
            let lines = read.batches.flatMap(\.lines)
            guard let start = lines.first, start.op == .start, let key = start.key, let club = start.club,
                let name = lines.first(where: { $0.op == .found })?.name,
                let fingerprint = SSHPublicKey.fingerprint(of: key)
            else { continue }
            let item = Found(club: club, name: name, founder: key, fingerprint: fingerprint)
            if !found.contains(item) { found.append(item) }
        }
        return found
    }

    /// Joins the club in the folder at `folderPath`, pinning its founder's key: the one whose
    /// fingerprint is `founder`, or, when none is given, the only one there once `confirm` accepts it.
    /// Publishes the member's name and key, and waits for a host to admit them.
    public static func join(
        folderPath: String, home: ClubHome, keygen: SSHKeygen, keyPath: String, name: String, device: String,
        founder: String?, confirm: (Found) throws -> Bool, now: Date
    ) throws -> (ClubSync, ClubReport) {
        guard keygen.isAvailable else { throw BookClubError.unavailable(SSHKeygen.missing) }
        let folder = ClubFolder(path: folderPath)
        let found = Self.clubs(in: folder, fileSystem: home.fileSystem)
        let chosen: Found
        if let founder {
            guard let match = found.first(where: { $0.fingerprint == founder }) else {
                throw BookClubError.clubRefused(
                    "\(folderPath) holds no club founded by the key \(founder)"
                        + (found.isEmpty ? " (it holds no club at all)" : ""))
            }
            chosen = match
        } else {
            guard !found.isEmpty else {
                throw BookClubError.clubRefused("\(folderPath) holds no shared club: ask its founder for the folder")
            }
            guard found.count == 1 else {
                throw BookClubError.clubRefused(
                    "\(folderPath) holds \(found.count) logs that each say they found a club: give the founder's with --founder FINGERPRINT"
                )
            }
            chosen = found[0]
            guard try confirm(chosen) else {
                throw BookClubError.clubRefused("not joined: the founder's key was not confirmed")
            }
        }
        if try home.state(of: chosen.club) != nil {
            throw BookClubError.clubRefused("this store is in \(chosen.name) already")
        }
        let key = try Self.key(at: keyPath, home: home, keygen: keygen)
        try home.fileSystem.makeFolder(home.folder(of: chosen.club))
        var sync = ClubSync(
            home: home, keygen: keygen,
            state: ClubMembership(
                club: chosen.club, folder: folderPath, founder: chosen.founder, device: device, keyPath: keyPath,
                key: key, name: name, clubName: chosen.name))
        let unlock = try sync.lock()
        try sync.publish([], now: now)
        unlock()
        let (_, report) = try sync.sync(now: now)
        return (sync, report)
    }

    // MARK: Publishing

    static func line(_ change: ClubChange) -> ClubLine {
        var line: ClubLine
        let zero = HybridClock()
        switch change {
        case .progress(let book, let at):
            line = ClubLine(.progress, sequence: 0, clock: zero)
            (line.book, line.at) = (book, at)
        case .reached(let meeting):
            line = ClubLine(.reached, sequence: 0, clock: zero)
            line.reached = meeting
        case .post(let id, let book, let at, let text, let quote, let place, let written):
            line = ClubLine(.post, sequence: 0, clock: zero)
            (line.id, line.book, line.at, line.text, line.quote, line.place) = (id, book, at, text, quote, place)
            line.written = Int64((written.timeIntervalSince1970 * 1000).rounded(.down))
        case .admit(let member, let key):
            line = ClubLine(.admit, sequence: 0, clock: zero)
            (line.member, line.key) = (member, key)
        case .host(let member):
            line = ClubLine(.host, sequence: 0, clock: zero)
            line.member = member
        case .remove(let member):
            line = ClubLine(.remove, sequence: 0, clock: zero)
            line.member = member
        case .leave:
            line = ClubLine(.leave, sequence: 0, clock: zero)
        case .meeting(let meeting):
            line = ClubLine(.meeting, sequence: 0, clock: zero)
            line.meeting = meeting
        case .cancel(let id):
            line = ClubLine(.cancel, sequence: 0, clock: zero)
            line.id = id
        case .rsvp(let meeting, let answer, let note):
            line = ClubLine(.rsvp, sequence: 0, clock: zero)
            (line.id, line.answer, line.text) = (meeting, answer, note)
        case .policy(let policy):
            line = ClubLine(.policy, sequence: 0, clock: zero)
            line.polls = policy
        case .poll(let poll):
            line = ClubLine(.poll, sequence: 0, clock: zero)
            line.poll = poll
        case .vote(let poll, let choices):
            line = ClubLine(.vote, sequence: 0, clock: zero)
            (line.id, line.choices) = (poll, choices)
        case .close(let poll):
            line = ClubLine(.close, sequence: 0, clock: zero)
            line.id = poll
        }
        return line
    }

    /// Appends `changes` to this device's log, sealed with one signature: first to the verified copy
    /// at home, then to the folder. A removal covers the member's lines as this device has verified them
    /// in `club`. Returns the lines written.
    public mutating func publish(_ changes: [ClubChange], now: Date, club: SharedClub) throws {
        let unlock = try lock()
        defer { unlock() }
        try publishHeld(changes, now: now, club: club)
    }

    /// The club's lock, held by whoever changes its files at home.
    private func lock() throws -> () -> Void {
        try fileSystem.lock(home.folder(of: state.club) + "/lock", 30)
    }

    /// `publish`, its lock held.
    private mutating func publishHeld(_ changes: [ClubChange], now: Date, club: SharedClub?) throws {
        guard !state.left, !changes.isEmpty else { return }
        var lines = changes.map(Self.line)
        for index in lines.indices where lines[index].op == .remove {
            var through: [String: Int] = [:]
            for device in club?.member(lines[index].member ?? "")?.devices ?? [] {
                through[device] = state.marks[device]?.sequence ?? 0
            }
            lines[index].through = through
        }
        // A close counts the votes of each log as far as this device has read it (its own: so far).
        for index in lines.indices where lines[index].op == .close {
            lines[index].through = state.marks.mapValues(\.sequence)
        }
        record(changes)
        try publish(lines, now: now)
    }

    private mutating func publish(_ lines: [ClubLine], now: Date) throws {
        var mark = state.marks[state.device] ?? ClubLog.Mark()
        var lines = lines
        if mark.sequence == 0 {
            var start = ClubLine(.start, sequence: 0, clock: HybridClock())
            (start.club, start.device, start.key, start.name) = (state.club, state.device, state.key, state.name)
            lines.insert(start, at: 0)
        }
        guard !lines.isEmpty else { return }
        let from = mark
        var clock = mark.clock
        // What others wrote came first: this device's clock moves past theirs.
        for other in state.marks.values { clock.witness(other.clock) }
        var batch = Data()
        for index in lines.indices {
            mark.sequence += 1
            lines[index].n = mark.sequence
            let tick = clock.tick(now: now)
            (lines[index].t, lines[index].c) = (tick.milliseconds, tick.counter)
            batch += lines[index].encoded()
        }
        let message = ClubLog.message(
            club: state.club, member: state.fingerprint, device: state.device, previous: from.seal, batch: batch)
        let signature = try keygen.sign(
            message, keyPath: state.keyPath, namespace: ClubLog.namespace(club: state.club), scratch: scratch)
        mark.sequence += 1
        var seal = ClubLine(.seal, sequence: mark.sequence, clock: clock.tick(now: now))
        seal.sig = signature
        let whole = batch + seal.encoded()
        try fileSystem.append(home.copyPath(of: state.club, device: state.device), whole, from.length)
        (mark.length, mark.lines, mark.clock, mark.seal) = (
            from.length + whole.count, from.lines + lines.count + 1, seal.clock, signature
        )
        if mark.key == nil { (mark.key, mark.club) = (state.key, state.club) }
        state.marks[state.device] = mark
        try home.save(state)
        // The folder's copy: written again whole from home when it is not what home holds.
        let path = folder.logPath(of: state.device)
        try fileSystem.makeFolder(folder.membersPath)
        if fileSystem.kind(path) == nil, try fileSystem.plainSize(path) == from.length {
            try fileSystem.appendPlain(path, whole, from.length)
        } else {
            try restoreOwnLog()
        }
    }

    private func restoreOwnLog() throws {
        let path = folder.logPath(of: state.device)
        if fileSystem.kind(path) != nil {
            throw BookClubError.io(
                path: path, cause: "not a plain file where this member's log belongs: left unopened; remove it")
        }
        try fileSystem.writeAtomically(path, try home.copy(of: state.club, device: state.device))
    }

    // MARK: Reading

    /// Reads what the other members' logs grew by, verifying each new seal once, and keeps what
    /// verifies; mends this device's own log from home when it was damaged.
    /// Returns the club as every verified line makes it.
    public mutating func sync(now: Date) throws -> (
        club: SharedClub, report: ClubReport
    ) {
        var report = ClubReport()
        guard keygen.isAvailable else { throw BookClubError.unavailable(SSHKeygen.missing) }
        let unlock = try lock()
        defer { unlock() }
        var budget = Self.sealsPerSync
        var problems: [String: SyncReport.Problem] = [:]
        let logs = folder.logs(fileSystem)
        if logs.count > ClubFolder.maximumLogs {
            problems[folder.membersPath] = .init(
                file: folder.membersPath, line: 0,
                detail:
                    "\(logs.count) logs, more than the \(ClubFolder.maximumLogs) a club reads: the rest are passed over"
            )
        }
        for log in logs.prefix(ClubFolder.maximumLogs) {
            let path = folder.membersPath + "/" + log.name
            if let other = fileSystem.kind(path) {
                problems[path] = .init(file: path, line: 0, detail: "\(other.rawValue), not a log: left unopened")
                continue
            }
            if log.device == state.device {
                // This device's own log: only it writes there, so anything but the verified copy is damage.
                guard !log.isCopy else { continue }
                let own = try home.copy(of: state.club, device: state.device)
                if try fileSystem.plainSize(path) != own.count || fileSystem.readPlainRange(path, 0, own.count) != own {
                    try restoreOwnLog()
                    report.restored = true
                }
                continue
            }
            var mark = state.marks[log.device] ?? ClubLog.Mark()
            // A time within two seconds of now may be the time of a change yet to come in the same
            // second (the clock counts seconds): such a file is read again next time, as git does.
            let modified = fileSystem.modified(path)?.timeIntervalSince1970
            guard let size = try fileSystem.plainSize(path),
                size != mark.length || modified != mark.modified || log.isCopy
            else { continue }
            guard size <= ClubFolder.maximumLogSize else {
                problems[path] = .init(
                    file: path, line: 0,
                    detail: "larger than \(ClubFolder.maximumLogSize >> 20) MiB, more than a club reads")
                continue
            }
            let data = try fileSystem.readPlainRange(path, 0, size) ?? Data()
            let verified = try home.copy(of: state.club, device: log.device)
            guard data.count >= verified.count, data.prefix(verified.count) == verified else {
                // A stale copy a file-sync tool left is only behind; anything else was rewritten.
                if data.count < verified.count, verified.prefix(data.count) == data { continue }
                let line = Self.firstDifferentLine(data, verified)
                problems[path] = .init(
                    file: path, line: line,
                    detail: "rewritten or cut after it was verified: the verified copy is kept, and what follows waits")
                continue
            }
            guard data.count > verified.count else {
                if !log.isCopy {
                    mark.modified = modified?.nonRacy(now: now)
                    state.marks[log.device] = mark
                }
                continue
            }
            let read = ClubLog(data.suffix(from: data.startIndex + verified.count), device: log.device, after: mark)
            var appended = Data()
            var stopped = false
            for batch in read.batches {
                stopped = true
                guard budget > 0 else {
                    report.waiting += 1
                    break
                }
                budget -= 1
                let start = batch.lines.first { $0.op == .start }
                guard let key = mark.key ?? start?.key, let club = mark.club ?? start?.club,
                    let fingerprint = SSHPublicKey.fingerprint(of: key)
                else { break }
                if club != state.club {
                    problems[path] = .init(file: path, line: 1, detail: "the log of another club")
                    break
                }
                let message = ClubLog.message(
                    club: club, member: fingerprint, device: log.device, previous: mark.seal, batch: batch.bytes)
                guard let signature = batch.seal.sig,
                    try keygen.verify(
                        message, signature: signature, key: key, principal: fingerprint,
                        namespace: ClubLog.namespace(club: club), scratch: scratch)
                else {
                    problems[path] = .init(
                        file: path, line: batch.sealLine,
                        detail:
                            "a seal that does not verify: its batch is not \(fingerprint)'s as written; it and what follows wait"
                    )
                    break
                }
                stopped = false
                appended += batch.whole
                mark.length += batch.whole.count
                mark.lines = batch.sealLine
                (mark.sequence, mark.clock, mark.seal, mark.key, mark.club) = (
                    batch.seal.n, batch.seal.clock, signature, key, club
                )
            }
            if !stopped, problems[path] == nil, let problem = read.problem {
                problems[path] = .init(file: path, line: problem.line, detail: problem.detail)
            }
            if !appended.isEmpty {
                try fileSystem.append(home.copyPath(of: state.club, device: log.device), appended, verified.count)
                if !log.isCopy { mark.modified = modified?.nonRacy(now: now) }
                state.marks[log.device] = mark
            }
        }
        let club = try club()
        // Lines that count for nothing: the first of each log, and how many more.
        var ignored: [String: SyncReport.Problem] = [:]
        for (device, lines) in Dictionary(grouping: club.ignored, by: \.device) {
            let path = folder.logPath(of: device)
            let more = lines.count > 1 ? " (and \(NumberText.count(lines.count - 1, "more line")) of it)" : ""
            ignored[path + " ignored"] = .init(file: path, line: lines[0].line, detail: lines[0].detail + more)
        }
        // Each is said once, until it changes.
        func unsaid(_ all: [String: SyncReport.Problem]) -> [SyncReport.Problem] {
            all.sorted { $0.key < $1.key }.filter { state.reported[$0.key] != "\($0.value.line) \($0.value.detail)" }
                .map(\.value)
        }
        (report.problems, report.ignored) = (unsaid(problems), unsaid(ignored))
        state.reported = problems.merging(ignored) { first, _ in first }.mapValues { "\($0.line) \($0.detail)" }
        state.clubName = club.name
        try home.save(state)
        return (club, report)
    }

    private static func firstDifferentLine(_ a: Data, _ b: Data) -> Int {
        var line = 1
        for (x, y) in zip(a, b) {
            if x != y { return line }
            if x == UInt8(ascii: "\n") { line += 1 }
        }
        return line
    }

    /// The club as the verified copies make it.
    public func club() throws -> SharedClub {
        var logs: [VerifiedLog] = []
        for (device, mark) in state.marks.sorted(by: { $0.key < $1.key }) {
            guard let key = mark.key, let member = SSHPublicKey.fingerprint(of: key) else { continue }
            let data = try home.copy(of: state.club, device: device)
            let read = ClubLog(data.prefix(mark.length), device: device, after: ClubLog.Mark())
            logs.append(VerifiedLog(device: device, member: member, key: key, lines: read.batches.flatMap(\.lines)))
        }
        return ClubFold.club(id: state.club, founder: state.founderFingerprint, logs: logs)
    }

    /// Links club books to the reader's own copies (`nil`: unlinks).
    public mutating func link(_ links: [String: Book.ID?]) throws {
        guard !links.isEmpty else { return }
        for (clubBook, book) in links {
            state.links[clubBook] = book
            if book == nil { state.published[clubBook] = nil }
        }
        try home.save(state)
    }

    /// Stops publishing: the last line says so.
    public mutating func leave(now: Date) throws {
        let unlock = try lock()
        defer { unlock() }
        try publishHeld([.leave], now: now, club: nil)
        state.left = true
        try home.save(state)
    }

}

extension Double {
    /// The time, when it is more than two seconds before `now`; else `nil`.
    fileprivate func nonRacy(now: Date) -> Double? { self < now.timeIntervalSince1970 - 2 ? self : nil }
}
