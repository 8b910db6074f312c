import Foundation
import Testing

@testable import BookClubCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LibraryStorageTests {
    let path = "/data/store.json"

    func storage(_ files: [String: Data] = [:]) -> LibraryStorage {
        LibraryStorage(path: path, fileSystem: .inMemory(files))
    }

    func log(_ store: Store<Library>, _ value: ProgressValue, note: String? = nil, minutes: Double = 0) throws {
        try store.update {
            _ = try $0.logProgress(
                value, note: note, at: Fixture.now.addingTimeInterval(minutes * 60), bookID: "aaaa1111",
                reference: "dune")
        }
    }

    @Test func aScopeSaysWhichBooksComeWithTheirHistory() throws {
        let storage = storage()
        do {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1))
            store.update { $0 = Fixture.shelf }
            for (minutes, id) in [(0.0, "aaaa1111"), (1, "aaaa2222"), (2, "aaaa1111"), (3, "aaaa2222")] {
                try store.update {
                    _ = try $0.logProgress(
                        .page(10 + Int(minutes)), note: nil, at: Fixture.now.addingTimeInterval(minutes * 60),
                        bookID: id, reference: id)
                }
            }
            try store.save()
        }
        func pages(_ scope: LibraryScope) throws -> [Book.ID: [Int?]] {
            let library = try Store(persistence: storage.persistence(lockTimeout: nil, scope: scope)).state
            return Dictionary(
                uniqueKeysWithValues: library.books.compactMap { book in
                    book.currentReading.map { (book.id, $0.progress.entries.map(\.page)) }
                })
        }
        #expect(try pages(.everything) == ["aaaa1111": [12], "aaaa2222": [13]])
        #expect(try pages(.everything.withHistory) == ["aaaa1111": [10, 12], "aaaa2222": [11, 13]])
        #expect(try pages(.everything.withHistory { _ in ["aaaa2222"] }) == ["aaaa1111": [12], "aaaa2222": [11, 13]])
        #expect(try pages(.book(named: "dune messiah").withHistory) == ["aaaa2222": [11, 13]])
        // The choice is made on the books as the snapshot has them: the latest entry of each reading.
        var seen: [Int?] = []
        _ = try pages(
            .books(["aaaa1111"]).withHistory { library in
                seen = library.books.flatMap { $0.readings.flatMap { $0.progress.entries.map(\.page) } }
                return ["aaaa1111"]
            })
        #expect(seen == [12])
    }

    /// A file written a part at a time (an export) and stopped between two parts, by a failure or a
    /// signal recorded while signals are caught, leaves the file named as it was and no temporary
    /// file beside it; written whole, it is replaced at once.
    @Test func anOutputStoppedBetweenItsPartsLeavesTheFileAsItWas() throws {
        let folder = NSTemporaryDirectory() + "bookclub-output-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.json"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        var parts = 0
        let fileSystem = FileSystem.live(interrupted: { parts >= 2 ? SIGINT : 0 })
        #expect(throws: BookClubError.interrupted(signal: SIGINT, detail: "nothing was saved.")) {
            try fileSystem.writeOutput(path) { write in
                for part in ["a", "b", "c"] {
                    parts += 1
                    try write(Data(part.utf8))
                }
            }
        }
        #expect(parts == 2)
        #expect(throws: BookClubError.self) {
            try fileSystem.writeOutput(path) { write in
                try write(Data("a".utf8))
                throw BookClubError.corruptFile(path: path, detail: "changed while it was read")
            }
        }
        #expect(FileManager.default.contents(atPath: path) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.json"])
        try FileSystem.live.writeOutput(path) { write in
            for part in ["a", "b", "c"] { try write(Data(part.utf8)) }
        }
        #expect(FileManager.default.contents(atPath: path) == Data("abc".utf8))
    }

    /// A file is replaced only when it does not already hold the bytes, which are compared a part of
    /// 1 MiB at a time: a file of several parts that differs only in its last byte, or in its length,
    /// is replaced; one that holds the same bytes is left as it is (the same inode).
    @Test func aFileIsReplacedOnlyWhenItsBytesDiffer() throws {
        let folder = NSTemporaryDirectory() + "bookclub-holds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/store.json"
        func inode() -> UInt64 {
            var status = stat()
            return stat(path, &status) == 0 ? UInt64(status.st_ino) : 0
        }
        let bytes = Data((0..<(2 << 20) + 100).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        #expect(!POSIXFile.holds(path, bytes), "no file holds nothing")
        try FileSystem.live.writeAtomically(path, bytes)
        #expect(POSIXFile.holds(path, bytes))
        let first = inode()
        try FileSystem.live.writeAtomically(path, bytes)
        #expect(inode() == first, "the same bytes are not written again")
        var last = bytes
        last[last.count - 1] ^= 1
        #expect(!POSIXFile.holds(path, last))
        #expect(!POSIXFile.holds(path, bytes.dropLast()), "a file longer than the bytes")
        #expect(!POSIXFile.holds(path, bytes + Data([0])), "a file shorter than the bytes")
        try FileSystem.live.writeAtomically(path, last)
        #expect(inode() != first && FileManager.default.contents(atPath: path) == last)
        try FileSystem.live.writeAtomically(path, Data())
        #expect(POSIXFile.holds(path, Data()) && FileManager.default.contents(atPath: path) == Data())
    }

    /// A save whose lines come to more than a part (`StagedHistory.part`) writes them a part at a time:
    /// a Ctrl-C after the first part stops it, and what it wrote is cut back all the same.
    @Test func aSaveInterruptedAfterAPartOfItsLinesCutsThemBack() throws {
        let folder = NSTemporaryDirectory() + "bookclub-parts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var armed = false
        var signal: Int32 = 0
        var fileSystem = FileSystem.live(interrupted: { signal })
        let write = fileSystem.write
        fileSystem.write = { path, data, offset in
            try write(path, data, offset)
            if armed, path.hasSuffix(".history") { signal = SIGINT }
        }
        let storage = LibraryStorage(path: folder + "/store.json", fileSystem: fileSystem)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { $0 = Fixture.shelf }
        try log(store, .page(10), note: "ノート")
        try store.save()
        let committed = try #require(FileManager.default.contents(atPath: storage.historyPath))
        armed = true
        for minute in 1...6_000 {
            try log(store, .page(10 + minute % 300), note: "ノート \(minute)", minutes: Double(minute))
        }
        #expect(throws: BookClubError.interrupted(signal: SIGINT, detail: "nothing was saved.")) { try store.save() }
        #expect(signal == SIGINT)
        #expect(FileManager.default.contents(atPath: storage.historyPath) == committed)
    }

    @Test func aMissingStoreIsAnEmptyLibrary() throws {
        let store = try Store(persistence: storage().persistence(lockTimeout: nil))
        #expect(store.state == Library())
    }

    @Test func theStateKeepsOnlyTheLatestEntryAndTheHistoryKeepsThemAll() throws {
        let storage = storage()
        do {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1))
            store.update { $0 = Fixture.shelf }
            try log(store, .page(100), note: "the spice")
            try log(store, .page(150), minutes: 1)
            try store.save()
        }
        let state = try #require(try storage.fileSystem.read(path))
        let journal = try #require(try storage.fileSystem.read(storage.journalPath))
        let text = String(decoding: state + journal, as: UTF8.self)
        #expect(text.contains("\"schemaVersion\" : 4"))
        #expect(!text.contains("the spice"))
        let reopened = try Store(persistence: storage.persistence(lockTimeout: nil))
        #expect(reopened.state[id: "aaaa1111"]?.currentReading?.progress.entries.map(\.page) == [150])
        let full = try Store(
            persistence: storage.persistence(lockTimeout: nil, scope: .books(["aaaa1111"]).withHistory))
        #expect(full.state[id: "aaaa1111"]?.currentReading?.progress.entries.map(\.page) == [100, 150])
        #expect(full.state[id: "aaaa1111"]?.currentReading?.progress.entries.first?.note == "the spice")
        #expect(!full.hasUnsavedChanges)
    }

    /// The history is read without Foundation's decoder where it can be: whatever the path, every
    /// entry comes back exactly as it was logged.
    @Test func theHistoryReadsBackEveryEntryExactly() throws {
        let storage = storage()
        let notes: [String?] = [
            nil, "plain", "a \"quote\"", "back\\slash", "two\nlines", "tab\there", "émoji 📚", "\u{202E}bidi", "",
            "{\"book\":1}",
        ]
        let times = [-315_619_200.0, 0, 1_795_000_000, 32_503_680_000, 1_795_000_000.5]
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { $0 = Fixture.shelf }
        var logged: [ReadingProgress.Entry] = []
        for (index, note) in notes.enumerated() {
            for (offset, time) in times.enumerated() {
                let entry = ReadingProgress.Entry(
                    progress: [0, 1, 1.0 / 3, 1e-7, 0.999_999_999][offset],
                    page: index.isMultiple(of: 2) ? nil : index * 7,
                    time: Date(timeIntervalSince1970: time + Double(index)), note: note)
                logged.append(entry)
                store.update {
                    $0.books[0].readings = [
                        Reading(
                            id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, started: nil,
                            progress: ReadingProgress(entries: logged))
                    ]
                }
            }
        }
        try store.save()
        // A line written by hand, with spaces and its keys in another order, is read too.
        let committed = try #require(try storage.fileSystem.read(storage.historyPath)).count
        let handWritten =
            #"{ "reading": "00000000-0000-0000-0000-000000000002", "book": "aaaa2222", "entry": { "time": "2026-11-18T12:00:00Z", "id": "00000000-0000-0000-0000-000000000003", "progress": 0.5 } }"#
            + "\n"
        try storage.fileSystem.append(storage.historyPath, Data(handWritten.utf8), committed)
        let state = String(decoding: try #require(try storage.fileSystem.read(path)), as: UTF8.self)
        try storage.fileSystem.writeAtomically(
            path,
            Data(
                state.replacing(
                    "\"historyLength\" : \(committed)",
                    with: "\"historyLength\" : \(committed + handWritten.utf8.count)"
                ).utf8))
        let history = try storage.history(of: nil)
        #expect(history[UUID(uuidString: "00000000-0000-0000-0000-000000000002")!]?.map(\.progress) == [0.5])
        let read = try #require(history[UUID(uuidString: "00000000-0000-0000-0000-000000000001")!])
        #expect(read.count == logged.count)
        #expect(Set(read.map(\.id)) == Set(logged.map(\.id)))
        for entry in read {
            let original = try #require(logged.first { $0.id == entry.id })
            #expect(entry.note == original.note)
            #expect(entry.page == original.page)
            #expect(entry.progress == original.progress)
            #expect(entry.time == original.time.wholeSeconds)
        }
        #expect(
            try storage.history(of: ["aaaa2222"]).keys.map(\.uuidString) == ["00000000-0000-0000-0000-000000000002"])
    }

    @Test func eachSaveAppendsOnlyTheNewEntries() throws {
        let storage = storage()
        for page in [10, 20, 30] {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1))
            if store.state.books.isEmpty { store.update { $0 = Fixture.shelf } }
            try log(store, .page(page), minutes: Double(page))
            try store.save()
        }
        let history = try #require(try storage.fileSystem.read(storage.historyPath))
        #expect(history.split(separator: UInt8(ascii: "\n")).count == 3)
    }

    @Test func whatAnInterruptedSaveLeftInTheHistoryIsIgnoredAndCutAway() throws {
        let storage = storage()
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { $0 = Fixture.shelf }
        try log(store, .page(10))
        try store.save()
        // A save that appended to the history but died before replacing the state file:
        let committed = try #require(try storage.fileSystem.read(storage.historyPath)).count
        try storage.fileSystem.append(storage.historyPath, Data("{\"book\":\"aaaa1111\",\"half".utf8), committed)
        let reopened = try Store(persistence: storage.persistence(lockTimeout: 1, scope: .everything.withHistory))
        #expect(reopened.state[id: "aaaa1111"]?.currentReading?.progress.entries.count == 1)
        try log(reopened, .page(20), minutes: 1)
        try reopened.save()
        let again = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
        #expect(again.state[id: "aaaa1111"]?.currentReading?.progress.entries.map(\.page) == [10, 20])
    }

    @Test(arguments: [
        ("{", "not valid JSON"),
        (#"{"schemaVersion": 1, "historyLength": 0, "books": [{"id": 3}]}"#, "at `books[0].id`: expected a String"),
        (#"{"historyLength": 0, "books": []}"#, "missing key `schemaVersion`"),
        (#"{"schemaVersion": 1, "historyLength": -4, "books": []}"#, "at `historyLength`"),
    ])
    func aCorruptStoreIsRefusedWithWhereItFailed(_ contents: String, _ detail: String) throws {
        let storage = storage([path: Data(contents.utf8)])
        do {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil))
            Issue.record("a corrupt store was accepted")
        } catch let error as BookClubError {
            guard case .corruptFile(let where_, let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(where_ == path)
            #expect(message.contains(detail))
            #expect(error.kind == .dataFile)
        }
        #expect(try storage.fileSystem.read(path) == Data(contents.utf8))
    }

    /// What the history reader takes on its shortcut (lines as bookclub writes them) and what it hands
    /// to the decoder (any other shape) read the same.
    @Test func historyLinesOfEveryShapeReadAlike() throws {
        struct Line: Encodable {
            var book: String
            var entry: ReadingProgress.Entry
            var reading: UUID
        }
        let reading = UUID()
        let entries = [
            ReadingProgress.Entry(progress: 0.29126213592233008, page: 120, time: Fixture.now, note: "the spice"),
            ReadingProgress.Entry(progress: 1e-05, time: Fixture.now.addingTimeInterval(60)),
            ReadingProgress.Entry(
                progress: 1, page: 412, time: Fixture.now.addingTimeInterval(120),
                note: "é — \"quoted\"\nsecond line\t/"),
            ReadingProgress.Entry(progress: 0.5, time: Date(timeIntervalSince1970: -3_155_760_000)),  // 1870
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var lines = try entries.map {
            String(decoding: try encoder.encode(Line(book: "aaaa1111", entry: $0, reading: reading)), as: UTF8.self)
        }
        let other = ReadingProgress.Entry(progress: 0.75, page: 300, time: Fixture.now.addingTimeInterval(180))
        lines.append(
            #"{ "reading": "\#(reading.uuidString.lowercased())", "book": "bbbb2222", "entry": {"time": "\#(ISO8601DateFormatter().string(from: other.time))", "#
                + #""progress": 0.75, "page": 300, "id": "\#(other.id.uuidString)"} }"#)
        let history = Data((lines.joined(separator: "\n") + "\n").utf8)
        let state = Data(#"{"schemaVersion": 2, "historyLength": \#(history.count), "books": []}"#.utf8)
        let storage = storage([path: state, path + ".history": history])
        #expect(try storage.history(of: nil) == [reading: entries.sorted { $0.time < $1.time } + [other]])
        #expect(try storage.history(of: ["aaaa1111"]) == [reading: entries.sorted { $0.time < $1.time }])
        #expect(try storage.history(of: []) == [:])
    }

    @Test func aNewerSchemaIsRefused() throws {
        let storage = storage([path: Data(#"{"schemaVersion": 5, "whatever": true}"#.utf8)])
        #expect(throws: BookClubError.newerSchema(path: path, found: 5, supported: 4)) {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil))
        }
    }
}

@Suite struct SettingsTests {
    let path = "/config/settings.json"

    func load(_ contents: String) throws -> Settings {
        try Store(persistence: Settings.persistence(path: path, fileSystem: .inMemory([path: Data(contents.utf8)])))
            .state
    }

    @Test func defaultsAndTypedKeys() throws {
        let settings = Settings()
        #expect(settings.updateArtwork && settings.syncProgress)
        #expect(settings.color == .auto)
        #expect(settings.lockTimeout == 10)
        #expect(settings.yearlyGoal == 0)
        #expect(
            Settings.keys.map(\.name) == [
                "updateArtwork", "syncProgress", "syncFolder", "color", "lockTimeout", "hookTimeout", "yearlyGoal",
                "contact",
                "networkTimeout", "coverSizeLimit", "answerSizeLimit", "clubProgress", "clubKey",
            ])
        #expect(Set(Settings.keys.map(\.name)).count == Settings.keys.count)
        #expect(Settings.keys.allSatisfy { !$0.summary.isEmpty })
    }

    @Test func settingFromTextRefusesIllTypedValues() throws {
        var settings = Settings()
        try Settings.key(named: "color").set(&settings, "NEVER")
        #expect(settings.color == .never)
        try Settings.key(named: "locktimeout").set(&settings, "2.5")
        #expect(settings.lockTimeout == 2.5)
        try Settings.key(named: "yearlyGoal").set(&settings, " 24 ")
        #expect(settings.yearlyGoal == 24)
        for (key, value) in [
            ("syncProgress", "yes"), ("lockTimeout", "nan"), ("lockTimeout", "-1"), ("color", "blue"),
            ("yearlyGoal", "-1"), ("yearlyGoal", "2.5"), ("yearlyGoal", "lots"), ("yearlyGoal", "100001"),
        ] {
            #expect(throws: BookClubError.self) { try Settings.key(named: key).set(&settings, value) }
        }
        #expect(throws: BookClubError.unknownSetting("colour", suggestion: "color")) {
            try Settings.key(named: "colour")
        }
    }

    @Test func onlyChangedValuesAreWrittenAndMissingOnesTakeTheirDefaults() throws {
        let files = FileSystem.inMemory()
        let store = try Store(persistence: Settings.persistence(path: path, fileSystem: files))
        store.update { $0.syncProgress = false }
        try store.save()
        let text = String(decoding: try #require(try files.read(path)), as: UTF8.self)
        #expect(text.contains("\"syncProgress\" : false"))
        #expect(!text.contains("lockTimeout"))
        #expect(try load(text) == store.state)
    }

    @Test(arguments: [
        (#"{"syncProgress": "yes"}"#, "at `syncProgress`: expected a Bool"),
        (#"{"lockTimeout": -3}"#, "at `lockTimeout`"),
        (#"{"colour": "never"}"#, "at `colour`: unknown setting"),
        ("[]", "expected an object"),
    ])
    func badFilesAreRefusedWithThePath(_ contents: String, _ detail: String) {
        do {
            _ = try load(contents)
            Issue.record("accepted \(contents)")
        } catch {
            guard case .corruptFile(let where_, let message) = error as? BookClubError else {
                Issue.record("\(error)")
                return
            }
            #expect(where_ == path)
            #expect(message.contains(detail), "\(message)")
        }
    }
}

@Suite struct LiveFileSystemTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-tests-\(UUID().uuidString)")
        .path

    @Test func atomicWritesCreateOwnerOnlyFilesAndLeaveNoTemporaryFile() throws {
        let path = folder + "/deep/store.json"
        try FileSystem.live.writeAtomically(path, Data("one".utf8))
        try FileSystem.live.writeAtomically(path, Data("two".utf8))
        #expect(try FileSystem.live.read(path) == Data("two".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/deep") == ["store.json"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func linesAreReadInChunksThatEndAtLineBreaks() throws {
        let path = folder + "/history"
        let lines = (0..<60_000).map { "{\"line\": \($0), \"padding\": \"\(String(repeating: "x", count: 40))\"}\n" }
            .joined()
        let data = Data(lines.utf8)
        try FileSystem.live.writeAtomically(path, data)
        var chunks: [Data] = []
        try FileSystem.live.readLines(path, 0..<data.count - 5) { chunks.append($0) }
        #expect(chunks.count > 2, "a file of \(data.count) bytes comes in several chunks")
        #expect(chunks.dropLast().allSatisfy { $0.last == 0x0A })
        #expect(chunks.reduce(Data(), +) == data.prefix(data.count - 5))
        var none = 0
        try FileSystem.live.readLines(folder + "/missing", 0..<100) { _ in none += 1 }
        #expect(none == 0)
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func aHeldLockTimesOutAsBusy() throws {
        let path = folder + "/store.json.lock"
        let unlock = try FileSystem.live.lock(path, 1)
        let started = Date()
        #expect(throws: BookClubError.storeBusy(lockPath: path, seconds: 0.2)) {
            _ = try FileSystem.live.lock(path, 0.2)
        }
        #expect(Date().timeIntervalSince(started) < 2)
        unlock()
        let again = try FileSystem.live.lock(path, 0.2)
        again()
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func ioErrorsNameThePathAndTheCause() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/file", contents: Data())
        do {
            try FileSystem.live.writeAtomically(folder + "/file/store.json", Data("x".utf8))
            Issue.record("wrote below a file")
        } catch let error as BookClubError {
            #expect(error.kind == .io)
            #expect(error.localizedDescription.contains(folder + "/file"))
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func thePlainFileCallsReadAndWriteAPlainFile() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let live = FileSystem.live
        let path = folder + "/devices/log.jsonl"
        #expect(try live.plainSize(path) == nil)
        #expect(try live.readPlainRange(path, 0, 10) == nil)
        #expect(throws: POSIXFile.tooShort(path, 0, 3), "a file that should hold bytes is not made anew") {
            try live.appendPlain(path, Data("x".utf8), 3)
        }
        try live.appendPlain(path, Data("one\n".utf8), 0)
        try live.appendPlain(path, Data("two\n".utf8), 4)
        try live.appendPlain(path, Data("three\n".utf8), 8)
        #expect(try live.plainSize(path) == 14)
        #expect(try live.readPlainRange(path, 4, 100) == Data("two\nthree\n".utf8))
        #expect(try live.readPlainRange(path, 0, 3) == Data("one".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    /// A unix socket bound at `path`, left open; its descriptor.
    static func bindSocket(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(fd >= 0 && bound == 0, "a socket at \(path)")
        return fd
    }

    /// Where a plain file belongs, a link (to a file, or to nowhere), a folder, a named pipe, a socket
    /// or a device is refused, never opened: nothing is read or written through a link, nothing
    /// waits on a pipe. The calls that follow links still do (a store may be a link in a reader's
    /// dotfiles).
    @Test func thePlainFileCallsRefuseWhatIsNotAPlainFile() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let live = FileSystem.live
        let secret = folder + "/secret"
        let held = Data("the reader's secret\n".utf8)
        try held.write(to: URL(fileURLWithPath: secret))
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder + "/link", withDestinationPath: secret)
        try manager.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: folder + "/made-through")
        try manager.createDirectory(atPath: folder + "/folder", withIntermediateDirectories: false)
        #expect(mkfifo(folder + "/pipe", 0o600) == 0)
        let socket = try Self.bindSocket(folder + "/socket")
        defer { close(socket) }
        let others: [(String, OtherFileKind)] = [
            (folder + "/link", .symbolicLink), (folder + "/dangling", .symbolicLink), (folder + "/folder", .folder),
            (folder + "/pipe", .namedPipe), (folder + "/socket", .socket), ("/dev/null", .device),
        ]
        for (path, kind) in others {
            let refusal = BookClubError.io(path: path, cause: "is \(kind.rawValue), not a plain file: left unopened")
            #expect(FileSystem.plainFileRefusal(path, kind) == refusal)
            #expect(throws: refusal) { _ = try live.plainSize(path) }
            #expect(throws: refusal) { _ = try live.readPlainRange(path, 0, 100) }
            for offset in [0, 5] {
                #expect(throws: refusal) { try live.appendPlain(path, Data("written\n".utf8), offset) }
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: secret)) == held)
        #expect(!manager.fileExists(atPath: folder + "/made-through"), "no file is made where a link points")
        #expect(try live.size(folder + "/link") == held.count)
        #expect(try live.readRange(folder + "/link", 0, 100) == held)
    }

    /// A link, a pipe or a folder put in place after the first look (`lstat`) and before the `open` is
    /// refused as well: by the open (`O_NOFOLLOW`, and a pipe with no reader is not opened to write) or
    /// by the look at what was opened (`fstat`).
    @Test(arguments: [OtherFileKind.symbolicLink, .namedPipe, .folder])
    func whatIsPutInPlaceBeforeTheOpenIsRefusedAsWell(_ kind: OtherFileKind) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let secret = folder + "/secret"
        let held = Data("the reader's secret\n".utf8)
        try held.write(to: URL(fileURLWithPath: secret))
        let path = folder + "/log.jsonl"
        var sys = Syscalls.real
        sys.open = { opened, flags, mode in
            if opened == path {
                try? FileManager.default.removeItem(atPath: path)
                switch kind {
                case .symbolicLink:
                    try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)
                case .namedPipe: mkfifo(path, 0o600)
                default: try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                }
            }
            return Syscalls.real.open(opened, flags, mode)
        }
        let refusal = FileSystem.plainFileRefusal(path, kind)
        for flags in [O_RDONLY, O_WRONLY] {
            try Data("log\n".utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: refusal) {
                if let fd = try POSIXFile.openPlain(path, flags, sys: sys) { close(fd) }
            }
            try FileManager.default.removeItem(atPath: path)
        }
        try Data("log\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: refusal) { try FileSystem.live(sys).appendPlain(path, Data("written\n".utf8), 4) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: secret)) == held)
    }

    /// The plain-file append goes through the calls a test makes fail, as `append` does.
    @Test func aFailedCallOfAPlainAppendIsReported() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/log.jsonl"
        #expect(throws: BookClubError.io(path: path, cause: "cannot open: Permission denied")) {
            try FileSystem.live(injecting: .open, occurrence: 1, code: EACCES).appendPlain(path, Data("x\n".utf8), 0)
        }
        #expect(throws: BookClubError.io(path: path, cause: "cannot write: No space left on device")) {
            try FileSystem.live(injecting: .write, occurrence: 1, code: ENOSPC).appendPlain(path, Data("x\n".utf8), 0)
        }
        #expect(throws: BookClubError.io(path: path, cause: "cannot sync: Input/output error")) {
            try FileSystem.live(injecting: .fsync, occurrence: 1, code: EIO).appendPlain(path, Data("x\n".utf8), 0)
        }
    }

    /// In memory, what `others` names is listed and refused by the plain-file calls.
    @Test func inMemoryOthersAreListedAndRefused() throws {
        let files = FileSystem.inMemory(["/f/log": Data("log\n".utf8)], others: ["/f/link": .symbolicLink])
        #expect(files.list("/f").sorted() == ["link", "log"])
        #expect(files.kind("/f/link") == .symbolicLink && files.kind("/f/log") == nil)
        let refusal = FileSystem.plainFileRefusal("/f/link", .symbolicLink)
        #expect(throws: refusal) { _ = try files.plainSize("/f/link") }
        #expect(throws: refusal) { _ = try files.readPlainRange("/f/link", 0, 10) }
        #expect(throws: refusal) { try files.appendPlain("/f/link", Data("x".utf8), 0) }
        try files.appendPlain("/f/log", Data("more\n".utf8), 4)
        #expect(try files.plainSize("/f/log") == 9)
        #expect(try files.readPlainRange("/f/log", 4, 10) == Data("more\n".utf8))
    }
}

