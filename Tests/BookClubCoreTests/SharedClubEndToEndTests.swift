import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A club of many, as readers run it: three homes in three time zones sharing one plain folder, each
/// signing with its own key; forged, damaged and hostile logs; nothing private in the folder.
@Suite(.serialized) struct SharedClubEndToEndTests {
    /// Ana founds the club (New York), Ben (Kolkata) reads another edition, Cy (London) the same one.
    struct Club {
        let ana: BookClubRunner
        let ben: BookClubRunner
        let cy: BookClubRunner
        let folder: String
        var founder = ""

        init() throws {
            var homes: [BookClubRunner] = []
            for (zone, user) in [("America/New_York", "ana"), ("Asia/Kolkata", "ben"), ("Europe/London", "cy")] {
                var home = try BookClubRunner()
                home.environment["TZ"] = zone
                home.environment["USER"] = user
                homes.append(home)
            }
            (ana, ben, cy) = (homes[0], homes[1], homes[2])
            folder = ana.home + "/club-folder"
        }

        var all: [BookClubRunner] { [ana, ben, cy] }

        /// Ana's club with a meeting about her Dune (412 pages) in two weeks to p. 200; Ben and Cy have
        /// their own Dunes and ask to join; Ana admits both.
        mutating func start() throws {
            try expectSuccess(
                ana, "add", "Dune", "--author", "Frank Herbert", "--pages", "412", "--isbn", "9780441172719")
            try expectSuccess(ana, "club", "add", "Sci-Fi 🚀")
            try expectSuccess(
                ana, "club", "meeting", "sci-fi", "--date", "in 2 weeks", "--book", "dune", "--target", "200")
            let shared = try ana.run("club", "share", "sci-fi", folder)
            #expect(shared.exitCode == 0, "\(shared.stderr)")
            founder = shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(founder.hasPrefix("SHA256:") && founder.count == 50, "\(shared.stdout)")
            // Ben's Dune is another edition, with another title.
            try expectSuccess(ben, "add", "デューン 砂の惑星", "--author", "フランク・ハーバート", "--pages", "896")
            try expectSuccess(cy, "add", "Dune", "--author", "Frank Herbert", "--pages", "412", "--isbn", "0441172717")
            for home in [ben, cy] { try expectSuccess(home, "club", "join", folder, "--founder", founder) }
            let pending = try ana.run("club", "members", "sci-fi")
            #expect(
                Club.state(of: "ben", in: pending.stdout) == "pending"
                    && Club.state(of: "cy", in: pending.stdout) == "pending", "\(pending.stdout)")
            try expectSuccess(ana, "club", "admit", "sci-fi", "ben")
            try expectSuccess(ana, "club", "admit", "sci-fi", "cy")
        }

        func expectSuccess(_ home: BookClubRunner, _ arguments: String...) throws {
            let result = try home.run(arguments, input: nil, environment: [:])
            #expect(result.exitCode == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        }

        /// Every file of the folder, as one text.
        func folderText() throws -> String {
            var text = ""
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let name = enumerator?.nextObject() as? String {
                if let data = FileManager.default.contents(atPath: folder + "/" + name) {
                    text += String(decoding: data, as: UTF8.self)
                }
            }
            return text
        }

        func logPath(of home: BookClubRunner) throws -> String {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/members")
            for name in names where name.hasSuffix(".jsonl") {
                guard FileManager.default.isReadableFile(atPath: folder + "/members/" + name),
                    (try? FileManager.default.attributesOfItem(atPath: folder + "/members/" + name)[.type]
                        as? FileAttributeType)
                        == .typeRegular
                else { continue }
                let text = try String(contentsOfFile: folder + "/members/" + name, encoding: .utf8)
                if text.contains("\"name\":\"\(home.environment["USER"]!)\"") { return folder + "/members/" + name }
            }
            throw CocoaError(.fileNoSuchFile)
        }

        func cleanUp() { for home in all { home.cleanUp() } }

        /// A member's state in `club members`' table: the column after their name.
        static func state(of name: String, in table: String) -> String? {
            for line in table.split(separator: "\n") {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                if columns.first.map(String.init) == name, columns.count > 1 {
                    return String(columns[1]).trimmingCharacters(in: CharacterSet(charactersIn: ","))
                }
            }
            return nil
        }
    }

