import Foundation
import Testing

@testable import BookClubCore

/// `import json` of an export into an empty store, a few books at a time (`ExportRestore`), leaves
/// the store that reading the file whole leaves; and a file it is not sure of leaves the history as
/// it was, for the whole read to say what is wrong.
@Suite struct ExportRestoreTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-restore-\(UUID().uuidString)")

    /// A library as readers keep one: titles in many scripts, a book read twice, notes with quotes,
    /// braces and brackets in them, highlights, a book with no entry, a club; then `books` more books of
    /// `entries` entries each, so that the staged lines pass a part of the file and of the history.
    static func library(books: Int, entries: Int) -> Library {
        var library = ImportMergeTests.exportedLibrary
        var random = SeededGenerator(state: 38)
        let titles = ["ノルウェイの森", "מסע אל תום הלילה", "📚 Reading, Again!", "Ça ira", "東京 物語"]
        for index in 0..<books {
            var readings: [Reading] = []
            for part in 0..<(index % 3 == 0 ? 2 : 1) {
                let start = Fixture.now.addingTimeInterval(Double(index * 1000 + part * 500) * 3600)
                var logged: [ReadingProgress.Entry] = []
                for step in 0..<(index == 1 ? 1 : entries) {
                    let id = UUID(
                        uuid: (
                            0xAB, UInt8(index % 256), UInt8(part), 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0,
                            UInt8(step / 256), UInt8(step % 256)
                        ))
                    let note: String? =
                        Int.random(in: 0..<7, using: &random) == 0 ? #"a "quote" {not: [json]} \ ま"# : nil
                    logged.append(
                        ReadingProgress.Entry(
                            id: id, progress: Double(step + 1) / Double(entries + 10), page: step + 1,
                            time: start.addingTimeInterval(Double(step) * 3600), note: note))
                }
                let highlights: [Highlight]? =
                    index % 4 == 0
                    ? [Highlight(id: "h\(index)", text: "「\(index)」 \"}]", page: 3, time: start, source: .typed)] : nil
                readings.append(
                    Reading(
                        id: UUID(), started: start, progress: ReadingProgress(entries: logged),
                        ending: part == 0 && index % 3 == 0 ? Ending(outcome: .finished, date: start) : nil,
                        highlights: highlights))
            }
            let book = Book(
                id: String(format: "b%07d", index), title: "\(titles[index % titles.count]) \(index)",
                author: index % 2 == 0 ? "村上春樹" : nil, pages: entries + 10, added: Fixture.now, readings: readings)
            library.books.append(book)
        }
        library.books.append(Book(id: "empty", title: "Unread", added: Fixture.now))
        return library
    }

    func storage(_ name: String) -> LibraryStorage {
        LibraryStorage(path: home.appendingPathComponent(name + "/store.json").path, fileSystem: .live)
    }

    func whole(_ storage: LibraryStorage) throws -> Library {
        try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
    }

    /// A store that held books and a club and no longer does: its history is not empty, and a stopped writer
    /// left bytes past what its commit counts.
    func emptiedStore(_ name: String) throws -> LibraryStorage {
        let storage = storage(name)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { $0 = Self.library(books: 1, entries: 5) }
        try store.save()
        store.update { library in
            for id in library.books.map(\.id) { _ = library.removeBook(id: id) }
            library.clubs = []
        }
        try store.save()
        let handle = try #require(FileHandle(forWritingAtPath: storage.historyPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"book":"torn","#.utf8))
        try handle.close()
        return storage
    }

    /// Restores the file at `path` into `storage` as `import json` does.
    func restore(_ path: String, into storage: LibraryStorage, fileSystem: FileSystem = .live) throws -> (
        ImportResult, StagedHistory
    ) {
        var staged: StagedHistory?
        let store = try Store(
            persistence: storage.persistence(
                lockTimeout: 1, recording: ("import json", Fixture.now), staged: { staged }))
        let restored = try ExportRestore.stage(
            file: path, shownPath: "export.json", fileSystem: fileSystem, storage: storage,
            base: storage.committedHistoryLength())
        staged = restored.staged
        let result = try store.update { try MergeImport(restored.file).apply(to: &$0) }
        try store.save()
        return (result, restored.staged)
    }

    /// The file system, which does `first` before the first write of all (the restore's first part of
    /// history), then says so with `wrote`.
    static func live(first: @escaping () throws -> Void, wrote: @escaping () -> Void) -> FileSystem {
        var fileSystem = FileSystem.live
        let write = fileSystem.write
        var done = false
        fileSystem.write = { file, data, offset in
            if !done {
                done = true
                try first()
                wrote()
            }
            try write(file, data, offset)
        }
        return fileSystem
    }

    func write(_ data: Data, _ name: String) throws -> String {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let path = home.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aRestoreLeavesTheStoreThatReadingTheFileWholeLeaves() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let library = Self.library(books: 40, entries: 200)
        let document = try LibraryExport(library).encoded()
        let path = try write(document, "export.json")

        let restored = try emptiedStore("restored")
        let (result, staged) = try restore(path, into: restored)
        let classic = try emptiedStore("classic")
        let store = try Store(persistence: classic.persistence(lockTimeout: 1, recording: ("import json", Fixture.now)))
        let expected = try store.update {
            try MergeImport(
                ImportFile(
                    document, format: .json, path: "export.json", now: Fixture.now, timeZone: .utc,
                    makeID: { "unused" }, ids: .random)
            ).apply(to: &$0)
        }
        try store.save()

        // Every entry but each reading's latest was staged, past a part of the history.
        #expect(staged.base > 0 && staged.length > 2 * ExportRestore.part)
        #expect(result.added.map(\.book.id) == expected.added.map(\.book.id))
        #expect(result.added.map(\.book.status) == expected.added.map(\.book.status))
        #expect(result.addedClubs == expected.addedClubs)
        #expect(try whole(restored) == whole(classic))
        #expect(try LibraryExport(whole(restored)).encoded() == document)
        #expect(try restored.changes().map(\.command) == ["import json"])
        // A book added after the restore chains its line where the restore's end.
        let after = try Store(persistence: restored.persistence(lockTimeout: 1))
        try after.update { library in
            _ = try library.logProgress(
                .page(205), note: nil, at: Fixture.now.addingTimeInterval(1e7), bookID: "b0000002", reference: "b",
                ids: .random)
        }
        try after.save()
        #expect(try whole(restored)[id: "b0000002"]?.currentReading?.progress.entries.count == 201)
    }

    /// A backup replaced while it is read (a nightly export renamed over it) is read from the file
    /// first opened to its end, never as parts of two.
    @Test func aBackupReplacedWhileItIsReadIsReadAsItWasOpened() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let library = Self.library(books: 50, entries: 200)
        let document = try LibraryExport(library).encoded()
        let path = try write(document, "export.json")
        // More than two parts and a half: the first history part is written after two are read.
        try #require(document.count > 2 * ExportRestore.part + ExportRestore.part / 2)
        var other = library
        other.books.removeFirst(3)
        let newer = try write(LibraryExport(other).encoded(), "newer.json")
        // The backup is replaced once the first part of the history is written, a part into the file.
        var replaced = false
        let fileSystem = Self.live {
            try #require(rename(newer, path) == 0)
        } wrote: {
            replaced = true
        }
        let restored = try emptiedStore("restored")
        let (result, _) = try restore(path, into: restored, fileSystem: fileSystem)
        #expect(replaced)
        #expect(result.added.map(\.book.id) == library.books.map(\.id))
        #expect(try LibraryExport(whole(restored)).encoded() == document)
    }

    /// A backup written over in place while it is read (`bookclub export > backup.json` from cron) is
    /// not read as parts of two: the restore fails, says so, and leaves the history as it was.
    @Test func aBackupChangedInPlaceWhileItIsReadIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let document = try LibraryExport(Self.library(books: 40, entries: 200)).encoded()
        let path = try write(document, "export.json")
        var changed = false
        let fileSystem = Self.live {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data("{".utf8))
            try handle.close()
        } wrote: {
            changed = true
        }
        let restored = try emptiedStore("restored")
        let before = try #require(FileManager.default.contents(atPath: restored.historyPath))
        let base = try restored.committedHistoryLength()
        #expect(
            throws: BookClubError.corruptFile(path: path, detail: "changed while it was read; run the command again")
        ) {
            _ = try ExportRestore.stage(
                file: path, shownPath: "export.json", fileSystem: fileSystem, storage: restored, base: base)
        }
        #expect(changed)
        #expect(FileManager.default.contents(atPath: restored.historyPath) == before.prefix(base))
    }

    @Test func aFileItIsNotSureOfLeavesTheHistoryAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let document = String(
            decoding: try LibraryExport(Self.library(books: 12, entries: 400)).encoded(), as: UTF8.self)
        let first = try #require(
            document.range(of: #"\{\s*"added"[^\n]*\n(?:.*\n)*?    \}"#, options: .regularExpression))
        let firstBook = String(document[first])
        var badEntry = document
        // A page below 0 in the 200th entry of the last reading, of 400: not its latest, so only the
        // restore reads it, past the first part of the file.
        let deep = try #require(document.ranges(of: #/"page" : 200,/#).last)
        #expect(document.utf8.distance(from: document.startIndex, to: deep.lowerBound) > ExportRestore.part)
        badEntry.replaceSubrange(deep, with: #""page" : -5,"#)
        let bad: [(String, String)] = [
            ("not JSON", "hello"),
            ("a list", "[]"),
            ("cut short", String(document.prefix(document.count * 2 / 3))),
            ("another format", document.replacing(#""format" : "bookclub-export""#, with: #""format" : "other""#)),
            ("a later version", document.replacing(#""version" : 1"#, with: #""version" : 2"#)),
            ("no clubs", document.replacing(#""clubs" : ["#, with: #""clubz" : ["#)),
            ("a member not JSON, after the books", document.replacing(#""version" : 1"#, with: #""version" : 1x"#)),
            ("a book twice", document.replacing(#""books" : ["#, with: #""books" : ["# + firstBook + ",")),
            ("an entry out of bounds", badEntry),
            (
                "nested too deep",
                document.replacing(
                    #""tags" : ["#,
                    with: #""tags" : ["# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + ",")
            ),
        ]
        let storage = try emptiedStore("store")
        let history = try Data(contentsOf: URL(fileURLWithPath: storage.historyPath))
        let committed = try storage.committedHistoryLength()
        #expect(committed < history.count)
        for (name, text) in bad {
            let path = try write(Data(text.utf8), "bad.json")
            #expect(throws: ExportRestore.GaveWay.self, "\(name)") {
                try ExportRestore.stage(
                    file: path, shownPath: "bad.json", fileSystem: .live, storage: storage,
                    base: storage.committedHistoryLength())
            }
            // As it was, or cut back to what the store counts (which drops what a stopped writer left).
            let after = try Data(contentsOf: URL(fileURLWithPath: storage.historyPath))
            #expect(after == history || after == history.prefix(committed), "\(name)")
            // Read whole, the file is refused too, which says what is wrong.
            #expect(throws: BookClubError.self, "\(name)") {
                try ImportFile(
                    Data(text.utf8), format: .json, path: "bad.json", now: Fixture.now, timeZone: .utc,
                    makeID: { "unused" }, ids: .random)
            }
        }
        // A member an export does not have gives way too; the whole read says whether it may be there.
        let extra = document.replacing(#""books" : ["#, with: #""x" : 1, "books" : ["#)
        let path = try write(Data(extra.utf8), "extra.json")
        #expect(throws: ExportRestore.GaveWay.self) {
            try ExportRestore.stage(
                file: path, shownPath: "extra.json", fileSystem: .live, storage: storage,
                base: storage.committedHistoryLength())
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: storage.historyPath)).count <= history.count)
        #expect(try whole(storage).books.isEmpty)
    }
}
