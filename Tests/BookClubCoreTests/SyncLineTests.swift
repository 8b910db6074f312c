import Foundation
import Testing

@testable import BookClubCore

/// The log line format: every operation written is read back as it was, whether by the in-place reader
/// or by Foundation's decoder; what no bookclub writes is refused, saying what is wrong.
@Suite struct SyncLineTests {
    static let device = String(repeating: "a", count: 32)
    static let reading = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    static let time = Date(timeIntervalSince1970: 1_764_000_000)

    static let changes: [SyncOperation.Change] = [
        .addBook(
            BookCore(
                Book(
                    id: "ab12", title: "ノルウェイの森", author: "村上春樹", pages: 400, tags: ["japan", "📖"], rating: 4.5,
                    contributors: [Contributor(name: "Jay Rubin", role: "Translator")],
                    details: ["goodreads:Binding": ["Paperback"]], added: time))),
        .setField(book: "ab12", .title("שלום")), .setField(book: "ab12", .author(nil)),
        .setField(book: "ab12", .pages(300)), .setField(book: "ab12", .rating(nil)),
        .setField(book: "ab12", .details(nil)), .setField(book: "ab12", .contributors([Contributor(name: "X")])),
        .addBook(BookCore(Book(id: "cd34", title: "Project Hail Mary", format: .audiobook, length: 970, added: time))),
        .setField(book: "ab12", .format(.ebook)), .setField(book: "ab12", .format(nil)),
        .setField(book: "ab12", .length(700)), .setField(book: "ab12", .length(nil)),
        .tag(book: "ab12", tag: "SciFi", on: true), .tag(book: "ab12", tag: "scifi", on: false),
        .removeBook(book: "ab12", seen: [device: 3]),
        .putReading(
            book: "ab12",
            ReadingCore(
                Reading(id: reading, started: time, ending: Ending(outcome: .finished, date: time, rating: 3.75)))),
        .removeReading(book: "ab12", reading: reading),
        .putReading(book: "ab12", ReadingCore(Reading(id: reading, started: time, format: .audiobook))),
        .putEntry(
            book: "ab12", reading: reading,
            ReadingProgress.Entry(id: reading, progress: 0.25, page: 100, time: time, note: "plain note")),
        .putEntry(
            book: "ab12", reading: reading,
            ReadingProgress.Entry(
                id: reading, progress: 0.5, time: time, note: "a \"quoted\"\nnote\twith escapes 🎉", minutes: 30)),
        .removeEntry(book: "ab12", reading: reading, entry: reading),
        .putHighlight(
            book: "ab12", reading: reading, Highlight(id: "kindle-ab12-1300", text: "passage", page: 3, source: .kindle)
        ),
        .removeHighlight(book: "ab12", reading: reading, highlight: "kindle-ab12-1300"),
        .putClub(ClubCore(Club(id: "c1", name: "Tuesday readers", description: "we read"))),
        .removeClub("c1"),
        .putMeeting(club: "c1", Meeting(id: "m1", date: time, bookID: "ab12", target: .init(page: 100), place: "café")),
        .removeMeeting(club: "c1", meeting: "m1"),
        .nameDevice("laptop"),
    ]

