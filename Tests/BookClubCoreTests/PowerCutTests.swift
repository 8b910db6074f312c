import BookClubCore
import Foundation
import Testing

@testable import bookclub

/// Safe when the power goes: each command's file operations are recorded, every disk a power cut
/// during them may leave is built (`PowerCut`), and the store is checked on each. It opens (or
/// `doctor --fix` mends it and then it opens); it is exactly as before the command or as after it, its
/// `history` and `list`'s rows included; once the command has said it is done, it is as after; `doctor` then finds nothing;
/// and the next writer works on it.
///
/// CI checks a seeded sample of `BOOKCLUB_CRASH_STATES` states a command (120 unless set; `all` checks
/// every one, which takes some minutes).
@Suite(.serialized) struct PowerCutTests {
    static let budget: Int? = {
        let value = ProcessInfo.processInfo.environment["BOOKCLUB_CRASH_STATES"] ?? "120"
        return value == "all" ? nil : Int(value) ?? 120
    }()

    struct Step {
        var arguments: [String]
        var stdin: [String] = []
        /// Kills the command after the `n`th operation that matches, counting from 1.
        var killed: (count: Int, where: (PowerCut.Operation) -> Bool)?
    }

    /// What a reader sees of a store: the library with every entry, and `history`.
    struct Observed: Equatable {
        var library: Library
        var changes: [String]
    }

    static func observe(_ path: String) throws -> Observed {
        let storage = LibraryStorage(path: path, fileSystem: .live)
        let library = try {
            // Without the lock, which would create the store's folder.
            let store = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
            return store.state
        }()
        // `list`'s rows, from a listing that a cut may have left of another snapshot or torn: the
        // library's all the same.
        #expect(try storage.rows().rows == library.books.map(BookRow.init), "the rows of \(path)")
        return Observed(library: library, changes: try storage.changes().map(\.command))
    }

    static func isSync(_ operation: PowerCut.Operation) -> Bool {
        if case .syncFile = operation { true } else { false }
    }

    /// Whether the operation creates a file whose name ends so.
    static func creates(_ suffix: String) -> (PowerCut.Operation) -> Bool {
        { operation in
            if case .create(let path, _) = operation { path.hasSuffix(suffix) } else { false }
        }
    }

    // MARK: The commands

    @Test func addOnAFreshStore() throws {
        try explore(
            "add on a fresh store", steps: [Step(arguments: ["add", "ノルウェイの森", "--author", "村上春樹", "--pages", "296"])])
    }

    @Test func progress() throws {
        try explore(
            "progress", setup: ["add Dune --pages 412", "progress dune 100"],
            steps: [Step(arguments: ["progress", "dune", "120", "--note", "the spice 🌶 مرحبا"])])
    }

    /// The first save after a fold (here `doctor --fix`'s) syncs the journal alone: the snapshot's
    /// length of the undo log stands for the log's name made durable.
    @Test func progressAfterAFold() throws {
        try explore(
            "progress after a fold", setup: ["add Dune --pages 412", "progress dune 100", "doctor --fix"],
            steps: [Step(arguments: ["progress", "dune", "120", "--note", "ノルウェイの森 🌧"])])
    }