    @Test func threeHomesReadTogetherWithoutSpoilers() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        // Ben links his other edition by hand; Cy's is found by its ISBN.
        try club.expectSuccess(club.ben, "club", "link", "sci-fi", "デューン")
        try club.expectSuccess(club.ana, "progress", "dune", "400", "--note", "private: the spice must flow")
        try club.expectSuccess(club.ben, "progress", "デューン", "300")
        try club.expectSuccess(club.cy, "progress", "dune", "150")
        // Cy was admitted since her last club command: her progress goes out with it all the same.
        #expect(try club.folderText().contains("\"page\":150"))
        try club.expectSuccess(club.cy, "club", "sync")

        let post = try club.ana.run("club", "post", "sci-fi", "The ending: Paul becomes what he feared")
        #expect(post.exitCode == 0, "\(post.stderr)")

        // Ben (300 of 896, 33%) and Cy (p. 150) do not see it; each is told where it unlocks.
        for home in [club.ben, club.cy] {
            let feed = try home.run("club", "feed", "sci-fi")
            #expect(feed.exitCode == 0, "\(feed.stderr)")
            #expect(!feed.stdout.contains("ending"), "a spoiler: \(feed.stdout)")
            #expect(feed.stderr.contains("1 more post waits until you read further"), "\(feed.stderr)")
            let json = try home.run("club", "feed", "sci-fi", "--json")
            #expect(!json.stdout.contains("ending") && json.stdout.contains("\"hidden\" : 1"), "\(json.stdout)")
        }
        // In Cy's copy, the same edition: the same page; in Ben's, the same fraction (400/412 of 896).
        #expect(try club.cy.run("club", "feed").stderr.contains("the next at p. 400 (97%)"))
        #expect(try club.ben.run("club", "feed").stderr.contains("the next at p. 870 (97%)"))