@Suite struct UndoTests {
    let path = "/data/store.json"

    func commit(_ storage: LibraryStorage, _ command: String, _ change: (inout Library) throws -> Void) throws {
        let store = try Store(persistence: storage.persistence(lockTimeout: 1, recording: (command, Fixture.now)))
        try store.update(change)
        try store.save()
    }

    func log(_ page: Int) -> (inout Library) throws -> Void {
        {
            _ = try $0.logProgress(
                .page(page), note: nil, at: Fixture.now.addingTimeInterval(Double(page)), bookID: "aaaa1111",
                reference: "dune")
        }
    }

    @Test func undoRevertsTheLatestChangesOneByOne() throws {
        let storage = LibraryStorage(path: path, fileSystem: .inMemory())
        try commit(storage, "add Dune") { $0.addBook(Fixture.book("Dune", id: "aaaa1111")) }
        for page in 1...12 { try commit(storage, "progress dune \(page)", log(page)) }
        #expect(try storage.changes().map(\.summary).last == "'Dune': p. 12")
        for page in stride(from: 12, to: 2, by: -1) {
            #expect(try storage.undo(lockTimeout: 1)?.command == "progress dune \(page)")
        }
        let store = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
        #expect(store.state[id: "aaaa1111"]?.currentReading?.progress.entries.map(\.page) == [1, 2])
        try commit(storage, "progress dune 40", log(40))
        let again = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory))
        #expect(
            again.state[id: "aaaa1111"]?.currentReading?.progress.entries.map(\.page) == [1, 2, 40],
            "undone entries are gone for good")
    }

    @Test func aChangeThatNeverCommittedIsPassedOver() throws {
        let files = FileSystem.inMemory()
        let storage = LibraryStorage(path: path, fileSystem: files)
        try commit(storage, "add Dune") { $0.addBook(Fixture.book("Dune", id: "aaaa1111")) }
        try commit(storage, "progress dune 10", log(10))
        var failing = files
        failing.append = { path, data, offset in
            if path == storage.journalPath { throw BookClubError.io(path: self.path, cause: "disk full") }
            try files.append(path, data, offset)
        }
        #expect(throws: BookClubError.io(path: path, cause: "disk full")) {
            try commit(LibraryStorage(path: path, fileSystem: failing), "progress dune 20", log(20))
        }
        #expect(try storage.changes().count == 2)
        #expect(try storage.leftovers().isEmpty, "the failed command's history and undo record were taken back")
        #expect(try storage.undo(lockTimeout: 1)?.command == "progress dune 10")
        #expect(try storage.undo(lockTimeout: 1)?.command == "add Dune")
        #expect(try storage.undo(lockTimeout: 1) == nil)
        #expect(try Store(persistence: storage.persistence(lockTimeout: nil)).state == Library())
    }

    @Test func aStoreThatMatchesNoRecordLeavesTheLogAlone() throws {
        let files = FileSystem.inMemory()
        let storage = LibraryStorage(path: path, fileSystem: files)
        try commit(storage, "add Dune") { $0.addBook(Fixture.book("Dune", id: "aaaa1111")) }
        try files.writeAtomically(path, Data(#"{"schemaVersion": 2, "historyLength": 0, "books": []}"#.utf8))
        #expect(try storage.undo(lockTimeout: 1) == nil)
        #expect(
            try Store(persistence: storage.persistence(lockTimeout: nil)).state == Library(),
            "a journal of another snapshot is passed over")
        #expect(try storage.changes().isEmpty, "no record leads to the store's state")
        #expect(try storage.leftovers() == Leftovers(undoRecords: 1), "the record is kept")
    }

    /// bookclub 0.1 kept the whole state file before each change: such records are listed, not undone.
    @Test func changesRecordedByAnEarlierVersionAreListedNotUndone() throws {
        let files = FileSystem.inMemory()
        let storage = LibraryStorage(path: path, fileSystem: files)
        let old =
            #"{"after":"9f3c2a","before":"{\n  \"books\" : [],\n  \"historyLength\" : 0,\n  \"schemaVersion\" : 2\n}\n","command":"add Dune","summary":"added 'Dune'","time":"2026-11-18T11:06:40Z"}"#
        try files.writeAtomically(storage.undoPath, Data((old + "\n").utf8))
        try commit(storage, "add Kindred") { $0.addBook(Fixture.book("Kindred", id: "bbbb2222")) }
        #expect(try storage.changes().map(\.command) == ["add Dune", "add Kindred"])
        #expect(try storage.undo(lockTimeout: 1)?.command == "add Kindred")
        #expect(try storage.undo(lockTimeout: 1) == nil)
        #expect(try storage.changes().map(\.command) == ["add Dune"])
    }

    @Test func theLogStaysBounded() throws {
        let storage = LibraryStorage(path: path, fileSystem: .inMemory())
        try commit(storage, "add Dune") { $0.addBook(Fixture.book("Dune", id: "aaaa1111")) }
        for page in 1...200 { try commit(storage, "progress dune \(page)", log(page)) }
        let count = try storage.changes().count
        #expect(count >= LibraryStorage.undoDepth)
        #expect(count < 200)
    }
}

@Suite struct DeepNestingTests {
    /// Foundation's JSON decoder traps on a document nested exactly past its limit (513 levels, then
    /// the end); bookclub refuses such a file before the decoder sees it.
    @Test(arguments: [513, 600, 5_000])
    func deeplyNestedFilesAreRefusedNotFatal(_ depth: Int) throws {
        let path = "/data/store.json"
        let storage = LibraryStorage(
            path: path, fileSystem: .inMemory([path: Data(String(repeating: "[", count: depth).utf8)]))
        #expect(throws: BookClubError.corruptFile(path: path, detail: "nested more than 64 levels deep")) {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil))
        }
    }
}