    @Test func everyOperationReadsBackAsWritten() throws {
        for (index, change) in Self.changes.enumerated() {
            let operation = SyncOperation(
                device: Self.device, sequence: index + 1,
                clock: HybridClock(milliseconds: 1_764_000_000_000, counter: index),
                change: change)
            var line = SyncLine.encode(operation)
            #expect(line.last == UInt8(ascii: "\n"))
            line.removeLast()
            #expect(try SyncLine.decode(line) == .operation(operation), "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test(arguments: [
        (#"{"v":1}"#, "not an operation bookclub writes"),
        (#"<<<<<<< HEAD"#, "not an operation bookclub writes"),
        (
            #"{"v":1,"device":"../../etc/passwd/aaaaaaaaaaaaaaaaaa","n":1,"t":1,"c":0,"op":"club.remove","club":"c1"}"#,
            "`device`: not an id bookclub makes"
        ),
        (
            #"{"v":1,"device":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","n":1,"t":1,"c":0,"op":"club.remove","club":"C1/../x"}"#,
            "`club`: not an id bookclub makes"
        ),
        (
            #"{"v":1,"device":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","n":0,"t":1,"c":0,"op":"club.remove","club":"c1"}"#,
            "`n`, `t` and `c`"
        ),
        (
            #"{"v":1,"device":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","n":1,"t":1,"c":0,"op":"book.set","book":"ab","field":"pages","value":-4}"#,
            "`value`: expected a page count"
        ),
        (
            #"{"v":1,"device":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","n":1,"t":1,"c":0,"op":"book.set","book":"ab","field":"title","value":"  "}"#,
            "`value`: expected a title"
        ),
        (
            #"{"book":"ab","c":0,"device":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","entry":{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","page":900000,"progress":0.5,"time":"2026-11-20T10:00:00Z"},"n":1,"op":"entry.put","reading":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","t":1,"v":1}"#,
            "`page`: expected a page"
        ),
        (
            #"{"v":1,"device":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","n":1,"t":1,"c":0,"op":"device.name","name":"\#(String(repeating: "x", count: 65))"}"#,
            "`name`: expected a name"
        ),
    ])
    func whatNoBookclubWritesIsRefused(_ line: String, _ expected: String) {
        #expect {
            try SyncLine.decode(Data(line.utf8))
        } throws: { error in
            (error as? SyncLine.Problem)?.detail.contains(expected) ?? false
        }
    }

    /// An entry's operation, written by hand, is what Foundation's encoder writes, byte for byte.
    @Test func anEntryIsWrittenAsFoundationWritesIt() {
        let notes: [String?] = [nil, "the spice", "ノルウェイの森 📚 \"quoted\" a/b \\ \t\n\u{1}", "שלום", ""]
        for (index, note) in notes.enumerated() {
            let entry = ReadingProgress.Entry(
                id: UUID(), progress: [0, 0.25, 1 / 3, 0.999999, 1][index], page: index == 1 ? nil : index * 37,
                time: Date(timeIntervalSince1970: 1_795_578_592 + Double(index) * 86_400.5), note: note,
                minutes: index == 2 ? 45 : nil)
            let operation = SyncOperation(
                device: String(repeating: "c", count: 32), sequence: index + 1,
                clock: HybridClock(milliseconds: 1_795_578_592_641 + Int64(index), counter: index),
                change: .putEntry(book: index == 3 ? "kindle-x.1:2" : "b0001", reading: UUID(), entry))
            #expect(
                String(decoding: SyncLine.encode(operation), as: UTF8.self)
                    == String(decoding: SyncLine.encodedByFoundation(operation), as: UTF8.self))
        }
    }

    /// The sync state is written by hand and read by Foundation's decoder: every field, in any script,
    /// reads back as it was, and one as `sync init` first writes it too.
    @Test func theSyncStateReadsBackAsWritten() throws {
        var state = SyncState(
            device: String(repeating: "a", count: 32), folder: "/home/ana/Sync/本 \"books\"",
            clock: HybridClock(milliseconds: 1_795_578_592_641, counter: 3))
        let files = FileSystem.inMemory()
        for full in [false, true] {
            if full {
                state.captured = "1662 438 1795578592"
                state.files = [
                    "\(state.device).jsonl": .init(length: 1103, operations: 5, size: 1103, lines: 5),
                    "b.sync-conflict-20261125-101010-ABCDEFG.jsonl": .init(length: 0, operations: 0),
                ]
                state.frontier = .init(
                    SyncOperation(device: state.device, sequence: 5, clock: state.clock, change: .nameDevice("")))
                state.hidden = ["kindle-1", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]
                state.names = [state.device: "ノートパソコン 💻", "b": "שלום\u{7}"]
                state.problems = ["/f/devices/b.jsonl": .init(file: "/f/devices/b.jsonl", line: 2, detail: "not JSON")]
            }
            try state.save(path: "/s.sync", fileSystem: files)
            let file = try #require(try files.read("/s.sync"))
            let written = SyncState.record(in: file)
            #expect(SyncState.scan(written) == state, "read in place")
            #expect(try JSONCoding.decode(SyncState.self, from: written, path: "/s.sync") == state, "by Foundation")
            // A state Foundation's encoder wrote (an earlier bookclub) is read by its decoder.
            let earlier = try JSONCoding.encoder().encode(state)
            try files.writeAtomically("/s.sync", earlier)
            #expect(try SyncState.load(path: "/s.sync", fileSystem: files) == state)
        }
        #expect(SyncState.scan(Data(#"{"device":"x","folder":"/f","device":"y"}"#.utf8)) == nil, "a key twice")
        #expect(SyncState.scan(Data(#"{"folder":"/f"}"#.utf8)) == nil)
    }

