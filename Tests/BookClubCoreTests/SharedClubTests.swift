import Foundation
import Testing

@testable import BookClubCore

/// The rules of a shared club, without a folder: the fold of verified logs, the spoiler gate, and the
/// lines a log may hold.
@Suite struct SharedClubTests {
    // Three keys (as ssh-keygen prints them) and their members.
    static let keys = [
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILP5f27QAMrjeWKD9DeI1+nz8Ts5uzk2qL6tHTRgDjkz",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAZWH+IfYcKWSY8LFwrbdW88uLvk3xe0R9EJ5SHErFuJ",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBnriSZBqYqTKpklEV3n6KIyXTarLG80B3ZfSqgkWGhK",
    ]
    static let members = keys.map { SSHPublicKey.fingerprint(of: $0)! }
    static let devices = ["a", "b", "c"].map { String(repeating: $0, count: 32) }

    /// A log of `member`, its lines numbered from 1 and stamped with the given clocks.
    static func log(_ member: Int, _ lines: [(Int64, (inout ClubLine) -> Void, ClubLine.Kind)]) -> VerifiedLog {
        var start = ClubLine(.start, sequence: 1, clock: HybridClock(milliseconds: 1, counter: member))
        (start.club, start.device, start.key, start.name) = (
            "club1", devices[member], keys[member], ["ana", "ben", "cy"][member]
        )
        var all = [start]
        for (index, (time, body, kind)) in lines.enumerated() {
            var line = ClubLine(kind, sequence: index + 2, clock: HybridClock(milliseconds: time, counter: 0))
            body(&line)
            all.append(line)
        }
        return VerifiedLog(device: devices[member], member: members[member], key: keys[member], lines: all)
    }

    static func admit(_ member: Int) -> (inout ClubLine) -> Void {
        { line in (line.member, line.key) = (members[member], keys[member]) }
    }

    static func post(_ id: String, _ text: String) -> (inout ClubLine) -> Void {
        { line in
            (line.id, line.book, line.at, line.text, line.written) = (id, "dune", ClubPosition(fraction: 0.5), text, 5)
        }
    }

    static func fold(_ logs: [VerifiedLog]) -> SharedClub {
        ClubFold.club(id: "club1", founder: members[0], logs: logs)
    }