    /// One `fsync` commits a `progress`, the journal's: the history's new line and the undo record are
    /// written unsynced, and the journal's commit carries them. After a fold (here `doctor --fix`'s) as
    /// well: the snapshot keeps the undo log's length, which the fold made durable, name and all.
    @Test(arguments: [false, true]) func aProgressSyncsTheJournalAlone(afterAFold: Bool) throws {
        let setup = ["add Dune --pages 412", "progress dune 100"] + (afterAFold ? ["doctor --fix"] : [])
        let home = try Self.newHome(after: setup)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = home + "/.local/share/bookclub/store.json"
        let lines = try String(contentsOfFile: store + ".journal", encoding: .utf8).split(separator: "\n")
        try #require((lines.count == 1) == afterAFold, "the journal folded, or not: \(lines)")
        let recorder = PowerCut.Recorder(root: home)
        let result = InProcess.run(["progress", "dune", "120"], home: home, fileSystem: recorder.fileSystem)
        try #require(result.code == 0, "\(result.stderr)")
        let syncs = recorder.operations.filter {
            switch $0 {
            case .syncFile, .syncFolder: true
            default: false
            }
        }
        let journal = try #require(recorder.initialInodes[store + ".journal"])
        #expect(syncs.count == 1, "\(syncs)")
        #expect(syncs.allSatisfy { if case .syncFile(journal) = $0 { true } else { false } }, "\(syncs)")
        let written = Set(recorder.operations.compactMap(\.inode))
        #expect(
            written == Set([".history", ".undo", ".journal"].compactMap { recorder.initialInodes[store + $0] }),
            "the history, the undo log and the journal are written")
    }

    /// A `progress` that syncs syncs one file more than one that does not: this machine's log, once its
    /// operation is appended (the state must never count more of the log than is durable). The sync
    /// state is added to its file unsynced. On every disk a power cut during the command may leave,
    /// the next `sync` works, keeps this machine's id, and this machine's log then holds each page the
    /// store holds, once, and no other.
    @Test func aSyncedProgressSyncsItsLogAndAddsItsStateUnsynced() throws {
        let home = try Self.syncedHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = home + "/.local/share/bookclub/store.json"
        let device = try #require(try SyncState.load(path: store + ".sync", fileSystem: .live)).device
        let log = home + "/shared/devices/\(device).jsonl"
        let recorder = PowerCut.Recorder(root: home)
        let result = InProcess.run(["progress", "dune", "120"], home: home, fileSystem: recorder.fileSystem)
        try #require(result.code == 0, "\(result.stderr)")
        recorder.acknowledge()
        let synced = recorder.operations.compactMap { operation -> Int? in
            switch operation {
            case .syncFile(let inode): inode
            case .syncFolder: -1
            default: nil
            }
        }
        #expect(
            synced == [".journal"].compactMap { recorder.initialInodes[store + $0] } + [recorder.initialInodes[log]!],
            "the journal, then the log: \(recorder.operations)")
        let state = try #require(recorder.initialInodes[store + ".sync"])
        #expect(
            recorder.operations.contains { if case .write(state, _, _) = $0 { true } else { false } },
            "the state is written in place")

        let space = PowerCut.Space(recorder)
        var checked = Set<PowerCut.Disk>()
        for (prefix, count) in space.counts().enumerated() {
            for number in Set([0, count / 2, count - 1]) where count > 0 {
                let disk = space.disk(after: space.crash(prefix: prefix, number: number))
                guard checked.insert(disk).inserted else { continue }
                try disk.write(to: home)
                let sync = InProcess.run(["sync"], home: home)
                let name = "crash after \(prefix) of \(space.operations.count) operations"
                #expect(sync.code == 0, "\(name): \(sync.stdout)\(sync.stderr)")
                #expect(try SyncState.load(path: store + ".sync", fileSystem: .live)?.device == device, "\(name)")
                let pages = try #require(try Self.observe(store).library.books.first?.readings.first?.progress)
                    .entries.map(\.page)
                let logged = try String(contentsOfFile: log, encoding: .utf8)
                for page in [100, 110, 120] {
                    let times = logged.components(separatedBy: "\"page\":\(page),").count - 1
                    #expect(times == (pages.contains(page) ? 1 : 0), "\(name): page \(page) logged \(times) times")
                }
            }
        }
        #expect(checked.count >= 10, "\(checked.count) crash states")
    }

    /// A line of this machine's log that cannot be read is cut only when it lies past what the state
    /// counts and no whole line after it is an operation: what a torn append leaves, which no other
    /// machine can have applied. A hand edit of a line the state counts, or one followed by an
    /// operation, is refused (exit 65) and the log left as it is.
    @Test func aDamagedLineOfThisMachinesLogIsCutOnlyWhenNoOneCanHaveReadIt() throws {
        let home = try Self.syncedHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = home + "/.local/share/bookclub/store.json"
        let stale = try Data(contentsOf: URL(fileURLWithPath: store + ".sync"))
        try Self.run(["progress", "dune", "120"], home: home)
        let device = try #require(try SyncState.load(path: store + ".sync", fileSystem: .live)).device
        let log = home + "/shared/devices/\(device).jsonl"
        let written = try Data(contentsOf: URL(fileURLWithPath: log))
        let last = written.dropLast().lastIndex(of: 0x0A)! + 1
        let (counted, latest) = (written[..<last], written[last...])
        let garbage = Data(#"{"book":"0000","c":0,"dev"#.utf8)
        for (name, contents, staleState, cut) in [
            ("a line the state counts, edited", counted + garbage + Data("\n".utf8), false, false),
            ("past the state, an operation after it", counted + garbage + Data("\n".utf8) + latest, true, false),
            ("past the state, a torn append", counted + garbage, true, true),
            ("past the state, a torn append of zeros", counted + Data(count: latest.count), true, true),
        ] {
            try contents.write(to: URL(fileURLWithPath: log))
            if staleState { try stale.write(to: URL(fileURLWithPath: store + ".sync")) }
            let sync = InProcess.run(["sync"], home: home)
            let now = try Data(contentsOf: URL(fileURLWithPath: log))
            if cut {
                #expect(sync.code == 0, "\(name): \(sync.stdout)\(sync.stderr)")
                #expect(!sync.stderr.contains("Warning"), "\(name): \(sync.stderr)")
                // The entry of the torn line sent again, with the number it would have had.
                #expect(now.starts(with: counted) && now.count > counted.count, "\(name)")
                let pages = String(decoding: now, as: UTF8.self).components(separatedBy: "\"page\":120,").count - 1
                #expect(pages == 1, "\(name): \(String(decoding: now, as: UTF8.self))")
                #expect(try SyncState.load(path: store + ".sync", fileSystem: .live)?.device == device, "\(name)")
            } else {
                #expect(sync.code == 65, "\(name): \(sync.stdout)\(sync.stderr)")
                #expect(now == contents, "\(name): the log left as it was")
            }
        }
    }

    /// A save that sets the undo log aside syncs the log, the folder after the rename and after the new
    /// log is created, and the journal: it no longer first commits a change that carries nothing.
    @Test func aSaveThatSetsTheLogAsideSyncsFourTimes() throws {
        let home = try Self.newHome(after: Self.toTheUndoLogsDepth)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = home + "/.local/share/bookclub/store.json"
        let recorder = PowerCut.Recorder(root: home)
        let result = InProcess.run(["progress", "dune", "120"], home: home, fileSystem: recorder.fileSystem)
        try #require(result.code == 0, "\(result.stderr)")
        let log = try #require(recorder.initialInodes[store + ".undo"])
        let journal = try #require(recorder.initialInodes[store + ".journal"])
        let folder = home + "/.local/share/bookclub"
        let syncs = recorder.operations.compactMap { operation -> String? in
            switch operation {
            case .syncFile(log): "log"
            case .syncFile(journal): "journal"
            case .syncFolder(folder): "folder"
            case .syncFile, .syncFolder: "\(operation)"
            default: nil
            }
        }
        #expect(syncs == ["log", "folder", "folder", "journal"])
    }

    @Test func progressThatFolds() throws {
        let home = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try Self.run(["add", "Dune", "--pages", "412"], home: home)
        // Long notes fill the journal to just short of a fold, so that the next save writes a new snapshot.
        let note = String(repeating: "spice ", count: 1_500)
        let journal = home + "/.local/share/bookclub/store.json.journal"
        var page = 1
        var grows = 0
        while true {
            let size = try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int ?? 0
            if grows > 0 && size + grows + 512 > 128 * 1024 { break }
            try Self.run(["progress", "dune", "\(page)", "--note", note], home: home)
            grows = (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int ?? 0) - size
            page += 1
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: home + "/.local/share/bookclub")
        try explore(
            "progress that folds", home: home,
            steps: [Step(arguments: ["progress", "dune", "\(page)", "--note", note])],
            after: {
                #expect(
                    (try? Data(contentsOf: URL(fileURLWithPath: journal)).count) ?? 0 < 1_000,
                    "the save folded the journal: \(before)")
            })
    }

    /// A fold stopped after its snapshot's rename, before its journal's (here `doctor --fix`'s, which
    /// changes nothing a reader sees), leaves the journal the snapshot replaced; the next save folds
    /// again, for no journal is of its snapshot's generation, and a power cut anywhere in that fold
    /// leaves a store that opens. Before each snapshot named the journal on disk as the one it
    /// replaced, the second fold cut short left a journal that every command refused.
    @Test func aFoldStoppedAfterItsSnapshotThenAFold() throws {
        let renamesTheSnapshot: (PowerCut.Operation) -> Bool = { operation in
            if case .rename(_, let path) = operation { path.hasSuffix("/store.json") } else { false }
        }
        try explore(
            "a fold stopped after its snapshot, then a fold", setup: ["add Dune --pages 412", "progress dune 10"],
            steps: [
                Step(arguments: ["doctor", "--fix"], killed: (1, renamesTheSnapshot)),
                Step(arguments: ["progress", "dune", "20"]),
            ])
    }

    /// The save after the log's 20th record sets the log aside: it syncs the log, renames it, and
    /// begins a new one, which its commit carries alone.
    @Test func progressThatSetsTheUndoLogAside() throws {
        let home = try Self.newHome(after: Self.toTheUndoLogsDepth)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let logSetAside = home + "/.local/share/bookclub/store.json.undo.1"
        #expect(!FileManager.default.fileExists(atPath: logSetAside))
        try explore(
            "progress that sets the undo log aside", home: home,
            steps: [Step(arguments: ["progress", "dune", "120", "--note", "ノルウェイの森 📚"])],
            after: { #expect(FileManager.default.fileExists(atPath: logSetAside), "the save set the log aside") })
    }

    /// A save stopped after it set the log aside, before its commit, leaves the records the journal
    /// carries in the log set aside: a reader finds them there, and the next save makes them durable
    /// before its own record, carried in the new log.
    /// With `folded`, the log's 20th record was folded into a new snapshot, and the journal carries
    /// none: the next save still makes the rename durable before it begins a new log.
    @Test(arguments: [false, true]) func aSaveStoppedAfterItSetTheLogAsideThenASave(folded: Bool) throws {
        let setsTheLogAside: (PowerCut.Operation) -> Bool = { operation in
            if case .rename(_, let path) = operation { path.hasSuffix("/store.json.undo.1") } else { false }
        }
        try explore(
            "a save stopped after it set the log aside\(folded ? ", the journal folded" : ""), then a save",
            setup: Self.toTheUndoLogsDepth + (folded ? ["doctor --fix"] : []),
            steps: [
                Step(arguments: ["progress", "dune", "100"], killed: (1, setsTheLogAside)),
                Step(arguments: ["progress", "dune", "120"]),
            ])
    }

    @Test func finish() throws {
        try explore(
            "finish", setup: ["add Dune --pages 412", "progress dune 100"],
            steps: [Step(arguments: ["finish", "dune"])])
    }

    @Test func undo() throws {
        try explore(
            "undo", setup: ["add Dune --pages 412", "progress dune 100", "progress dune 150"],
            steps: [Step(arguments: ["undo"])])
    }

    @Test func abandon() throws {
        try explore(
            "abandon", setup: ["add Dune --pages 412", "progress dune 100"],
            steps: [Step(arguments: ["abandon", "dune"])])
    }

    @Test func edit() throws {
        try explore(
            "edit", setup: ["add Dune --pages 412", "progress dune 100"],
            steps: [Step(arguments: ["edit", "dune", "--title", "כתיבה ✍️ Dune"])])
    }

    @Test func remove() throws {
        try explore(
            "remove", setup: ["add Dune --pages 412", "progress dune 100", "add Kindred"],
            steps: [Step(arguments: ["remove", "dune", "--yes"])])
    }

    @Test func reread() throws {
        try explore(
            "reread", setup: ["add Dune --pages 412", "progress dune 100", "finish dune"],
            steps: [Step(arguments: ["reread", "dune"])])
    }

    @Test func clubMeeting() throws {
        try explore(
            "club meeting", setup: ["add Dune --pages 412", "club add Dunecon"],
            steps: [
                Step(arguments: [
                    "club", "meeting", "dunecon", "--date", "2030-01-10 19:00", "--book", "dune", "--target", "200",
                ])
            ])
    }

    @Test func clubAdd() throws {
        try explore("club add", setup: ["add Dune --pages 412"], steps: [Step(arguments: ["club", "add", "読書会"])])
    }

    @Test(.enabled(if: RealExports.isPresent)) func importOfARealExport() throws {
        let file = RealExports.folder.appendingPathComponent("goodreads-2024-24col.csv").path
        try explore("import", setup: ["add Dune --pages 412"], steps: [Step(arguments: ["import", "goodreads", file])])
    }

    /// A backup put back into an empty store (`ExportRestore`): the entries but each reading's latest
    /// are written to the history in parts before the save, which syncs them before its commit. A
    /// large one makes a new snapshot, which syncs the history anyway; a small one into a store whose
    /// books were all removed is appended to the journal, which then carries no history lines: the
    /// staged ones lie before the save's own.
    @Test(arguments: [(books: 6, entries: 700), (books: 2, entries: 4)])
    func importOfABackupIntoAnEmptyStore(books: Int, entries count: Int) throws {
        var library = Library()
        for index in 0..<books {
            let entries = (0..<count).map { step -> ReadingProgress.Entry in
                let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 1000 + step) * 3600)
                let note: String? = step % 5 == 0 ? "ノート \(step) מסע" : nil
                return ReadingProgress.Entry(
                    id: UUID(), progress: Double(step + 1) / Double(count + 10), page: step + 1, time: time, note: note)
            }
            library.books.append(
                Book(
                    id: String(format: "b%03d", index), title: "本 \(index)", pages: count + 10, added: Fixture.now,
                    readings: [Reading(id: UUID(), started: nil, progress: ReadingProgress(entries: entries))]))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try LibraryExport(library).encoded().write(to: file)
        try explore(
            "import json \(books)",
            setup: books > 2 ? [] : ["add Dune --pages 412", "progress dune 100", "remove dune --yes"],
            steps: [Step(arguments: ["import", "json", file.path])])
    }

    @Test func logFromStandardInput() throws {
        let lines = [
            #"{"book": "dune", "page": 40}"#, #"{"book": "kindred", "percent": 30, "note": "ノート"}"#,
            #"{"book": "dune", "page": 80}"#,
        ]
        try explore(
            "log --stdin", setup: ["add Dune --pages 412", "add Kindred --pages 264"],
            steps: [Step(arguments: ["log", "--stdin"], stdin: lines)])
    }

    /// A batch whose history lines are more than a part (`StagedHistory.part`): they are written a part
    /// at a time as they are made, and the commit after them carries none in the journal.
    @Test func logOfALargeBatchFromStandardInput() throws {
        let lines = (0..<6_000).map { index in
            let book = ["dune", "kindred", "ノルウェイ"][index % 3]
            let time = Date(timeIntervalSince1970: 1_750_000_000 + Double(index) * 600).formatted(.iso8601)
            return #"{"book": "\#(book)", "page": \#(10 + index / 3), "time": "\#(time)", "note": "ノート \#(index)"}"#
        }
        let home = try Self.newHome(after: [
            "add Dune --pages 9000", "add Kindred --pages 9000", "add ノルウェイの森 --pages 9000", "progress dune 5",
        ])
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = home + "/.local/share/bookclub/store.json"
        let history = try #require(FileManager.default.contents(atPath: store + ".history")).count
        let journal = try #require(FileManager.default.contents(atPath: store + ".journal")).count
        try explore(
            "log --stdin, large", home: home, steps: [Step(arguments: ["log", "--stdin"], stdin: lines)],
            after: {
                let grown = try #require(FileManager.default.contents(atPath: store + ".history")).count - history
                #expect(grown > 1 << 20, "more than a part (`StagedHistory.part`): \(grown)")
                // Appended to the journal (or a new one), and carrying none of the batch's lines.
                let after = try #require(FileManager.default.contents(atPath: store + ".journal"))
                #expect(!String(decoding: after.dropFirst(journal), as: UTF8.self).contains(#"{"entry""#))
            })
    }

    @Test func migrationOfAnEarlierSchema() throws {
        let home = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let folder = home + "/.local/share/bookclub"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for suffix in ["", ".history"] {
            try FileManager.default.copyItem(
                atPath: Fixture.folder.appendingPathComponent("store-v2.json" + suffix).path,
                toPath: folder + "/store.json" + suffix)
        }
        try explore(
            "migration", home: home, steps: [Step(arguments: ["progress", "dune", "+5"])],
            after: { #expect(FileManager.default.fileExists(atPath: folder + "/store.json.v2")) })
    }

    /// Problem 3 of the issue: a writer that created the history and was killed before syncing its
    /// folder, then a writer that finds the file there.
    @Test func aWriterKilledAfterCreatingTheHistoryThenAWriter() throws {
        try explore(
            "killed writer, then a writer (history)", setup: ["add Dune --pages 412"],
            steps: [
                Step(arguments: ["progress", "dune", "50"], killed: (1, Self.creates(".history"))),
                Step(arguments: ["progress", "dune", "60"]),
            ])
    }

    /// The same with the undo log: the store is of a bookclub that kept none, the killed writer creates it.
    @Test func aWriterKilledAfterCreatingTheUndoLogThenAWriter() throws {
        let home = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try Self.run(["add", "Dune", "--pages", "412"], home: home)
        try Self.run(["progress", "dune", "10"], home: home)
        // Folded first: a journal that carries an undo record would write the log back.
        try Self.run(["doctor", "--fix"], home: home)
        try FileManager.default.removeItem(atPath: home + "/.local/share/bookclub/store.json.undo")
        try explore(
            "killed writer, then a writer (undo log)", home: home,
            steps: [
                Step(arguments: ["progress", "dune", "50"], killed: (1, Self.creates(".undo"))),
                Step(arguments: ["progress", "dune", "60"]),
            ])
    }

    /// `doctor --fix` of a store whose journal was lost, cut by a power cut anywhere: whatever the disk
    /// holds after it, `doctor --fix` again ends with every entry the history held, never cut.
    @Test func doctorFixOfALostJournal() throws {
        let home = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        for line in [
            ["add", "Dune", "--pages", "412"], ["progress", "dune", "100", "--note", "the spice"],
            ["progress", "dune", "150"], ["add", "ノルウェイの森", "--pages", "296"],
            ["progress", "ノルウェイ", "40", "--note", "井戸 🌊"],
        ] {
            try Self.run(line, home: home)
        }
        let folder = home + "/.local/share/bookclub"
        let store = folder + "/store.json"
        try FileManager.default.removeItem(atPath: store + ".journal")
        let recorder = PowerCut.Recorder(root: home)
        let fix = InProcess.run(["doctor", "--fix"], home: home, fileSystem: recorder.fileSystem)
        try #require(fix.code == 0, "\(fix.stdout)\(fix.stderr)")
        recorder.acknowledge()
        let after = try Self.observe(store).library
        let pages = after.books.first { $0.title == "Dune" }?.readings.first?.progress.entries.map(\.page)
        #expect(pages == [100, 150])
        // The book added after the snapshot comes back from the undo log, with its entry.
        let note = after.books.first { $0.title == "ノルウェイの森" }?.readings.first?.progress.entries.first?.note
        #expect(note == "井戸 🌊")
        let space = PowerCut.Space(recorder)
        var checked = 0
        for (prefix, count) in space.counts().enumerated() {
            for number in Set([0, count / 2, count - 1]) where count > 0 {
                try space.disk(after: space.crash(prefix: prefix, number: number)).write(to: home)
                let again = InProcess.run(["doctor", "--fix"], home: home)
                #expect(again.code == 0, "crash after \(prefix): \(again.stdout)\(again.stderr)")
                let mended = try Self.observe(store).library
                #expect(mended == after, "crash after \(prefix) operations: doctor --fix again lost or changed entries")
                checked += 1
            }
        }
        #expect(checked >= 10, "\(checked) crash states")
    }

    // MARK: The problems the explorer found, one by one

    /// A power cut kept the end of a journal append (its commit line) and lost a piece of a book line
    /// before it, which still starts `{"book":` and ends `}`: the change never committed.
    @Test func aTornJournalAppendIsPassedOverCutAndReported() throws {
        let home = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try Self.run(["add", "Dune", "--pages", "412"], home: home)
        try Self.run(["progress", "dune", "100"], home: home)
        let journal = home + "/.local/share/bookclub/store.json.journal"
        let committed = try Data(contentsOf: URL(fileURLWithPath: journal))
        try Self.run(
            ["progress", "dune", "120", "--note", "a long note about the spice and the worms of Arrakis"], home: home)
        var torn = try Data(contentsOf: URL(fileURLWithPath: journal))
        let line = torn[committed.count...].firstRange(of: Data("\"note\":\"a long".utf8))!
        torn.replaceSubrange(line.lowerBound..<(line.lowerBound + 24), with: Data(count: 24))
        try torn.write(to: URL(fileURLWithPath: journal))

        let show = InProcess.run(["show", "dune", "--json"], home: home)
        #expect(show.code == 0, "\(show.stderr)")
        #expect(
            show.stdout.contains("\"page\" : 100") && !show.stdout.contains("\"page\" : 120"),
            "the torn change never committed")
        let doctor = InProcess.run(["doctor"], home: home)
        #expect(doctor.code == 1)
        #expect(
            doctor.stdout.contains(
                "store.json.journal ends in \(torn.count - committed.count) bytes of a change that never committed"),
            "\(doctor.stdout)")
        let fix = InProcess.run(["doctor", "--fix"], home: home)
        #expect(fix.code == 0, "\(fix.stdout)\(fix.stderr)")
        #expect(
            fix.stdout.contains("cut \(torn.count - committed.count) bytes of a change that never committed"),
            "\(fix.stdout)")
        #expect(InProcess.run(["doctor"], home: home).code == 0)
        try Self.run(["progress", "dune", "130"], home: home)
        #expect(InProcess.run(["history"], home: home).stdout.contains("progress dune 130"))
        #expect(!InProcess.run(["history"], home: home).stdout.contains("progress dune 120"))
    }

    /// A writer killed after recording its change in the undo log, before its commit: `history` does
    /// not list the change, and `undo` reverts the one before it.
    @Test func historyListsOnlyCommittedChanges() throws {
        let home = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try Self.run(["add", "Dune", "--pages", "412"], home: home)
        try Self.run(["progress", "dune", "100"], home: home)
        let recorder = PowerCut.Recorder(root: home)
        let undoLog = try #require(recorder.initialInodes[home + "/.local/share/bookclub/store.json.undo"])
        recorder.kill = { operation in
            if case .write(undoLog, _, _) = operation { true } else { false }
        }
        _ = InProcess.run(["progress", "dune", "150"], home: home, fileSystem: recorder.fileSystem)
        try #require(recorder.isKilled)
        let history = InProcess.run(["history"], home: home).stdout
        #expect(!history.contains("progress dune 150"), "\(history)")
        #expect(history.contains("progress dune 100"))
        #expect(InProcess.run(["undo"], home: home).stderr.hasPrefix("Undid `progress dune 100`"))
        #expect(InProcess.run(["doctor", "--fix"], home: home).code == 0)
        #expect(InProcess.run(["doctor"], home: home).code == 0)
    }

    /// `undo` killed after committing the revert, before rewriting the undo log: the undone change is
    /// no longer listed, and a second `undo` reverts the one before it.
    @Test func historyDropsAChangeOnceUndone() throws {
        let home = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try Self.run(["add", "Dune", "--pages", "412"], home: home)
        try Self.run(["progress", "dune", "100"], home: home)
        try Self.run(["progress", "dune", "150"], home: home)
        let recorder = PowerCut.Recorder(root: home)
        let journal = try #require(recorder.initialInodes[home + "/.local/share/bookclub/store.json.journal"])
        recorder.kill = { operation in  // the journal's commit
            if case .syncFile(journal) = operation { true } else { false }
        }
        _ = InProcess.run(["undo"], home: home, fileSystem: recorder.fileSystem)
        try #require(recorder.isKilled)
        let history = InProcess.run(["history"], home: home).stdout
        #expect(!history.contains("progress dune 150"), "\(history)")
        #expect(InProcess.run(["undo"], home: home).stderr.hasPrefix("Undid `progress dune 100`"))
        let show = InProcess.run(["show", "dune", "--json"], home: home).stdout
        #expect(!show.contains("\"page\" : 100") && !show.contains("\"page\" : 150"), "both changes undone: \(show)")
    }

    // MARK: The explorer

    static func newHome() -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bookclub-powercut-\(UUID().uuidString)"
        ).path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return home
    }

    /// A new home, with each of `setup`'s command lines run in it.
    static func newHome(after setup: [String]) throws -> String {
        let home = newHome()
        for line in setup { try run(line.split(separator: " ").map(String.init), home: home) }
        return home
    }

    /// A new home whose store syncs through `HOME/shared`: Dune, at pages 100 and 110, the second sent.
    static func syncedHome() throws -> String {
        let home = try newHome(after: ["add Dune --pages 412", "progress dune 100"])
        try run(["sync", "init", home + "/shared"], home: home)
        try run(["progress", "dune", "110"], home: home)
        return home
    }

    /// Command lines that leave the undo log at its depth: the next save sets it aside.
    static let toTheUndoLogsDepth =
        ["add Dune --pages 412"] + (1..<LibraryStorage.undoDepth).map { "progress dune \($0)" }

    static func run(_ arguments: [String], home: String) throws {
        let result = InProcess.run(arguments, home: home)
        try #require(result.code == 0, "\(arguments): \(result.stderr)")
    }

    private func explore(_ name: String, setup: [String] = [], steps: [Step]) throws {
        let home = try Self.newHome(after: setup)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try explore(name, home: home, steps: steps)
    }

    private func explore(_ name: String, home: String, steps: [Step], after verify: () throws -> Void = {}) throws {
        let store = home + "/.local/share/bookclub/store.json"
        let before = try Self.observe(store)
        let recorder = PowerCut.Recorder(root: home)
        for step in steps {
            if let killed = step.killed {
                var seen = 0
                recorder.kill = { operation in
                    if killed.where(operation) { seen += 1 }
                    return seen == killed.count
                }
            }
            let result = InProcess.run(step.arguments, home: home, fileSystem: recorder.fileSystem, stdin: step.stdin)
            if step.killed == nil {
                try #require(result.code == 0, "\(step.arguments): \(result.stderr)")
                recorder.acknowledge()
            } else {
                try #require(recorder.isKilled, "\(step.arguments) was killed")
            }
            recorder.restart()
        }
        try verify()
        let after = try Self.observe(store)
        try #require(after != before)
        let acknowledged = recorder.acknowledged.last ?? recorder.operations.count
        let space = PowerCut.Space(recorder)

        // Every crash point's first and last combination, then a seeded sample of the rest.
        let counts = space.counts()
        let total = counts.reduce(0, +)
        var crashes: [PowerCut.Crash] = []
        if let budget = Self.budget, total > budget {
            for (prefix, count) in counts.enumerated() {
                crashes.append(space.crash(prefix: prefix, number: 0))
                if count > 1 { crashes.append(space.crash(prefix: prefix, number: count - 1)) }
            }
            var generator = SeededGenerator(
                state: UInt64(truncatingIfNeeded: name.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }))
            for _ in 0..<(budget * 20) where crashes.count < budget * 5 {
                var number = Int.random(in: 0..<total, using: &generator)
                var prefix = 0
                while number >= counts[prefix] {
                    number -= counts[prefix]
                    prefix += 1
                }
                crashes.append(space.crash(prefix: prefix, number: number))
            }
        } else {
            for (prefix, count) in counts.enumerated() {
                for number in 0..<count { crashes.append(space.crash(prefix: prefix, number: number)) }
            }
        }
        // A disk is checked once before the acknowledgement and once after it, where more is asked of it.
        var seen: [Set<PowerCut.Disk>] = [[], []]
        var checked = 0
        for crash in crashes where Self.budget.map({ checked < $0 }) ?? true {
            let disk = space.disk(after: crash)
            let isAcknowledged = crash.prefix >= acknowledged
            guard seen[isAcknowledged ? 1 : 0].insert(disk).inserted else { continue }
            checked += 1
            try check(
                disk, home: home, store: store, before: before, after: after, acknowledged: isAcknowledged,
                name: "\(name), crash after \(crash.prefix) of \(space.operations.count) operations")
        }
        let sampled = Self.budget.map { total > $0 } ?? false
        print(
            "\(name): \(space.operations.count) operations, \(total) crash states, \(checked) distinct disks checked\(sampled ? " (a seeded sample)" : "")"
        )
        #expect(checked >= min(Self.budget ?? 1, 30), "\(name): too few distinct states to be a test")
    }

    private func check(
        _ disk: PowerCut.Disk, home: String, store: String, before: Observed, after: Observed, acknowledged: Bool,
        name: String
    ) throws {
        // The next writer on the disk as the power cut left it.
        try disk.write(to: home)
        let opened = try? Self.observe(store)
        if let opened {
            let storage = LibraryStorage(path: store, fileSystem: .live)
            do {
                let next = try Store(
                    persistence: storage.persistence(lockTimeout: 5, recording: ("add Probe", Fixture.now)))
                next.update { _ = $0.addBook(Fixture.book("Probe", id: "probe0001")) }
                try next.save()
            }
            let probed = try Self.observe(store)
            #expect(
                probed.library.books.filter { $0.id != "probe0001" } == opened.library.books,
                "\(name): the next writer kept the books")
            #expect(probed.changes == opened.changes + ["add Probe"], "\(name): the next writer's history")
        }
        // Mended by doctor --fix, which then finds nothing more.
        try disk.write(to: home)
        let storage = LibraryStorage(path: store, fileSystem: .live)
        let fixes = Doctor.examine(
            storage: storage, settingsPath: home + "/none.json", sceneFolder: home + "/none", lockTimeout: 5, fix: true,
            now: Date())
        let mended = try #require(try? Self.observe(store), "\(name): doctor --fix did not mend the store: \(fixes)")
        if let opened { #expect(mended == opened, "\(name): doctor --fix changed what the store held") }
        let problems = Doctor.examine(
            storage: storage, settingsPath: home + "/none.json", sceneFolder: home + "/none", lockTimeout: 5,
            fix: false,
            now: Date()
        )
        .filter { $0.kind == .problem }
        #expect(problems.isEmpty, "\(name): after doctor --fix: \(problems)")
        if acknowledged {
            #expect(mended == after, "\(name): the command said it was done, yet its change is not all there")
        } else {
            #expect(mended == before || mended == after, "\(name): neither before nor after the command")
        }
    }
}
