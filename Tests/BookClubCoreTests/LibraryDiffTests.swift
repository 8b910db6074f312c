import Foundation
import Testing

@testable import BookClubCore

/// One change, saved: the journal's transaction, the undo log's record and summary, the history's new
/// lines, the hooks' events and the sync log's operations are all what the one `LibraryDiff` of the
/// save says, book for book and entry for entry.
@Suite struct LibraryDiffTests {
    let path = "/data/store.json"

    /// A library before and after a change of every kind: a book added, entries logged (one of them
    /// backdated), a reading finished, a book edited, a book removed, a club added.
    func change() throws -> (old: Library, new: Library) {
        var old = Fixture.shelf
        _ = try old.logProgress(.page(10), note: nil, at: Fixture.now, bookID: "aaaa1111", reference: "dune")
        var new = old
        new.addBook(Fixture.book("ノルウェイの森", id: "dddd1111"))
        _ = try new.logProgress(
            .page(40), note: "the spice", at: Fixture.now.addingTimeInterval(60), bookID: "aaaa1111", reference: "dune")
        _ = try new.logProgress(
            .page(5), note: nil, at: Fixture.now.addingTimeInterval(-3600), bookID: "aaaa1111", reference: "dune")
        _ = try new.end(.finished, date: Fixture.now, note: "done", bookID: "bbbb1111", reference: "left")
        new.books[new.index(of: "aaaa2222")!].title = "Dune Messiah (1969)"
        new.books.removeAll { $0.id == "cccc1111" }
        new.clubs.append(Club(id: "c1ub0001", name: "كتاب الشهر"))
        return (old, new)
    }

    @Test func everyAccountOfASaveIsTheOneDiff() throws {
        let (old, new) = try change()
        let diff = LibraryDiff(from: old, to: new)
        #expect(diff.books.map(\.id) == ["aaaa1111", "aaaa2222", "bbbb1111", "dddd1111", "cccc1111"])
        #expect(diff.clubs?.after.map(\.id) == ["c1ub0001"])
        #expect(diff.books.flatMap(\.addedEntries).count == 2)

        // Saved: the save tells the diff it wrote, and each file holds what it says.
        let storage = LibraryStorage(path: path, fileSystem: .inMemory())
        do {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1))
            store.update { $0 = old }
            try store.save()
        }
        var told: LibraryDiff?
        let before = try storage.history(of: nil).values.reduce(0) { $0 + $1.count }
        do {
            let store = try Store(
                persistence: storage.persistence(
                    lockTimeout: 1, recording: ("edit", Fixture.now), scope: .everything.withHistory,
                    didSave: { told = $0 }))
            store.update { $0 = new }
            try store.save()
        }
        #expect(told.map { $0.books.map(\.id) } == diff.books.map(\.id))
        #expect(told?.clubs?.after == diff.clubs?.after)

        // The history: the added entries, and no others.
        let history = try storage.history(of: nil)
        let added = Set(diff.books.flatMap(\.addedEntries).map(\.entry.id))
        #expect(history.values.reduce(0) { $0 + $1.count } == before + added.count)
        #expect(added.isSubset(of: Set(history.values.flatMap { $0.map(\.id) })))

        // The undo log's record: its summary and what it puts back.
        let record = try #require(try storage.changes().last)
        #expect(record.summary == diff.summary)
        let revert = try #require(record.before)
        #expect(Set(revert.books.map(\.id) + revert.absent) == Set(diff.books.map(\.id)))
        #expect(revert.absent == ["dddd1111"])
        #expect(revert.clubs == old.clubs)

        // The journal: the store reads back as the library after the change.
        let reread = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
        #expect(reread.books.map(\.id) == new.books.map(\.id))
        #expect(reread.clubs == new.clubs)

        // The hooks' events: the book added, the entries logged, the reading finished.
        #expect(diff.events.filter { if case .progress = $0 { true } else { false } }.count == added.count)
        #expect(diff.events.contains(.added("dddd1111")))
        #expect(diff.events.contains { if case .finished("bbbb1111", _) = $0 { true } else { false } })

        // The sync operations: about the diff's books and no others, every added entry put.
        let operations = SyncOperation.Change.changes(diff, seen: [:])
        #expect(Set(operations.compactMap(\.book)) == Set(diff.books.map(\.id)))
        let put = operations.compactMap { if case .putEntry(_, _, let entry) = $0 { entry.id } else { nil } }
        #expect(added.isSubset(of: Set(put)))
        #expect(operations.contains { if case .removeBook("cccc1111", _) = $0 { true } else { false } })
    }

    @Test func noChangeIsAnEmptyDiff() throws {
        let (old, _) = try change()
        let diff = LibraryDiff(from: old, to: old)
        #expect(diff.isEmpty)
        #expect(diff.events.isEmpty)
        #expect(diff.summary == "no change")
        #expect(SyncOperation.Change.changes(diff, seen: [:]).isEmpty)
    }
}