        // Ben's agenda: where everyone stands, and the target in his own edition (p. 200 of 412 is
        // p. 435 of his 896); his meeting notes lack the ending.
        let agenda = try club.ben.run("agenda")
        #expect(agenda.exitCode == 0, "\(agenda.stderr)")
        #expect(agenda.stdout.contains("to p. 435"), "\(agenda.stdout)")
        #expect(agenda.stdout.contains("ana: p. 400 of 412 (97%), target reached"), "\(agenda.stdout)")
        #expect(agenda.stdout.contains("cy: p. 150 of 412 (36%)"), "\(agenda.stdout)")
        let agendaJSON = try club.ben.run("agenda", "--json")
        #expect(agendaJSON.stdout.contains("\"members\"") && agendaJSON.stdout.contains("\"reached\" : true"))
        let notes = try club.ben.run("notes", "--club", "sci-fi", "--meeting", "next")
        #expect(notes.exitCode == 0, "\(notes.stderr)")
        #expect(notes.stdout.contains("## From the club") && !notes.stdout.contains("ending"), "\(notes.stdout)")
        #expect(try !club.ben.run("notes", "--club", "sci-fi", "--json").stdout.contains("ending"))
        try club.expectSuccess(club.ben, "progress", "デューン", "880")
        #expect(
            try club.ben.run("notes", "--club", "sci-fi").stdout.contains("The ending: Paul becomes what he feared"))

        // Past the page, it shows, with its author and place.
        try club.expectSuccess(club.cy, "progress", "dune", "400")
        let seen = try club.cy.run("club", "feed", "sci-fi")
        #expect(seen.stdout.contains("ana, p. 400 of ana's 412-page edition, 97%"), "\(seen.stdout)")
        #expect(seen.stdout.contains("The ending: Paul becomes what he feared"))

        // Nothing private left any home.
        let folder = try club.folderText()
        for secret in ["private: the spice must flow", "デューン", "フランク"] {
            #expect(!folder.contains(secret), "\(secret) is in the folder")
        }
        // Every member sees every member the same way.
        let rosters = try club.all.map { try $0.run("club", "members", "sci-fi", "--json").stdout }
        let names = rosters.map { roster in ["ana", "ben", "cy"].filter { roster.contains("\"name\" : \"\($0)\"") } }
        #expect(names.allSatisfy { $0 == ["ana", "ben", "cy"] }, "\(rosters)")
        #expect(rosters.allSatisfy { !$0.contains("pending") }, "\(rosters)")
    }

    @Test func progressAtEachGranularity() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        try club.expectSuccess(club.ben, "settings", "set", "clubProgress", "target")
        try club.expectSuccess(club.cy, "settings", "set", "clubProgress", "off")
        try club.expectSuccess(club.ben, "club", "link", "sci-fi", "デューン")
        try club.expectSuccess(club.ben, "progress", "デューン", "300")
        try club.expectSuccess(club.cy, "progress", "dune", "123")
        var text = try club.folderText()
        #expect(!text.contains("\"page\":300") && !text.contains("\"page\":123"), "a page left a home")
        #expect(!text.contains("\"op\":\"reached\""))
        // Ben passes the target (p. 200 of 412 is 49%: p. 435 of his 896).
        try club.expectSuccess(club.ben, "progress", "デューン", "440")
        text = try club.folderText()
        #expect(text.contains("\"op\":\"reached\"") && !text.contains("\"page\":440"))
        try club.expectSuccess(club.ana, "progress", "dune", "210")
        #expect(try club.folderText().contains("\"page\":210"))
        // A post under `off` needs its place given: where Cy is stays hers.
        let unplaced = try club.cy.run("club", "post", "scifi", "a thought")
        #expect(unplaced.exitCode == 1 && unplaced.stderr.contains("--at"), "\(unplaced.stderr)")
        #expect(!(try club.folderText()).contains("a thought"))
        try club.expectSuccess(club.cy, "club", "post", "scifi", "a thought", "--at", "10")
        #expect(!(try club.folderText()).contains("\"page\":123"))

        // A store in no club: a cron line's `club sync` has nothing to do, and says so.
        let none = try BookClubRunner()
        defer { none.cleanUp() }
        let idle = try none.run("club", "sync")
        #expect(idle.exitCode == 0 && idle.stderr.contains("nothing to sync"), "\(idle.stderr)")
    }

    @Test func forgedAndDamagedLinesAreRefusedInEveryHome() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        try club.expectSuccess(club.ben, "club", "link", "sci-fi", "デューン")
        try club.expectSuccess(club.ben, "progress", "デューン", "100")
        let benLog = try club.logPath(of: club.ben)
        let cyLog = try club.logPath(of: club.cy)
        try club.expectSuccess(club.cy, "club", "sync")

        // Unsigned: a post appended to Cy's log, in her name, with no seal.
        let forged =
            #"{"at":{"fraction":0},"book":"x","c":0,"id":"forged1","n":99,"op":"post","t":1,"text":"FORGED unsigned","v":1,"written":1}"#
        try append(forged + "\n", to: cyLog)
        // Signed by another member: Ben's sealed batch copied to the end of Cy's log.
        let benText = try String(contentsOfFile: benLog, encoding: .utf8)
        let benLines = benText.split(separator: "\n").map(String.init)
        try append(benLines.suffix(2).joined(separator: "\n") + "\n", to: cyLog)
        for home in club.all {
            let members = try home.run("club", "sync")
            #expect(members.exitCode == 0, "\(members.stderr)")
            if home.home != club.cy.home {
                #expect(members.stderr.contains(cyLog + ":"), "the forged lines are reported: \(members.stderr)")
            }
            let feed = try home.run("club", "feed", "--spoilers")
            #expect(!feed.stdout.contains("FORGED"))
        }
        let ana = try club.ana.run("club", "sync")
        #expect(!ana.stderr.contains("FORGED"))

        // A byte flipped in a sealed batch of Ben's log: reported once, with its file and line; what was
        // verified stays.
        var data = try Data(contentsOf: URL(fileURLWithPath: benLog))
        let index = data.firstIndex(of: UInt8(ascii: "\"")).map { data.index($0, offsetBy: 3) }!
        data[index] ^= 1
        try data.write(to: URL(fileURLWithPath: benLog))
        let reported = try club.ana.run("club", "sync")
        #expect(
            reported.stderr.contains(benLog) && reported.stderr.contains("rewritten"), "\(reported.stderr) \(benLog)")
        #expect(try !club.ana.run("club", "sync").stderr.contains("rewritten"), "said once")
        #expect(try Club.state(of: "ben", in: club.ana.run("club", "members").stdout) == "member")
    }

    @Test func aRemovedMemberWritesInVain() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        try club.expectSuccess(club.ana, "progress", "dune", "400")
        try club.expectSuccess(club.cy, "club", "post", "sci-fi", "before removal", "--at", "0")
        try club.expectSuccess(club.ana, "club", "expel", "sci-fi", "cy")
        // Cy has not heard yet (Ana's log is away from the folder while she posts again): a line
        // numbered past what Ana covered, whatever its clock.
        let anaLog = try club.logPath(of: club.ana)
        try FileManager.default.moveItem(atPath: anaLog, toPath: club.ana.home + "/away.jsonl")
        try club.expectSuccess(club.cy, "club", "post", "sci-fi", "after removal", "--at", "0")
        try FileManager.default.moveItem(atPath: club.ana.home + "/away.jsonl", toPath: anaLog)
        // Now she hears, and is told rather than let post.
        let refused = try club.cy.run("club", "post", "sci-fi", "refused", "--at", "0")
        #expect(
            refused.exitCode == 1 && refused.stderr.contains("Nothing posted: you were removed from Sci-Fi"),
            "\(refused.stderr)")
        for home in [club.ana, club.ben] {
            let feed = try home.run("club", "feed", "--spoilers")
            #expect(feed.stdout.contains("before removal") || home.home == club.ben.home)
            #expect(!feed.stdout.contains("after removal"), "\(feed.stdout)")
            #expect(try Club.state(of: "cy", in: home.run("club", "members").stdout) == "removed")
        }
    }

    @Test func aHostileFolderHarmsNoOne() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        let members = club.folder + "/members/"
        // A link where a log belongs, pointing at a private file of Ana's.
        let secret = club.ana.home + "/secret.txt"
        try "SECRET of ana\n".write(toFile: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: members + "0123456789abcdef0123456789abcdef.jsonl", withDestinationPath: secret)
        #expect(mkfifo(members + "fedcba9876543210fedcba9876543210.jsonl", 0o600) == 0)
        try FileManager.default.createDirectory(
            atPath: members + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jsonl", withIntermediateDirectories: true)
        let started = Date()
        let sync = try club.ana.run("club", "sync")
        #expect(Date().timeIntervalSince(started) < 20, "a FIFO made it wait")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        for kind in ["a symbolic link", "a named pipe", "a folder"] {
            #expect(sync.stderr.contains("\(kind), not a log: left unopened"), "\(sync.stderr)")
        }
        #expect(!sync.stderr.contains("SECRET") && !sync.stdout.contains("SECRET"))
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "SECRET of ana\n")

        // Ana's own log, cut by someone else, is written again from her copy.
        let own = try club.logPath(of: club.ana)
        let whole = try Data(contentsOf: URL(fileURLWithPath: own))
        try whole.prefix(40).write(to: URL(fileURLWithPath: own))
        let mended = try club.ana.run("club", "sync")
        #expect(mended.stderr.contains("written again from the copy kept here"), "\(mended.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: own)).prefix(whole.count) == whole)

        // Control characters in a name never reach the terminal.
        var dee = try BookClubRunner()
        dee.environment["USER"] = "dee"
        defer { dee.cleanUp() }
        let joined = try dee.run("club", "join", club.folder, "--founder", club.founder, "--name", "dee\u{1B}[2Jx")
        #expect(joined.exitCode == 0, "\(joined.stderr)")
        #expect(!joined.stderr.contains("\u{1B}"))
        let escape = try club.ana.run("club", "members")
        #expect(!escape.stdout.contains("\u{1B}") && escape.stdout.contains("dee\\u{1B}[2Jx"), "\(escape.stdout)")
    }

    @Test func aKeyWithAPassphraseNeverHoldsUpACronJob() throws {
        let reader = try BookClubRunner()
        defer { reader.cleanUp() }
        let key = reader.home + "/locked_ed25519"
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        made.arguments = ["ssh-keygen", "-q", "-t", "ed25519", "-N", "a passphrase", "-f", key]
        try made.run()
        made.waitUntilExit()
        #expect(made.terminationStatus == 0)
        #expect(try reader.run("settings", "set", "clubKey", key).exitCode == 0)
        #expect(try reader.run("club", "add", "Night Owls 🦉").exitCode == 0)
        // No terminal, no ssh-agent: as cron runs it. It fails at once, saying what to do, and shares
        // nothing.
        // setsid: no controlling terminal, even when the tests run in one.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "timeout", "-s", "KILL", "60", "setsid", "--wait", BookClubRunner.executable.path, "club", "share",
            "night", reader.home + "/owls",
        ]
        var environment = reader.environment
        environment["SSH_AUTH_SOCK"] = nil
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let started = Date()
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 30, "it waited for a passphrase")
        #expect(process.terminationStatus == 69 && stderr.contains("ssh-agent"), "\(stderr)")
        let members = (try? FileManager.default.contentsOfDirectory(atPath: reader.home + "/owls/members")) ?? []
        #expect(members.isEmpty, "\(members)")
    }

    @Test func aKeyInSSHAgentSigns() throws {
        var reader = try BookClubRunner()
        defer { reader.cleanUp() }
        let key = reader.home + "/agent_ed25519"
        let socket = reader.home + "/agent.sock"
        let ask = reader.home + "/ask"
        try writeProgram("#!/bin/sh\necho 'a passphrase'\n", to: ask)
        func process(_ arguments: [String], _ environment: [String: String] = [:], output: Pipe? = nil) -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output ?? FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        func run(_ arguments: [String], _ environment: [String: String] = [:]) throws -> String {
            let out = Pipe()
            let running = process(arguments, environment, output: out)
            try running.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            running.waitUntilExit()
            #expect(running.terminationStatus == 0, "\(arguments)")
            return text
        }
        _ = try run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "a passphrase", "-f", key])
        // The agent in the foreground, ours to stop.
        let agent = process(["ssh-agent", "-D", "-a", socket])
        try agent.run()
        // SIGKILL: an agent in the foreground waits out SIGTERM until its next request.
        defer {
            kill(agent.processIdentifier, SIGKILL)
            agent.waitUntilExit()
        }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        _ = try run(
            ["ssh-add", key],
            ["SSH_AUTH_SOCK": socket, "SSH_ASKPASS": ask, "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": "x"])
        reader.environment["SSH_AUTH_SOCK"] = socket
        #expect(try reader.run("settings", "set", "clubKey", key + ".pub").exitCode == 0)
        #expect(try reader.run("club", "add", "Agents 🕵️").exitCode == 0)
        let shared = try reader.run("club", "share", "agents", reader.home + "/folder")
        #expect(shared.exitCode == 0, "\(shared.stderr)")
        let fingerprint = try run(["ssh-keygen", "-lf", key + ".pub"]).split(separator: " ")[1]
        #expect(shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == fingerprint, "\(shared.stdout)")
        #expect(try reader.run("club", "sync").exitCode == 0)
    }

    @Test func withoutSSHKeygenNothingIsShownOrPublished() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        let empty = club.ben.home + "/empty-path"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let feed = try club.ben.run("club", "feed", environment: ["PATH": empty])
        #expect(feed.exitCode == 69, "\(feed.stderr)")
        #expect(feed.stderr.contains("openssh-client"), "\(feed.stderr)")
        #expect(feed.stdout.isEmpty)
    }

    @Test func aHighlightIsPlacedWhereItsReaderWasWhenTheyMarkedIt() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        try club.expectSuccess(club.cy, "progress", "dune", "100", "--date", "3 days ago")
        try club.expectSuccess(club.cy, "progress", "dune", "300")
        // Marked two days ago, when Cy was on p. 100: that is what it may reveal, not her p. 300.
        let shared = try club.cy.run(
            "highlight", "dune", "Fear is the mind-killer.", "--page", "8", "--date", "2 days ago", "--club", "sci-fi")
        #expect(shared.exitCode == 0, "\(shared.stderr)")
        #expect(shared.stderr.contains("shown to members past p. 100 (24%)"), "\(shared.stderr)")
        #expect(try club.cy.run("show", "dune").stdout.contains("Fear is the mind-killer."))
        try club.expectSuccess(club.ana, "progress", "dune", "50")
        let ana = try club.ana.run("club", "feed")
        #expect(!ana.stdout.contains("mind-killer") && ana.stderr.contains("the next at p. 100 (24%)"), "\(ana.stderr)")
        // Ben's other edition: p. 100 of 412 is 24%, p. 218 of his 896.
        try club.expectSuccess(club.ben, "club", "link", "sci-fi", "デューン")
        try club.expectSuccess(club.ben, "progress", "デューン", "220")
        let ben = try club.ben.run("club", "feed")
        #expect(ben.stdout.contains("> Fear is the mind-killer.") && ben.stdout.contains("(p. 8)"), "\(ben.stdout)")
        // A book linked to no club book is refused, and nothing is kept.
        try club.expectSuccess(club.ben, "add", "Solaris", "--pages", "204")
        let unlinked = try club.ben.run("highlight", "solaris", "The ocean", "--club", "sci-fi")
        #expect(unlinked.exitCode == 1 && unlinked.stderr.contains("not linked"), "\(unlinked.stderr)")
        #expect(try !club.ben.run("show", "solaris").stdout.contains("The ocean"))
        #expect(try !club.folderText().contains("The ocean"))
    }

    @Test func conflictCopiesFromSyncthingAndDropbox() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        try club.expectSuccess(club.ben, "club", "link", "sci-fi", "デューン")
        try club.expectSuccess(club.ben, "progress", "デューン", "100")
        try club.expectSuccess(club.ana, "club", "sync")
        let benLog = try club.logPath(of: club.ben)
        let older = try Data(contentsOf: URL(fileURLWithPath: benLog))
        try club.expectSuccess(club.ben, "progress", "デューン", "200")
        let newer = try Data(contentsOf: URL(fileURLWithPath: benLog))
        // Dropbox kept the newer log as a conflicted copy and put the older one back in its place.
        let device = URL(fileURLWithPath: benLog).deletingPathExtension().lastPathComponent
        let members = club.folder + "/members/"
        try newer.write(to: URL(fileURLWithPath: members + device + " (Ben's conflicted copy 2026-11-25).jsonl"))
        try older.write(to: URL(fileURLWithPath: benLog))
        // Syncthing kept an older one too.
        try older.write(to: URL(fileURLWithPath: members + device + ".sync-conflict-20261125-101010-ABCDEFG.jsonl"))
        let ana = try club.ana.run("agenda")
        #expect(ana.exitCode == 0 && !ana.stderr.contains("Warning"), "\(ana.stderr)")
        #expect(ana.stdout.contains("ben: p. 200 of 896"), "the copy's newer lines count: \(ana.stdout)")
        // Ben's machine writes its own log again from home.
        let ben = try club.ben.run("club", "sync")
        #expect(ben.stderr.contains("written again from the copy kept here"), "\(ben.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: benLog)).prefix(newer.count) == newer)
    }

    @Test func aMemberWhoLeftPublishesNothingMore() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        let left = try club.cy.run("club", "leave", "sci-fi")
        #expect(left.exitCode == 0 && left.stderr.contains("You left Sci-Fi"), "\(left.stderr)")
        let cyLog = try club.logPath(of: club.cy)
        let size = try FileManager.default.attributesOfItem(atPath: cyLog)[.size] as? Int
        try club.expectSuccess(club.cy, "progress", "dune", "300")
        #expect(try FileManager.default.attributesOfItem(atPath: cyLog)[.size] as? Int == size)
        let post = try club.cy.run("club", "post", "sci-fi", "still here?", "--at", "1")
        #expect(post.exitCode == 1 && post.stderr.contains("you left Sci-Fi"), "\(post.stderr)")
        #expect(try Club.state(of: "cy", in: club.ana.run("club", "members").stdout) == "left")
        #expect(try club.cy.run("club", "leave", "sci-fi").exitCode == 1)
    }

    @Test func everyHomeEndsWithTheSameClubWhateverTheOrder() throws {
        var club = try Club()
        defer { club.cleanUp() }
        try club.start()
        try club.expectSuccess(club.ben, "club", "link", "sci-fi", "デューン")
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        var random = SplitMix(seed: seed)
        var pages = [club.ana.home: 0, club.ben.home: 0, club.cy.home: 0]
        for step in 0..<24 {
            let home = club.all[Int(random.next() % 3)]
            let book = home.home == club.ben.home ? "デューン" : "dune"
            switch random.next() % 4 {
            case 0, 1:
                pages[home.home] = min(400, pages[home.home]! + Int(random.next() % 40) + 1)
                try club.expectSuccess(home, "progress", book, String(pages[home.home]!))
            case 2:
                try club.expectSuccess(home, "club", "post", "sci-fi", "step \(step) 📖 \(seed)", "--at", "0")
            default:
                try club.expectSuccess(home, "club", "sync")
            }
        }
        for home in club.all + club.all { try club.expectSuccess(home, "club", "sync") }
        func view(_ home: BookClubRunner) throws -> String {
            let members = try home.run("club", "members", "--json").stdout.split(separator: "\n")
                .filter { !$0.contains("\"you\"") }.joined(separator: "\n")
            return try members + home.run("club", "feed", "--spoilers", "--json").stdout
        }
        let views = try club.all.map(view)
        #expect(views[0] == views[1] && views[1] == views[2], "seed \(seed): the homes disagree")
        #expect(views[0].contains("step") || !views[0].contains("\"posts\" : [\n"), "seed \(seed)")
    }

    @Test func threeClonesOfOneGitRepository() throws {
        let club = try Club()
        defer { club.cleanUp() }
        let bare = club.ana.home + "/club.git"
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        try git("init", "--quiet", "--bare", bare)
        for home in club.all { try git("clone", "--quiet", bare, home.home + "/clone") }
        let folder = { (home: BookClubRunner) in home.home + "/clone/sci-fi" }
        try club.expectSuccess(club.ana, "add", "Dune", "--pages", "412", "--isbn", "9780441172719")
        try club.expectSuccess(club.ana, "club", "add", "Sci-Fi")
        try club.expectSuccess(club.ana, "club", "meeting", "sci-fi", "--date", "in 2 weeks", "--book", "dune")
        let shared = try club.ana.run("club", "share", "sci-fi", folder(club.ana))
        #expect(shared.exitCode == 0, "\(shared.stderr)")
        let founder = shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for home in [club.ben, club.cy] {
            try club.expectSuccess(home, "add", "Dune", "--pages", "412", "--isbn", "9780441172719")
            try club.expectSuccess(home, "club", "join", folder(home), "--founder", founder)
        }
        try club.expectSuccess(club.ana, "club", "admit", "sci-fi", "ben")
        try club.expectSuccess(club.ana, "club", "admit", "sci-fi", "cy")
        // Ben and Cy log progress at once, then sync in turns: only their own logs change, so every
        // pull merges.
        try club.expectSuccess(club.ben, "progress", "dune", "100")
        try club.expectSuccess(club.cy, "progress", "dune", "200")
        try club.expectSuccess(club.ben, "club", "sync")
        try club.expectSuccess(club.cy, "club", "sync")
        try club.expectSuccess(club.ana, "progress", "dune", "50")
        try club.expectSuccess(club.ana, "club", "post", "sci-fi", "chapter one", "--at", "1%")
        // Then at once: both push, one is refused, pulls and pushes again; only its own log changed.
        try club.expectSuccess(club.ben, "progress", "dune", "150")
        try club.expectSuccess(club.cy, "progress", "dune", "250")
        let both = [club.ben, club.cy]
        nonisolated(unsafe) var codes: [Int32] = [-1, -1]
        let threads = (0..<2).map { index in
            Thread { codes[index] = (try? both[index].run("club", "sync"))?.exitCode ?? -2 }
        }
        for thread in threads { thread.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(10_000) }
        #expect(codes == [0, 0], "\(codes)")
        for home in club.all + club.all { try club.expectSuccess(home, "club", "sync") }
        let rosters = try club.all.map {
            try $0.run("club", "members", "--json").stdout.split(separator: "\n").filter { !$0.contains("\"you\"") }
                .joined(separator: "\n")
        }
        #expect(Set(rosters).count == 1, "every clone sees the same roster: \(rosters)")
        #expect(rosters[0].components(separatedBy: "\"member\"").count == 3, "\(rosters[0])")
        for home in [club.ben, club.cy] {
            let agenda = try home.run("agenda")
            #expect(
                agenda.stdout.contains("ben: p. 150 of 412") && agenda.stdout.contains("cy: p. 250 of 412"),
                "\(agenda.stdout)")
            #expect(try home.run("club", "feed").stdout.contains("chapter one"))
        }
    }

    private func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }
}

/// A small seeded generator, so that a failing order can be run again from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D1_33D2_49BB_7D74
        return z ^ (z >> 31)
    }
}