    /// A command's state is added to the file as a sealed line, and the last whole line is the state:
    /// after a power cut tore the last (cut, zeroed, garbage), the one before it. A file an earlier
    /// bookclub wrote, or one that does not end in a whole line, or one grown past its bound, is
    /// written whole again, as one line.
    @Test func theSyncStateIsItsLastWholeLine() throws {
        let files = FileSystem.inMemory()
        var state = SyncState(device: String(repeating: "b", count: 32), folder: "/home/ana/同期 📚")
        state.captured = "1 2 3"
        try state.save(path: "/s.sync", fileSystem: files, durably: true)
        var states = [state]
        for page in 1...3 {
            state.captured = "\(page) 2 3"
            state.names = [state.device: "ノート \(page)"]
            try state.append(path: "/s.sync", fileSystem: files)
            states.append(state)
        }
        let whole = try #require(try files.read("/s.sync"))
        #expect(whole.split(separator: 0x0A).count == 4, "one line a state")
        #expect(try SyncState.load(path: "/s.sync", fileSystem: files) == states[3])
        let last = whole.dropLast().lastIndex(of: 0x0A)! + 1
        for (torn, name) in [
            (whole[..<(whole.endIndex - 5)], "cut"), (whole[..<last] + Data(count: whole.endIndex - last), "zeroed"),
            (whole[..<last] + Data("{\"captured\":\"3 2 3\",\"crc\":\"00000000\"}\n".utf8), "a wrong checksum"),
            (whole + Data(count: 700), "zeros after it"),
        ] {
            try files.writeAtomically("/s.sync", Data(torn))
            let read = try SyncState.load(path: "/s.sync", fileSystem: files)
            #expect(read == (name == "zeros after it" ? states[3] : states[2]), "\(name)")
            // The next state does not follow a torn line: the file is written whole, as one line.
            try state.append(path: "/s.sync", fileSystem: files)
            let again = try #require(try files.read("/s.sync"))
            #expect(again.split(separator: 0x0A).count == 1 || name == "a wrong checksum", "\(name)")
            #expect(try SyncState.load(path: "/s.sync", fileSystem: files) == state, "\(name)")
        }
        // Every line torn: the state is not made up.
        try files.writeAtomically("/s.sync", Data(#"{"device":"x","crc":"00000000"}"#.utf8))
        #expect(throws: BookClubError.self) { try SyncState.load(path: "/s.sync", fileSystem: files) }
        // An earlier bookclub's state (Foundation's pretty JSON; its own, a line that ends as a sealed
        // one does but holds no seal; one with `,"crc"` in its text): read, then written whole.
        var earlier = states[0]
        earlier.hidden = [#"a,"crc":"b"#]
        var compact = JSONWriter(compact: true)
        compact.syncState(earlier)
        for (file, was) in [
            (try JSONCoding.encoder().encode(states[0]), states[0]), (compact.take() + Data("\n".utf8), earlier),
        ] {
            try files.writeAtomically("/s.sync", file)
            #expect(try SyncState.load(path: "/s.sync", fileSystem: files) == was)
            try state.append(path: "/s.sync", fileSystem: files)
            #expect(try files.read("/s.sync")?.split(separator: 0x0A).count == 1)
            #expect(try SyncState.load(path: "/s.sync", fileSystem: files) == state)
        }
        // Past its bound, written whole again.
        var appended = 1
        while try files.read("/s.sync")!.split(separator: 0x0A).count == appended {
            try state.append(path: "/s.sync", fileSystem: files)
            appended += 1
        }
        #expect(try files.read("/s.sync")!.split(separator: 0x0A).count == 1)
        #expect(appended * state.line.count > SyncState.appendedBytes - state.line.count, "\(appended) lines")
        #expect(try SyncState.load(path: "/s.sync", fileSystem: files) == state)
    }

    /// A log that grows without end is read up to a bound, then reported at the line past it; what
    /// came before is read.
    @Test func aLogIsReadUpToABoundAndReportedPastIt() throws {
        let device = String(repeating: "d", count: 32)
        var log = Data()
        for n in 1...12_000 {
            log += SyncLine.encode(
                SyncOperation(
                    device: device, sequence: n, clock: HybridClock(milliseconds: Int64(n), counter: 0),
                    change: .nameDevice("machine \(n)")))
        }
        #expect(log.count > 1 << 20)
        let folder = SyncFolder(path: "/f", fileSystem: .inMemory(["/f/devices/\(device).jsonl": log]))
        let whole = try folder.read(try #require(folder.logs().first))
        #expect(whole.operations.count == 12_000 && whole.problem == nil)
        let bounded = try folder.read(try #require(folder.logs().first), limit: 1 << 20)
        let problem = try #require(bounded.problem)
        #expect(problem.line == bounded.operations.count + 1)
        #expect(problem.detail == "past the log's first 1 MiB, more than bookclub reads")
        #expect(bounded.length >= 1 << 20 && bounded.length < (1 << 20) + 200)
    }

    /// A log's name where something other than a plain file stands is no log: reported, at line 0,
    /// until it is taken away; this device's own is refused, read or written.
    @Test func whatIsNotAPlainFileWhereALogBelongsIsReportedUnopened() throws {
        let own = String(repeating: "a", count: 32)
        let other = String(repeating: "b", count: 32)
        let linked = String(repeating: "c", count: 32)
        let piped = String(repeating: "d", count: 32)
        let log = SyncLine.encode(
            SyncOperation(
                device: other, sequence: 1, clock: HybridClock(milliseconds: 1, counter: 0), change: .nameDevice("desk")
            ))
        let devices = "/f/devices/"
        let others: [String: OtherFileKind] = [
            devices + linked + ".jsonl": .symbolicLink, devices + piped + ".jsonl": .namedPipe,
            devices + other + ".sync-conflict-20261125-101010-ABCDEFG.jsonl": .folder,
            devices + "README": .folder,
        ]
        let folder = SyncFolder(
            path: "/f", fileSystem: .inMemory([devices + other + ".jsonl": log], others: others))
        let (logs, unopened) = folder.contents()
        #expect(logs.map(\.name) == [other + ".jsonl"])
        let expected: [SyncReport.Problem] = [
            .init(
                file: devices + other + ".sync-conflict-20261125-101010-ABCDEFG.jsonl", line: 0,
                detail: "a folder, not a log: left unopened"),
            .init(file: devices + linked + ".jsonl", line: 0, detail: "a symbolic link, not a log: left unopened"),
            .init(file: devices + piped + ".jsonl", line: 0, detail: "a named pipe, not a log: left unopened"),
        ]
        #expect(unopened == expected)
        let state = SyncState(device: own, folder: "/f")
        #expect(Sync.hasNews(folder, state: state))
        let synced = try Sync.reconcile(Library(), folder: folder, state: state, capture: true, now: Self.time)
        #expect(synced.report.problems == unopened)
        #expect(synced.state.unopenedFiles == Set(unopened.map(\.file)))
        #expect(synced.state.names[other] == "desk", "the plain log is read")
        #expect(!Sync.hasNews(folder, state: synced.state), "reported once, then said from the state")
        #expect(try Sync.news(folder, state: synced.state)?.report.problems == unopened)
        #expect(try Sync.devices(in: folder).problems == unopened)

        // Taken away: news, and no longer reported.
        let mended = SyncFolder(path: "/f", fileSystem: .inMemory([devices + other + ".jsonl": log]))
        #expect(Sync.hasNews(mended, state: synced.state))
        #expect(try Sync.news(mended, state: synced.state)?.report.problems == [])

        // This device's own log.
        let ownLog = devices + own + ".jsonl"
        let refusal = BookClubError.io(
            path: ownLog,
            cause:
                "is a symbolic link where this machine's log belongs: left unopened, nothing written through it; put the log itself in its place"
        )
        let hijacked = SyncFolder(
            path: "/f", fileSystem: .inMemory([devices + other + ".jsonl": log], others: [ownLog: .symbolicLink]))
        #expect(Sync.hasNews(hijacked, state: synced.state))
        #expect(throws: refusal) { _ = try Sync.news(hijacked, state: synced.state) }
        #expect(throws: refusal) {
            _ = try Sync.reconcile(Library(), folder: hijacked, state: synced.state, capture: true, now: Self.time)
        }
        var library = Library()
        library.addBook(Book(id: "d0000000000000000000000000000001", title: "Dune", added: Self.time))
        #expect(throws: FileSystem.plainFileRefusal(ownLog, .symbolicLink)) {
            _ = try Sync.record(
                LibraryDiff(from: Library(), to: library), folder: hijacked, state: synced.state, now: Self.time)
        }
    }

    @Test func aLineOfALaterVersionOrOperationIsPassedOver() throws {
        #expect(try SyncLine.decode(Data(#"{"v":2,"op":"book.split","whatever":[1,2]}"#.utf8)) == .newer)
        let later =
            #"{"v":1,"device":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","n":1,"t":1,"c":0,"op":"book.merge","into":"x"}"#
        #expect(try SyncLine.decode(Data(later.utf8)) == .newer)
        #expect(throws: SyncLine.Problem.self) {
            try SyncLine.decode(Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 1))
        }
    }

    @Test func theClockOnlyMovesForward() {
        var clock = HybridClock()
        let first = clock.tick(now: Self.time)
        let backwards = clock.tick(now: Self.time.addingTimeInterval(-3_600))
        #expect(backwards > first && backwards.milliseconds == first.milliseconds)
        clock.witness(HybridClock(milliseconds: first.milliseconds + 3_600_000, counter: 5))
        let after = clock.tick(now: Self.time)
        #expect(
            after == HybridClock(milliseconds: first.milliseconds + 3_600_000, counter: 6),
            "a clock an hour fast is followed")
    }
}