    @Test func aPendingMemberIsShownNothingUntilAdmitted() {
        let ben = Self.log(1, [(10, Self.post("p1", "hello"), .post)])
        let pending = Self.fold([Self.log(0, []), ben])
        #expect(pending.member(Self.members[1])?.state == .pending)
        #expect(pending.posts.isEmpty)
        // Admitted after the post: what was published while pending shows from then on.
        let admitted = Self.fold([Self.log(0, [(20, Self.admit(1), .admit)]), ben])
        #expect(admitted.member(Self.members[1])?.state == .member)
        #expect(admitted.posts.map(\.text) == ["hello"])
        // Only a host admits: Cy, a member, admitting herself counts for nothing.
        let cy = Self.log(2, [(30, Self.admit(2), .admit)])
        #expect(
            Self.fold([Self.log(0, [(20, Self.admit(1), .admit)]), ben, cy]).member(Self.members[2])?.state == .pending)
    }

    @Test func aRemovalCoversLinesByNumberNeverByTime() {
        // Ben posts twice; Ana removes him having read his log through line 2 (his first post). His
        // second post carries an old clock, from before the removal: it is still past the number.
        let ben = Self.log(1, [(10, Self.post("p1", "first"), .post), (5, Self.post("p2", "second"), .post)])
        let ana = Self.log(
            0,
            [
                (2, Self.admit(1), .admit),
                (
                    40,
                    { line in
                        line.member = Self.members[1]
                        line.through = [Self.devices[1]: 2]
                    }, .remove
                ),
            ])
        let club = Self.fold([ana, ben])
        #expect(club.member(Self.members[1])?.state == .removed)
        #expect(club.posts.map(\.text) == ["first"])
    }

    @Test func everyArrivalOrderMakesTheSameClub() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var logs = [Self.log(0, [(2, Self.admit(1), .admit), (3, Self.admit(2), .admit)])]
            for member in [1, 2] {
                var lines: [(Int64, (inout ClubLine) -> Void, ClubLine.Kind)] = []
                for index in 0..<Int.random(in: 0...6, using: &generator) {
                    let time = Int64.random(in: 1...100, using: &generator)
                    switch Int.random(in: 0...2, using: &generator) {
                    case 0: lines.append((time, Self.post("p\(index)", "post \(member) \(index)"), .post))
                    case 1:
                        let fraction = Double.random(in: 0...1, using: &generator)
                        lines.append(
                            (time, { ($0.book, $0.at) = ("dune", ClubPosition(fraction: fraction)) }, .progress))
                    default: lines.append((time, { $0.reached = "m\(index)" }, .reached))
                    }
                }
                // A log's clocks only grow.
                lines.sort { $0.0 < $1.0 }
                for index in lines.indices { lines[index].0 += Int64(index) }
                logs.append(Self.log(member, lines))
            }
            let club = Self.fold(logs)
            for _ in 0..<5 { #expect(Self.fold(logs.shuffled(using: &generator)) == club) }
        }
    }

    @Test func spoilersAreDecidedByTheReadersOwnCopy() {
        let post = ClubPosition(page: 300, pages: 412, isbn: "9780441172719", fraction: 300.0 / 412)
        // The same edition (ISBN-10 of the same book): by page.
        #expect(!Spoilers.reveals(post, to: ClubPosition(page: 299, pages: 412, isbn: "0441172717", fraction: 0.9)))
        #expect(Spoilers.reveals(post, to: ClubPosition(page: 300, pages: 412, isbn: "0441172717", fraction: 0.7)))
        // Another edition: by fraction (p. 300 of 412 is p. 653 of 896).
        #expect(!Spoilers.reveals(post, to: ClubPosition(page: 650, pages: 896, fraction: 650.0 / 896)))
        #expect(Spoilers.reveals(post, to: ClubPosition(page: 653, pages: 896, fraction: 653.0 / 896)))
        // A place that cannot be placed waits until the reader finishes.
        let unplaced = ClubPosition(page: 12)
        #expect(!Spoilers.reveals(unplaced, to: ClubPosition(page: 400, pages: 412, fraction: 0.99)))
        #expect(Spoilers.reveals(unplaced, to: ClubPosition(fraction: 0.2, finished: true)))
        // The next place to unlock, in the reader's copy.
        #expect(ClubFeed.place(of: post, in: ClubPosition(pages: 896, fraction: 0.1))?.page == 653)
    }

    @Test func aLogHoldsOnlyLinesBookclubWrites() {
        func problem(_ text: String) -> String? {
            do {
                _ = try ClubLine.decode(Data(text.utf8))
                return nil
            } catch let problem as ClubLine.Problem {
                return problem.detail
            } catch {
                return "\(error)"
            }
        }
        #expect(problem(#"{"c":0,"n":2,"op":"leave","t":1,"v":1}"#) == nil)
        #expect(problem(#"{"c":0,"n":2,"op":"explode","t":1,"v":1}"#) != nil)
        #expect(problem(#"{"c":0,"n":2,"op":"leave","t":1,"v":1,"text":"extra"}"#)?.contains("unexpected text") == true)
        #expect(problem(#"{"c":0,"n":2,"op":"host","t":1,"v":1}"#)?.contains("missing member") == true)
        #expect(problem(#"{"c":0,"n":2,"op":"host","member":"SHA256:short","t":1,"v":1}"#) != nil)
        #expect(problem(#"{"c":0,"n":0,"op":"leave","t":1,"v":1}"#) != nil)
        #expect(problem(#"{"c":0,"n":2,"op":"leave","t":1,"v":2}"#) != nil)
        let long = String(repeating: "x", count: ClubLine.maximumText + 1)
        #expect(
            problem(
                #"{"at":{},"book":"b","c":0,"id":"p","n":2,"op":"post","t":1,"text":"\#(long)","v":1,"written":1}"#)
                != nil)
        // In a log: numbered one after another, its start first and once.
        let device = Self.devices[0]
        let lines = [
            #"{"c":0,"n":1,"op":"leave","t":1,"v":1}"#
        ]
        #expect(
            ClubLog(Data((lines.joined(separator: "\n") + "\n").utf8), device: device, after: .init()).problem != nil)
        var mark = ClubLog.Mark()
        mark.sequence = 4
        let gap = ClubLog(Data(#"{"c":0,"n":6,"op":"leave","t":1,"v":1}"#.utf8 + [10]), device: device, after: mark)
        #expect(gap.problem?.detail.contains("missing or repeated") == true)
    }

    /// A seal binds its club, member, device and place: the same signature over any other of them
    /// does not verify, as `ssh-keygen -Y verify` checks it.
    @Test func aSealHoldsOnlyWhereItWasMade() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keygen = SSHKeygen(
            runner: .live, environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            fileSystem: .live)
        try #require(keygen.isAvailable)
        for name in ["ana", "ben"] { try keygen.makeKey(at: folder + "/" + name) }
        let ana = try keygen.publicKey(of: folder + "/ana")
        let ben = try keygen.publicKey(of: folder + "/ben")
        let (anaPrint, benPrint) = (SSHPublicKey.fingerprint(of: ana)!, SSHPublicKey.fingerprint(of: ben)!)
        let batch = Data(#"{"c":0,"n":2,"op":"leave","t":1,"v":1}"#.utf8 + [10])
        let (device, other) = (Self.devices[0], Self.devices[1])
        func message(
            club: String = "club1", member: String = anaPrint, device: String = device, previous: String? = nil
        )
            -> Data
        {
            ClubLog.message(club: club, member: member, device: device, previous: previous, batch: batch)
        }
        let signature = try keygen.sign(
            message(), keyPath: folder + "/ana", namespace: ClubLog.namespace(club: "club1"),
            scratch: folder + "/scratch")
        func verifies(
            _ message: Data, key: String = ana, principal: String = anaPrint, club: String = "club1"
        ) throws -> Bool {
            try keygen.verify(
                message, signature: signature, key: key, principal: principal, namespace: ClubLog.namespace(club: club),
                scratch: folder + "/scratch")
        }
        #expect(try verifies(message()))
        // Copied to another club: its namespace and its header differ.
        #expect(try !verifies(message(club: "club2"), club: "club2"))
        #expect(try !verifies(message(), club: "club2"))
        // To another device's log, another place in the log, another member's log.
        #expect(try !verifies(message(device: other)))
        #expect(try !verifies(message(previous: "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----")))
        #expect(try !verifies(message(member: benPrint), key: ben, principal: benPrint))
        // A byte of the batch changed.
        var changed = message()
        changed[changed.count - 3] ^= 1
        #expect(try !verifies(changed))
    }
}
