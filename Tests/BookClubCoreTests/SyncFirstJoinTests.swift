import Foundation
import Testing

@testable import BookClubCore

/// The first machine in a new sync folder sends its library a few books at a time
/// (`Sync.sendWhole`): its log, its sync state and its store are those `Sync.reconcile` leaves, byte
/// for byte, with the library loaded whole.
@Suite struct SyncFirstJoinTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-join-\(UUID().uuidString)")
    static let device = String(repeating: "ab", count: 16)
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// Books in many scripts, read twice, with notes, highlights and tags (two that differ only in
    /// case, which the operations keep as one, the later), an entry taken back, and a club: made once, so that
    /// both stores hold the same ids.
    static let library: Library = {
        var library = ExportRestoreTests.library(books: 30, entries: 120)
        library.books[3].tags = ["SF", "sf", "日本"]
        library.books[5].readings[0].progress.withdraw(library.books[5].readings[0].progress.entries[7].id)
        library.books[6].rating = 4.5
        library.books[6].review = "«كتاب» 🌶"
        library.clubs.append(
            Club(
                id: "c2", name: "読書会",
                meetings: [Meeting(id: "m2", date: now, bookID: library.books[4].id, target: Meeting.Target(page: 60))])
        )
        return library
    }()

    func storage(_ name: String) throws -> LibraryStorage {
        let storage = LibraryStorage(path: home.appendingPathComponent(name + "/store.json").path, fileSystem: .live)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { $0 = Self.library }
        try store.save()
        return storage
    }

    func whole(_ storage: LibraryStorage) throws -> Library {
        try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
    }

    @Test(arguments: [nil, "ノートの機械"]) func aFirstJoinSendsWhatReconcileSends(name: String?) throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("shared").path
        let fileSystem = FileSystem.live

        // Sent a few books at a time, as `sync init` into a new folder does.
        let walked = try storage("walked")
        let first = try StoreSync.join(walked, folderPath: folder, newDevice: { Self.device }, lockTimeout: 1)
        let report = try first.reconcile(capture: true, name: name, now: Self.now, newDevice: { "unused" })
        let log = try #require(try fileSystem.read(first.folder.logPath(of: Self.device)))
        let state = try #require(try SyncState.load(path: walked.syncStatePath, fileSystem: fileSystem))

        // Loaded whole, in another folder, as a machine that joins a folder with logs in it does.
        let loaded = try storage("loaded")
        let other = SyncFolder(path: home.appendingPathComponent("other").path, fileSystem: fileSystem)
        try fileSystem.makeFolder(other.devicesPath)
        let before = try whole(loaded)
        let result = try Sync.reconcile(
            before, folder: other, state: SyncState(device: Self.device, folder: other.path), capture: true,
            now: Self.now, name: name)

        #expect(report.sent == result.report.sent && report.sent > 3_000)
        #expect(try fileSystem.read(other.logPath(of: Self.device)) == log)
        var expected = result.state
        (expected.folder, expected.captured) = (folder, state.captured)
        #expect(state == expected)
        // The store takes what the operations make: the two tags of one case made one.
        let after = result.library.withdrawingWhatIsGone(from: before)
        #expect(after != before)
        #expect(try whole(walked) == after)
        #expect(try whole(walked)[id: Self.library.books[3].id]?.tags == ["sf", "日本"])
        // Nothing more to send, nothing to take.
        let again = try #require(try StoreSync(storage: walked, folderPath: folder, lockTimeout: 1))
        #expect(try again.catchUp(now: Self.now, newDevice: { "unused" }).report.sent == 0)
    }

    /// A first join stopped after the first part of its log (the power went, or a kill): the next sync
    /// sends the rest, and a machine that joins after it takes the library whole.
    @Test func aFirstJoinStoppedAfterAPartOfItsLogIsCompletedByTheNextSync() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("shared").path
        let storage = LibraryStorage(path: home.appendingPathComponent("first/store.json").path, fileSystem: .live)
        do {
            // Released before the sync, which takes the store's lock.
            let store = try Store(persistence: storage.persistence(lockTimeout: 1))
            store.update { $0 = ExportRestoreTests.library(books: 60, entries: 300) }
            try store.save()
        }
        let library = try whole(storage)

        var stopping = FileSystem.live
        var parts = 0
        stopping.appendPlain = { path, data, offset in
            parts += 1
            guard parts == 1 else { throw BookClubError.io(path: path, cause: "stopped") }
            try FileSystem.live.appendPlain(path, data, offset)
        }
        let stopped = LibraryStorage(path: storage.path, fileSystem: stopping)
        let first = try StoreSync.join(stopped, folderPath: folder, newDevice: { Self.device }, lockTimeout: 1)
        do {
            _ = try first.reconcile(capture: true, name: "first", now: Self.now, newDevice: { "unused" })
            Issue.record("not stopped")
        } catch {
            #expect(error as? BookClubError == .io(path: first.folder.logPath(of: Self.device), cause: "stopped"))
        }
        #expect(parts == 2)
        let written = try #require(try FileSystem.live.size(first.folder.logPath(of: Self.device)))
        #expect(written >= Sync.logPart)

        let again = try #require(try StoreSync(storage: storage, folderPath: folder, lockTimeout: 1))
        let report = try again.catchUp(now: Self.now.addingTimeInterval(60), newDevice: { "unused" }).report
        #expect(report.sent > 0 && report.clone == nil)
        #expect(try whole(storage) == library)

        let second = LibraryStorage(path: home.appendingPathComponent("second/store.json").path, fileSystem: .live)
        let join = try StoreSync.join(
            second, folderPath: folder, newDevice: { String(repeating: "cd", count: 16) }, lockTimeout: 1)
        _ = try join.reconcile(
            capture: true, name: "second", now: Self.now.addingTimeInterval(120),
            newDevice: {
                "unused"
            })
        #expect(try whole(second).books == library.books)
        #expect(try whole(second).clubs == library.clubs)
    }
}
