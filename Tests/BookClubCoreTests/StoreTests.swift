import BookClubCore
import Foundation
import Testing

@Suite struct StoreTests {
    func makeStore(saves: ((Library) -> Void)? = nil) throws -> Store<Library> {
        try Store(persistence: Persistence(load: { Fixture.shelf }, save: { _, new in saves?(new) }))
    }

    @Test func observersFireBeforeTheChangeAndStillSeeTheOldValue() throws {
        let store = try makeStore()
        var seen: [(old: Int, new: Int, inStore: Int)] = []
        let token = store.observe(\.books.count) { old, new in seen.append((old, new, store.state.books.count)) }
        store.update { $0.addBook(Fixture.book("Kindred", id: "eeee")) }
        #expect(seen.count == 1)
        #expect(seen.first?.old == 4 && seen.first?.new == 5 && seen.first?.inStore == 4)
        #expect(store.state.books.count == 5)
        withExtendedLifetime(token) {}
    }

    @Test func scopedObservationHearsOnlyItsPart() throws {
        let store = try makeStore()
        var duneChanges = 0
        var anyChanges = 0
        let dune = store.observe(\.[id: "aaaa1111"]) { _, _ in duneChanges += 1 }
        let all = store.observe { anyChanges += 1 }
        store.update { $0.books[2].title = "The Left Hand" }
        #expect(duneChanges == 0)
        #expect(anyChanges == 1)
        store.update { $0.books[0].pages = 412 }
        #expect(duneChanges == 1)
        #expect(anyChanges == 2)
        withExtendedLifetime((dune, all)) {}
    }

    @Test func observationIsPersistentUntilCancelledOrReleased() throws {
        let store = try makeStore()
        var heard = 0
        var token: ObservationToken? = store.observe { heard += 1 }
        store.update { $0.books[0].pages = 1 }
        store.update { $0.books[0].pages = 2 }
        #expect(heard == 2)
        token?.cancel()
        store.update { $0.books[0].pages = 3 }
        #expect(heard == 2)
        var released = 0
        token = store.observe { released += 1 }
        store.update { $0.books[0].pages = 4 }
        token = nil
        store.update { $0.books[0].pages = 5 }
        #expect(released == 1)
    }

    @Test func anUpdateThatThrowsChangesNothingAndTellsNobody() throws {
        let store = try makeStore()
        var heard = 0
        let token = store.observe { heard += 1 }
        #expect(throws: BookClubError.self) {
            try store.update { library in
                library.books[0].title = "half-done"
                _ = try library.logProgress(
                    .page(9_999), note: nil, at: Fixture.now, bookID: "aaaa1111", reference: "dune")
            }
        }
        #expect(store.state == Fixture.shelf)
        #expect(heard == 0)
        #expect(!store.hasUnsavedChanges)
        withExtendedLifetime(token) {}
    }

    @Test func aCommandsChangesCoalesceIntoOneSave() throws {
        var written: [Library] = []
        let store = try makeStore { written.append($0) }
        try store.save()
        #expect(store.saveCount == 0)
        store.update { $0.addBook(Fixture.book("Kindred", id: "eeee")) }
        try store.update {
            _ = try $0.logProgress(.page(10), note: nil, at: Fixture.now, bookID: "eeee", reference: "k")
        }
        store.binding(\.books[4].title).wrappedValue = "Kindred (2nd ed.)"
        try store.save()
        #expect(store.saveCount == 1)
        #expect(written.count == 1)
        #expect(written.first?.books.last?.title == "Kindred (2nd ed.)")
        try store.save()
        #expect(store.saveCount == 1)
    }

    @Test func anUpdateThatChangesNothingIsNotAChange() throws {
        let store = try makeStore()
        var heard = 0
        let token = store.observe { heard += 1 }
        store.update { $0.books[0].title = "Dune" }
        #expect(heard == 0)
        #expect(!store.hasUnsavedChanges)
        withExtendedLifetime(token) {}
    }

}

@Suite struct BindingTests {
    @Test func subBindingsWriteThroughToTheSource() {
        var book = Fixture.book("Dune", id: "x")
        let binding = Binding(get: { book }, set: { book = $0 })
        binding.title.wrappedValue = "Dune Messiah"
        binding.pages.wrappedValue = 256
        #expect(book.title == "Dune Messiah")
        #expect(book.pages == 256)
        #expect(binding.wrappedValue == book)
    }

    @Test func storeBindingsGoThroughUpdate() throws {
        let store = try Store(persistence: .inMemory(Settings()))
        var heard: [Double] = []
        let token = store.observe(\.lockTimeout) { old, _ in heard.append(old) }
        store.binding(\.lockTimeout).wrappedValue = 3
        #expect(store.state.lockTimeout == 3)
        #expect(heard == [10])
        withExtendedLifetime(token) {}
    }

    @Test func constantBindingsIgnoreWrites() {
        let binding = Binding.constant(3)
        binding.wrappedValue = 4
        #expect(binding.wrappedValue == 3)
    }
}
