import BookClubCore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sync` as readers use it: two homes and one folder, a git repository with two clones, hostile and
/// broken logs, and a writer killed between its save and its log.
@Suite struct SyncEndToEndTests {
    /// Two homes, each with its own store, and one folder between them.
    struct TwoHomes {
        let laptop: BookClubRunner
        let desk: BookClubRunner
        let folder: String

        init() throws {
            laptop = try BookClubRunner()
            desk = try BookClubRunner()
            folder = laptop.home + "/shared"
        }

        func join() throws {
            #expect(try laptop.run("sync", "init", folder, "--name", "laptop").exitCode == 0)
            #expect(try desk.run("sync", "init", folder, "--name", "desk").exitCode == 0)
        }

        func export(_ home: BookClubRunner) throws -> String {
            let result = try home.run("export")
            #expect(result.exitCode == 0, "\(result.stderr)")
            return result.stdout
        }

        func cleanUp() {
            laptop.cleanUp()
            desk.cleanUp()
        }
    }

    @Test func anEntryLoggedOnOneHomeIsListedOnTheOther() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "ノルウェイの森", "--pages", "400").exitCode == 0)
        let joined = try homes.laptop.run("sync", "init", homes.folder, "--name", "laptop")
        #expect(joined.exitCode == 0)
        let device = joined.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(device.count == 32 && device.allSatisfy(\.isHexDigit), "the device id is printed: \(joined.stdout)")
        #expect(joined.stderr.contains("joined \(homes.folder) as \(device) (laptop)"))

        let desk = try homes.desk.run("sync", "init", homes.folder, "--name", "desk")
        #expect(desk.stderr.contains("1 book from laptop"), "\(desk.stderr)")
        #expect(try homes.desk.run("progress", "ノルウェイ", "120", "--note", "the well 🕳️").exitCode == 0)

        // No `sync` needed: every command applies the other machine's new changes first.
        let list = try homes.laptop.run("list")
        #expect(list.stdout.contains("p. 120/400"), "\(list.stdout)")
        #expect(try homes.laptop.run("show", "ノルウェイ").stdout.contains("the well 🕳️"))
        #expect(try homes.export(homes.laptop) == homes.export(homes.desk))

        // The logs hold notes: their owner alone reads them.
        for name in try FileManager.default.contentsOfDirectory(atPath: homes.folder + "/devices") {
            let attributes = try FileManager.default.attributesOfItem(atPath: homes.folder + "/devices/" + name)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
        }
        let status = try homes.laptop.run("sync", "status")
        #expect(status.exitCode == 0)
        #expect(status.stdout.contains("desk") && status.stdout.contains("* "), "\(status.stdout)")
    }

    @Test func undoFinishAndRemoveTravel() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        #expect(try homes.laptop.run("add", "三体", "--pages", "300", "--tag", "scifi").exitCode == 0)
        #expect(try homes.laptop.run("progress", "三体", "100").exitCode == 0)
        #expect(try homes.laptop.run("progress", "三体", "150").exitCode == 0)
        #expect(try homes.desk.run("show", "三体").stdout.contains("p. 150"))
        #expect(try homes.laptop.run("undo").exitCode == 0)
        let shown = try homes.desk.run("show", "三体").stdout
        #expect(
            !shown.contains("p. 150") && shown.contains("p. 100"), "an undone entry is gone on the other machine too")
        // And it stays gone once the desk's store reads its history again.
        #expect(try homes.desk.run("export").stdout.contains("\"page\" : 150") == false)

        #expect(try homes.desk.run("edit", "三体", "--add-tag", "favourite").exitCode == 0)
        #expect(try homes.laptop.run("edit", "三体", "--add-tag", "china").exitCode == 0)
        #expect(try homes.desk.run("finish", "三体", "--rating", "4.5").exitCode == 0)
        #expect(try homes.laptop.run("add", "שלום").exitCode == 0)
        #expect(try homes.desk.run("remove", "שלום", "--yes").exitCode == 0)
        #expect(try homes.laptop.run("sync").exitCode == 0)
        let laptop = try homes.export(homes.laptop)
        #expect(laptop == (try homes.export(homes.desk)))
        for tag in ["scifi", "favourite", "china"] { #expect(laptop.contains("\"\(tag)\""), "both tags survive") }
        #expect(laptop.contains("\"finished\""))
        #expect(!laptop.contains("שלום"))
    }

    /// An entry undone on the laptop is withdrawn on the desk, whose history still holds its line. The
    /// desk removes the book and, before its log has the undo of that (syncProgress off, or a writer
    /// killed between its save and its log), puts it back: its next sync sends the book again, without
    /// the entry, and the desk's store must not bring the entry back from its history.
    @Test func anEntryUndoneElsewhereStaysGoneWhenTheBookComesBackBeforeItsLogSaysSo() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        #expect(try homes.laptop.run("add", "ノルウェイの森", "--pages", "300").exitCode == 0)
        #expect(try homes.laptop.run("progress", "ノルウェイの森", "100").exitCode == 0)
        #expect(try homes.laptop.run("progress", "ノルウェイの森", "150", "--note", "undone").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
        #expect(try homes.laptop.run("undo").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
        #expect(!(try homes.export(homes.desk).contains("undone")))
        #expect(try homes.desk.run("remove", "ノルウェイの森", "--yes").exitCode == 0)
        #expect(try homes.desk.run("settings", "set", "syncProgress", "false").exitCode == 0)
        #expect(try homes.desk.run("undo").exitCode == 0)
        #expect(try homes.desk.run("settings", "set", "syncProgress", "true").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
        #expect(try homes.laptop.run("sync").exitCode == 0)
        let desk = try homes.export(homes.desk)
        #expect(desk.contains("\"page\" : 100") && !desk.contains("undone"), "the book is back without the entry")
        #expect(try homes.export(homes.laptop) == desk)
    }

    @Test func undoTakesBackThisMachinesCommandsNotWhatASyncBroughtIn() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "ノルウェイの森", "--pages", "400").exitCode == 0)
        try homes.join()
        #expect(try homes.desk.run("progress", "ノルウェイ", "50").exitCode == 0)
        #expect(try homes.laptop.run("list").stdout.contains("p. 50/400"))
        let undo = try homes.laptop.run("undo")
        #expect(undo.exitCode == 1)
        #expect(
            undo.stderr == "Error: The last change came from another machine by sync ('ノルウェイの森': p. 50); "
                + "undo takes back this machine's own commands only.\n", "\(undo.stderr)")
        #expect(try homes.laptop.run("history").stdout.contains("sync"), "history names the sync")
        #expect(try homes.desk.run("list").stdout.contains("p. 50/400"), "the desk's entry stands everywhere")
        // The laptop's own command after it is undone as before.
        #expect(try homes.laptop.run("progress", "ノルウェイ", "60").exitCode == 0)
        #expect(try homes.laptop.run("undo").exitCode == 0)
        #expect(try homes.desk.run("list").stdout.contains("p. 50/400"))
        #expect(try homes.export(homes.laptop) == homes.export(homes.desk))
    }

    @Test func aBookRemovedWhileTheOtherLoggedComesBackWithEachEntryOnce() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "ノルウェイの森", "--pages", "400").exitCode == 0)
        #expect(try homes.laptop.run("progress", "ノルウェイ", "10").exitCode == 0)
        try homes.join()
        for home in [homes.laptop, homes.desk] {
            #expect(try home.run("settings", "set", "syncProgress", "false").exitCode == 0)
        }
        #expect(try homes.laptop.run("remove", "ノルウェイの森", "--yes").exitCode == 0)
        #expect(try homes.desk.run("progress", "ノルウェイ", "20").exitCode == 0)
        for home in [homes.laptop, homes.desk, homes.laptop] { #expect(try home.run("sync").exitCode == 0) }
        for home in [homes.laptop, homes.desk] {
            let shown = try home.run("show", "ノルウェイ").stdout
            #expect(shown.components(separatedBy: "p. 10  ").count == 2, "the entry once: \(shown)")
            #expect(shown.components(separatedBy: "p. 20  ").count == 2, "the entry once: \(shown)")
            #expect(try home.run("doctor").stdout.contains("1 book, 2 entries"))
        }
        #expect(try homes.export(homes.laptop) == homes.export(homes.desk))
    }

    @Test func aLogCutShortTakesANewIDAndSendsWhatItLost() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "三体", "--pages", "300").exitCode == 0)
        try homes.join()
        #expect(try homes.laptop.run("progress", "三体", "100", "--note", "red coast").exitCode == 0)
        #expect(try homes.desk.run("list").stdout.contains("p. 100/300"), "the desk read the entry")
        // An older copy of the laptop's log put back: its last line is gone.
        let log = try FileManager.default.contentsOfDirectory(atPath: homes.folder + "/devices")
            .map { homes.folder + "/devices/" + $0 }
            .first { try String(contentsOfFile: $0, encoding: .utf8).contains("laptop") }!
        var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        lines.removeLast()
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)

        let list = try homes.laptop.run("list")
        #expect(list.stderr.contains("is shorter than it wrote"), "\(list.stderr)")
        #expect(try homes.laptop.run("progress", "三体", "150").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
        let desk = try homes.export(homes.desk)
        #expect(
            desk.contains("red coast") && desk.contains("\"page\" : 150"), "the new entry came, not in the old's place")
        #expect(try homes.export(homes.laptop) == desk)
        let status = try homes.desk.run("sync", "status").stdout
        #expect(
            status.components(separatedBy: "laptop").count == 3, "both of the laptop's ids keep its name: \(status)")
    }

    @Test func joiningAnotherFolderAndBackKeepsTheDeviceID() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "שלום").exitCode == 0)
        let first = try homes.laptop.run("sync", "init", homes.folder).stdout
        let elsewhere = try homes.laptop.run("sync", "init", homes.laptop.home + "/elsewhere").stdout
        #expect(try homes.laptop.run("add", "Piranesi").exitCode == 0)
        let back = try homes.laptop.run("sync", "init", homes.folder)
        #expect(back.exitCode == 0)
        #expect(first == elsewhere && first == back.stdout, "one id for the store")
        #expect(try FileManager.default.contentsOfDirectory(atPath: homes.folder + "/devices").count == 1)
        #expect(try homes.desk.run("sync", "init", homes.folder).exitCode == 0)
        #expect(try homes.export(homes.laptop) == homes.export(homes.desk))

        let file = try homes.laptop.run("sync", "init", "/etc/passwd")
        #expect(file.exitCode == 74)
        #expect(file.stderr == "Error: /etc/passwd: a file, not a folder: give the folder to sync through\n")
    }

    @Test func withSyncProgressOffOnlySyncMovesData() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        #expect(try homes.laptop.run("settings", "set", "syncProgress", "false").exitCode == 0)
        #expect(try homes.laptop.run("add", "Kindred").exitCode == 0)
        #expect(!(try homes.desk.run("list").stdout.contains("Kindred")), "nothing written until sync")
        #expect(try homes.laptop.run("sync").stderr == "Sent 1 change.\n", "what it sent is said, not \"Nothing new\"")
        #expect(try homes.laptop.run("add", "Piranesi").exitCode == 0)
        let sync = try homes.laptop.run("sync", "--json")
        #expect(sync.exitCode == 0)
        #expect(sync.stdout.contains("\"sent\" : 1"), "\(sync.stdout)")
        #expect(try homes.desk.run("list").stdout.contains("Kindred"))
    }

    /// Two machines log the same book in the same second (a cron job, a script with `--date`), before
    /// either has seen the other's: once both have synced, their exports are the same, byte for byte.
    @Test(arguments: [false, true])
    func entriesOfTheSameSecondOnTwoMachinesAreListedAlike(deskFirst: Bool) throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "ノルウェイの森", "--pages", "400").exitCode == 0)
        #expect(try homes.laptop.run("progress", "ノルウェイ", "5").exitCode == 0)
        try homes.join()
        for home in [homes.laptop, homes.desk] {
            #expect(try home.run("settings", "set", "syncProgress", "false").exitCode == 0)
        }
        let second = "2026-11-20T08:00:00Z"
        let writes = [
            (homes.laptop, ["progress", "ノルウェイ", "120", "--note", "the well 🕳️", "--date", second]),
            (homes.desk, ["progress", "ノルウェイ", "130", "--note", "مرحبا", "--date", second]),
            (homes.laptop, ["progress", "ノルウェイ", "140", "--date", second]),
        ]
        for (home, arguments) in deskFirst ? [writes[1], writes[0], writes[2]] : writes {
            #expect(try home.run(arguments).exitCode == 0)
        }
        for _ in 0..<2 {
            #expect(try homes.laptop.run("sync").exitCode == 0)
            #expect(try homes.desk.run("sync").exitCode == 0)
        }
        let laptop = try homes.export(homes.laptop)
        #expect(laptop.components(separatedBy: "\"time\" : \"\(second)\"").count == 4, "\(laptop)")
        #expect(laptop == (try homes.export(homes.desk)))
        // Logged one after the other on one machine, the later stays the later.
        let book = try #require(try homes.laptop.json("show", "ノルウェイ", "--json") as? [String: Any])
        let pages = ((book["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]])?.map {
            $0["page"] as? Int
        }
        let laptopOrder = try #require(pages?.filter { $0 == 120 || $0 == 140 })
        #expect(laptopOrder == [120, 140], "\(pages ?? [])")
    }

    /// A machine logs a book, tags it and takes a note, then removes it, all before it syncs; the other
    /// changes the book meanwhile, which brings it back: it comes back with everything it had.
    @Test func aBookRemovedBeforeItsLastChangesWereSentComesBackWithThem() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "ノルウェイの森", "--pages", "400").exitCode == 0)
        #expect(try homes.laptop.run("progress", "ノルウェイ", "5").exitCode == 0)
        try homes.join()
        #expect(try homes.laptop.run("settings", "set", "syncProgress", "false").exitCode == 0)
        for arguments in [
            ["progress", "ノルウェイ", "120", "--note", "the well 🕳️"], ["progress", "ノルウェイ", "150"],
            ["edit", "ノルウェイ", "--add-tag", "japan"], ["remove", "ノルウェイの森", "--yes"],
        ] {
            #expect(try homes.laptop.run(arguments).exitCode == 0, "\(arguments)")
        }
        #expect(try homes.desk.run("edit", "ノルウェイ", "--author", "Haruki Murakami").exitCode == 0)
        for _ in 0..<2 {
            #expect(try homes.laptop.run("sync").exitCode == 0)
            #expect(try homes.desk.run("sync").exitCode == 0)
        }
        let desk = try homes.export(homes.desk)
        #expect(
            desk.contains("Haruki Murakami") && desk.contains("the well 🕳️") && desk.contains("\"japan\""), "\(desk)")
        #expect(desk.contains("\"page\" : 150"))
        #expect(try homes.export(homes.laptop) == desk)
    }

    @Test func gitCloneToCloneWithNoConflict() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        let bare = homes.laptop.home + "/library.git"
        let one = homes.laptop.home + "/one"
        let two = homes.desk.home + "/two"
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging([
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@t",
            ]) { $1 }
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments.joined(separator: " "))")
        }
        try git("init", "--quiet", "--bare", "-b", "main", bare)
        try git("clone", "--quiet", bare, one)
        try git("clone", "--quiet", bare, two)

        #expect(try homes.laptop.run("add", "Dune").exitCode == 0)
        #expect(try homes.laptop.run("sync", "init", one + "/bookclub", "--name", "laptop").exitCode == 0)
        let first = try homes.laptop.run("sync")
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(try homes.desk.run("sync", "init", two + "/bookclub", "--name", "desk").exitCode == 0)
        let pulled = try homes.desk.run("sync")
        #expect(pulled.exitCode == 0, "\(pulled.stderr)")
        #expect(try homes.desk.run("list").stdout.contains("Dune"))

        // Both change before either syncs, in the same second: the pushes race, and the second pulls
        // and pushes again.
        #expect(try homes.laptop.run("progress", "dune", "30%", "--date", "2026-11-20T08:00:00Z").exitCode == 0)
        #expect(try homes.desk.run("add", "Piranesi").exitCode == 0)
        #expect(try homes.desk.run("progress", "dune", "20%", "--date", "2026-11-20T08:00:00Z").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
        let laptop = try homes.laptop.run("sync")
        #expect(laptop.exitCode == 0, "\(laptop.stderr)")
        #expect(laptop.stderr.contains("1 book, 1 entry, 1 reading from desk"), "\(laptop.stderr)")
        #expect(try homes.desk.run("sync").exitCode == 0)
        #expect(try homes.export(homes.laptop) == homes.export(homes.desk))
        let status = try homes.desk.run("sync", "status")
        #expect(status.stdout.contains("Everything is pushed."), "\(status.stdout)")

        // A git stopped mid-way (a closed terminal, a power cut) leaves the index locked: the error
        // names the lock, and once it is gone the next sync goes on.
        let lock = two + "/.git/index.lock"
        #expect(FileManager.default.createFile(atPath: lock, contents: Data()))
        #expect(try homes.desk.run("progress", "dune", "40%").exitCode == 0)
        let locked = try homes.desk.run("sync")
        #expect(locked.exitCode == 69)
        #expect(
            locked.stderr.contains(
                ": \(lock) exists, so another git is running there or one was stopped mid-way (if none is running, delete it); run `git -C "
            ),
            "\(locked.stderr)")
        #expect(locked.stderr.split(separator: "\n").count == 1, "\(locked.stderr)")
        try FileManager.default.removeItem(atPath: lock)
        #expect(try homes.desk.run("sync").exitCode == 0)
        #expect(try homes.laptop.run("sync").exitCode == 0)
        #expect(try homes.export(homes.laptop) == homes.export(homes.desk))
        let logs = try FileManager.default.contentsOfDirectory(atPath: two + "/bookclub/devices")
        for name in logs {
            let text = try String(contentsOfFile: two + "/bookclub/devices/" + name, encoding: .utf8)
            #expect(!text.contains("<<<<<<<"), "no conflict markers")
        }
    }

    @Test func brokenAndHostileLogsAreReportedAndTheRestApplied() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        #expect(try homes.desk.run("add", "Kindred").exitCode == 0)
        let devices = homes.folder + "/devices"
        let stranger = String(repeating: "e", count: 32)
        let other = String(repeating: "f", count: 32)
        func line(_ device: String, _ n: Int, _ rest: String) -> String {
            #"{"v":1,"device":"\#(device)","n":\#(n),"t":1795578592641,"c":\#(n),\#(rest)}"#
        }
        let add = #""op":"book.add","book":{"id":"ab12","title":"Wolf Hall","tags":[],"added":"2026-11-20T10:00:00Z"}"#
        // A good line, a line with git's conflict marker, then a line that must wait behind it.
        try
            (line(stranger, 1, add) + "\n<<<<<<< HEAD\n"
            + line(stranger, 2, #""op":"book.tag","book":"ab12","tag":"x","on":true"#) + "\n")
            .write(toFile: devices + "/\(stranger).jsonl", atomically: true, encoding: .utf8)
        // A hostile id, a name with a terminal escape, a line of a later bookclub, an unfinished last line.
        try
            ([
                line(other, 1, #""op":"device.name","name":"evil\u001b]0;pwned\u0007""#),
                line(
                    other, 2,
                    #""op":"book.add","book":{"id":"../../etc","title":"x","tags":[],"added":"2026-11-20T10:00:00Z"}"#),
            ].joined(separator: "\n") + "\n").write(
                toFile: devices + "/\(other).jsonl", atomically: true, encoding: .utf8)
        let copy = devices + "/\(stranger).sync-conflict-20261125-101010-ABCDEFG.jsonl"
        try (line(stranger, 1, add) + "\n" + #"{"v":2,"device":"x","op":"book.split"}"# + "\n" + line(stranger, 3, add))
            .write(toFile: copy, atomically: true, encoding: .utf8)

        let sync = try homes.laptop.run("sync")
        #expect(sync.exitCode == 65)
        #expect(
            sync.stderr.contains("\(stranger).jsonl:2:"), "the file and line of the conflict marker: \(sync.stderr)")
        #expect(sync.stderr.contains("\(other).jsonl:2: `book.id`: not an id bookclub makes"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("\u{1b}"), "no escape reaches the terminal")
        let list = try homes.laptop.run("list").stdout
        #expect(list.contains("Kindred") && list.contains("Wolf Hall"), "every other device is applied: \(list)")
        #expect(
            try homes.laptop.run("sync", "status").stdout.components(separatedBy: "\n").filter {
                $0.contains("eeeeeeee")
            }.count == 1, "a conflict copy is no device of its own")
        #expect(try homes.laptop.run("sync", "status").exitCode == 65)
        // Any other command warns, every time until the line is mended, and goes on.
        for _ in 1...2 {
            let show = try homes.laptop.run("show", "kindred")
            #expect(show.exitCode == 0)
            #expect(show.stderr.contains("\(stranger).jsonl:2:"), "\(show.stderr)")
        }
    }

    /// In a folder shared with other people, one of them may put a link where a log belongs, pointing
    /// at a file of the reader's. It is never opened: reported, and nothing of the file is read.
    @Test func aLogThatIsALinkToAPrivateFileIsReportedAndNeverRead() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        #expect(try homes.desk.run("add", "Kindred").exitCode == 0)
        let devices = homes.folder + "/devices"
        // A private file that reads as a log: followed, it would bring in a book titled with the secret.
        let secret = "the reader's secret 7f3a9c"
        let stranger = String(repeating: "e", count: 32)
        let privateFile = homes.laptop.home + "/private.txt"
        try
            (#"{"v":1,"device":"\#(stranger)","n":1,"t":1795578592641,"c":1,"op":"book.add","book":{"id":"ab12","title":"\#(secret)","tags":[],"added":"2026-11-20T10:00:00Z"}}"#
            + "\n").write(toFile: privateFile, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: devices + "/\(stranger).jsonl", withDestinationPath: privateFile)
        // And a link to the store itself.
        let other = String(repeating: "f", count: 32)
        try FileManager.default.createSymbolicLink(
            atPath: devices + "/\(other).jsonl", withDestinationPath: homes.laptop.storePath)

        var outputs: [BookClubRunner.Result] = []
        let sync = try homes.laptop.run("sync")
        outputs.append(sync)
        #expect(sync.exitCode == 65, "\(sync)")
        for device in [stranger, other] {
            #expect(
                sync.stderr.contains(
                    "\(devices)/\(device).jsonl: a symbolic link, not a log: left unopened; that device's changes wait until its log is put in its place\n"
                ), "\(sync.stderr)")
        }
        let json = try homes.laptop.run("sync", "--json")
        outputs.append(json)
        #expect(json.exitCode == 65)
        #expect(json.stdout.contains(#""detail" : "a symbolic link, not a log: left unopened""#), "\(json.stdout)")
        let status = try homes.laptop.run("sync", "status")
        outputs.append(status)
        #expect(status.exitCode == 65)
        #expect(status.stderr.contains("\(stranger).jsonl: a symbolic link"), "\(status.stderr)")
        // Every other command warns, and goes on with the other devices' logs.
        let list = try homes.laptop.run("list")
        outputs.append(list)
        #expect(list.exitCode == 0 && list.stdout.contains("Kindred"), "\(list)")
        #expect(list.stderr.contains("\(stranger).jsonl: a symbolic link"), "\(list.stderr)")
        let export = try homes.laptop.run("export")
        outputs.append(export)
        let desk = try homes.desk.run("sync")
        outputs.append(desk)
        #expect(desk.exitCode == 65, "the other machine does not follow the link either")
        for result in outputs {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(result)")
        }
        for home in [homes.laptop, homes.desk] {
            let store = home.home + "/.local/share/bookclub"
            for name in try FileManager.default.contentsOfDirectory(atPath: store) {
                let data = try Data(contentsOf: URL(fileURLWithPath: store + "/" + name))
                #expect(!String(decoding: data, as: UTF8.self).contains(secret), "\(name) holds nothing of it")
            }
        }

        // The links taken away: nothing is reported any more.
        for device in [stranger, other] { try FileManager.default.removeItem(atPath: devices + "/\(device).jsonl") }
        let after = try homes.laptop.run("list")
        #expect(after.exitCode == 0 && !after.stderr.contains("left unopened"), "\(after.stderr)")
        #expect(try homes.laptop.run("sync").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
    }

    /// A named pipe where a log belongs would hang a reader that opened it, waiting for a writer; a
    /// folder cannot be read. Both are reported at once, and the other logs applied.
    @Test func aPipeOrAFolderWhereALogBelongsIsReportedWithoutWaiting() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        #expect(try homes.desk.run("add", "Kindred").exitCode == 0)
        let devices = homes.folder + "/devices"
        let piped = String(repeating: "e", count: 32)
        let folder = String(repeating: "f", count: 32)
        #expect(mkfifo(devices + "/\(piped).jsonl", 0o600) == 0)
        try FileManager.default.createDirectory(
            atPath: devices + "/\(folder).jsonl", withIntermediateDirectories: false)
        let started = Date()
        let sync = try homes.laptop.run(["sync"], timeLimit: 30)
        #expect(!sync.signalled, "sync returned without waiting on the pipe")
        #expect(sync.exitCode == 65, "\(sync)")
        #expect(sync.stderr.contains("\(devices)/\(piped).jsonl: a named pipe, not a log: left unopened"), "\(sync)")
        #expect(sync.stderr.contains("\(devices)/\(folder).jsonl: a folder, not a log: left unopened"), "\(sync)")
        #expect(sync.stderr.contains("1 book from desk"), "\(sync.stderr)")
        for arguments in [["list"], ["sync", "status"], ["progress", "kindred", "10%"]] {
            let result = try homes.laptop.run(arguments, timeLimit: 30)
            #expect(!result.signalled, "\(arguments) returned without waiting on the pipe")
            #expect(result.exitCode == (arguments == ["sync", "status"] ? 65 : 0), "\(arguments): \(result)")
            #expect(result.stderr.contains("\(piped).jsonl: a named pipe"), "\(arguments): \(result.stderr)")
        }
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(try homes.desk.run(["sync"], timeLimit: 30).exitCode == 65)
        #expect(try homes.desk.run("list").stdout.contains("10%"), "the laptop's log is written as before")
    }

    /// This machine's own log replaced by a link (by a file-sync tool or a git pull of someone else's
    /// commit), or by a named pipe (which a writer would wait on for a reader): nothing is written
    /// through it, nothing waits, and the command says so in one line.
    @Test(arguments: [OtherFileKind.symbolicLink, .namedPipe])
    func thisMachinesLogReplacedByALinkIsNeverWrittenThrough(_ kind: OtherFileKind) throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "Dune", "--pages", "400").exitCode == 0)
        let joined = try homes.laptop.run("sync", "init", homes.folder, "--name", "laptop")
        #expect(joined.exitCode == 0)
        #expect(try homes.desk.run("sync", "init", homes.folder, "--name", "desk").exitCode == 0)
        let device = joined.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let own = homes.folder + "/devices/\(device).jsonl"
        let log = try Data(contentsOf: URL(fileURLWithPath: own))
        // The link points at a file of the reader's that reads as the log (a backup of it), so that
        // only the refusal keeps a command from appending there.
        let target = homes.laptop.home + "/log-backup.jsonl"
        let held = log
        try held.write(to: URL(fileURLWithPath: target))
        try FileManager.default.removeItem(atPath: own)
        if kind == .symbolicLink {
            try FileManager.default.createSymbolicLink(atPath: own, withDestinationPath: target)
        } else {
            #expect(mkfifo(own, 0o600) == 0)
        }
        let refusal =
            "\(own): is \(kind.rawValue) where this machine's log belongs: left unopened, nothing written through it; put the log itself in its place"

        // A command that would append its change: the change stands here, the log is not written.
        let progress = try homes.laptop.run(["progress", "dune", "120"], timeLimit: 30)
        #expect(progress.exitCode == 0 && !progress.signalled, "\(progress)")
        let warnings = progress.stderr.split(separator: "\n").filter { $0.contains(own) }
        #expect(warnings == ["Warning: could not sync: " + refusal[...]], "one line: \(progress.stderr)")
        let sync = try homes.laptop.run(["sync"], timeLimit: 30)
        #expect(sync.exitCode == 74 && !sync.signalled, "\(sync)")
        #expect(sync.stderr == "Error: \(refusal)\n", "one line")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == held)
        let names = try FileManager.default.contentsOfDirectory(atPath: homes.folder + "/devices")
        #expect(names.count == 2, "no log of a new id was started: \(names)")
        #expect(FileSystem.live.kind(own) == kind, "what stands there is left as it is")

        // The log put back: the change goes out.
        try FileManager.default.removeItem(atPath: own)
        try log.write(to: URL(fileURLWithPath: own))
        let mended = try homes.laptop.run("sync")
        #expect(mended.exitCode == 0, "\(mended)")
        #expect(try homes.desk.run("sync").exitCode == 0)
        #expect(try homes.desk.run("list").stdout.contains("p. 120/400"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == held)
    }

    @Test func aCopiedDiskIsToldApartAndTakesANewID() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "Dune").exitCode == 0)
        try homes.join()
        // The laptop's disk copied to a new machine: the same store, the same device id.
        var copy = try BookClubRunner()
        defer { copy.cleanUp() }
        let store = "/.local/share/bookclub"
        try FileManager.default.createDirectory(atPath: copy.home + "/.local/share", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: homes.laptop.home + store, toPath: copy.home + store)
        copy.environment["BOOKCLUB_SETTINGS"] = homes.laptop.home + "/.config/bookclub/settings.json"
        #expect(try copy.run("progress", "dune", "10%", "--note", "from the copy").exitCode == 0)

        let list = try homes.laptop.run("list")
        #expect(list.exitCode == 0)
        #expect(list.stderr.contains("was in use on another machine too"), "\(list.stderr)")
        #expect(try homes.laptop.run("progress", "dune", "20%", "--note", "from the laptop").exitCode == 0)
        #expect(try copy.run("sync").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
        #expect(try homes.laptop.run("sync").exitCode == 0)
        let export = try homes.export(homes.desk)
        #expect(export.contains("from the copy") && export.contains("from the laptop"))
        #expect(try homes.export(homes.laptop) == export)
        #expect(try copy.run("export").stdout == export)
        let devices = try FileManager.default.contentsOfDirectory(atPath: homes.folder + "/devices")
        #expect(devices.count == 3, "the laptop writes a log of its own now: \(devices)")
    }

    /// A write that fails at any step (the store's or the log's) is either reported, and then either
    /// not made or made here and sent by the next command, or it exits 0 and reaches the other machine;
    /// never twice.
    @Test(arguments: [
        (InjectedFault.Call.open, EACCES), (.write, ENOSPC), (.fsync, EIO), (.rename, EXDEV),
    ])
    func aFailedWriteAtAnyStepIsSentOnceOrNotAtAll(_ call: InjectedFault.Call, _ code: Int32) throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "Dune", "--pages", "100000").exitCode == 0)
        try homes.join()
        var made = Set<String>()
        for occurrence in 1...24 {
            let note = "\(call) \(occurrence)"
            let result = InProcess.run(
                ["progress", "dune", "+1", "--note", note], home: homes.laptop.home,
                fileSystem: .live(injecting: call, occurrence: occurrence, code: code))
            // The next command, with nothing failing, records what the failed one left unrecorded.
            #expect(try homes.laptop.run("list").exitCode == 0)
            let here = try homes.laptop.run("export").stdout.contains("\"\(note)\"")
            if result.code == 0 { #expect(here, "\(note) exited 0 and is kept") }
            if here { made.insert(note) }
            if result.code == 0 && !result.stderr.contains("warning") { break }
        }
        #expect(try homes.desk.run("sync").exitCode == 0)
        let desk = try homes.export(homes.desk)
        for note in made {
            #expect(desk.components(separatedBy: "\"\(note)\"").count == 2, "\(note) reached the desk once")
        }
        #expect(try homes.export(homes.laptop) == desk)
    }

    /// Writers of every kind, on either home, killed with SIGKILL at random moments: once both have
    /// synced, the two hold the same library, byte for byte. The commands are drawn from a seed (the
    /// book each names from what the kills left), the moments are not; `BOOKCLUB_SYNC_KILLS` asks for
    /// more than 30 trials.
    @Test func killedWritersOfEveryKindLeaveBothHomesAlike() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        for title in ["Dune", "ノルウェイの森", "שלום 📚"] {
            #expect(try homes.laptop.run("add", title, "--pages", "500").exitCode == 0)
        }
        var random = SeededGenerator(state: 2026)
        let trials = ProcessInfo.processInfo.environment["BOOKCLUB_SYNC_KILLS"].flatMap(Int.init) ?? 30
        var kills = 0
        for trial in 0..<trials {
            let home = Bool.random(using: &random) ? homes.laptop : homes.desk
            let books = (try home.json("list", "--all", "--json") as? [[String: Any]] ?? []).compactMap {
                $0["id"] as? String
            }
            let book = books.randomElement(using: &random) ?? "none"
            let page = String(Int.random(in: 1...500, using: &random))
            let commands: [[String]] = [
                ["progress", book, page, "--note", "trial \(trial)"], ["progress", book, "+1"], ["undo"],
                ["edit", book, "--title", "Title \(trial)"], ["finish", book], ["unfinish", book], ["reread", book],
                ["remove", book, "--yes"], ["add", "Book \(trial)", "--pages", page], ["sync"],
            ]
            let arguments = commands.randomElement(using: &random)!
            let process = try home.start(arguments)
            usleep(UInt32.random(in: 0...30_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason != .exit { kills += 1 }
            for home in [homes.laptop, homes.desk, homes.laptop, homes.desk] {
                #expect(try home.run("sync").exitCode == 0, "trial \(trial): \(arguments)")
            }
            #expect(try homes.export(homes.laptop) == homes.export(homes.desk), "trial \(trial): \(arguments)")
        }
        print("sync kill trials: \(trials), killed mid-command: \(kills)")
    }

    @Test func aWriterKilledBetweenItsSaveAndItsLogLosesNothing() throws {
        let homes = try TwoHomes()
        defer { homes.cleanUp() }
        #expect(try homes.laptop.run("add", "Dune", "--pages", "100000").exitCode == 0)
        try homes.join()
        var acknowledged = Set<String>()
        var kills = 0
        for trial in 0..<40 {
            let note = "trial \(trial)"
            let process = try homes.laptop.start(["progress", "dune", "+1", "--note", note])
            usleep(UInt32.random(in: 0...30_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .exit, process.terminationStatus == 0 {
                acknowledged.insert(note)
            } else {
                kills += 1
            }
        }
        #expect(try homes.laptop.run("list").exitCode == 0)
        #expect(try homes.desk.run("sync").exitCode == 0)
        let export = try homes.export(homes.desk)
        for note in acknowledged { #expect(export.contains("\"\(note)\""), "\(note) reached the other machine") }
        for trial in 0..<40 {
            #expect(export.components(separatedBy: "\"trial \(trial)\"").count <= 2, "trial \(trial) applied once")
        }
        #expect(try homes.export(homes.laptop) == export)
        print("sync crash trials: 40, killed: \(kills), completed: \(acknowledged.count)")
    }
}
