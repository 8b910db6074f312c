import Foundation
import Testing

@testable import BookClubCore

/// Each operation reads what it says it reads: applied to a library loaded from a store on disk with
/// exactly its scope, it does what it does to the library loaded whole. A rule that reads a history
/// that was not loaded fails instead of computing from the latest entry.
@Suite struct OperationTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-ops-\(UUID().uuidString)")
    static let hour = 3600.0
    static let day = 86_400.0
    static let club = Club(
        id: "c1ub0000", name: "Sci-Fi Club",
        meetings: [
            Meeting(id: "m0", date: Fixture.now.addingTimeInterval(-12 * day), bookID: "aaaa1111"),
            Meeting(
                id: "m1", date: Fixture.now.addingTimeInterval(3 * day), bookID: "aaaa1111",
                target: Meeting.Target(page: 300)),
            Meeting(
                id: "m2", date: Fixture.now.addingTimeInterval(10 * day), bookID: "bbbb1111",
                target: Meeting.Target(page: 200)),
        ])

    /// Ids in the order they are asked for, the same on every run.
    static func ids() -> IDSource { ids(startingWith: 0xEE) }

    /// The same, each beginning with `first`: a batch's, which must not be the store's own.
    static func ids(startingWith first: UInt8) -> IDSource {
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var next: UInt8 = 0
            let first: UInt8
            init(first: UInt8) { self.first = first }
            func uuid() -> UUID {
                lock.withLock {
                    next &+= 1
                    return UUID(uuid: (first, next, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, next))
                }
            }
        }
        let counter = Counter(first: first)
        return IDSource { counter.uuid() }
    }

    /// A store with several books, each with a history of several entries with notes, a finished
    /// reading read again, and a club whose meetings name two of them.
    func makeStore(_ name: String) throws -> LibraryStorage {
        let storage = LibraryStorage(path: home.appendingPathComponent(name + "/store.json").path, fileSystem: .live)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        let ids = Self.ids()
        try store.update { library in
            library = Fixture.shelf
            library.clubs = [Self.club]
            for (index, book) in library.books.enumerated() {
                for step in 0..<4 {
                    let time = Fixture.now.addingTimeInterval(Double(step - 8 + index) * 2 * Self.day)
                    _ = try library.logProgress(
                        .page(20 + 40 * step + index), note: step % 2 == 0 ? "note \(index).\(step)" : nil, at: time,
                        bookID: book.id, reference: book.title, ids: ids)
                }
            }
            _ = try library.end(
                .finished, date: Fixture.now.addingTimeInterval(-Self.hour), note: "done", bookID: "cccc1111",
                reference: "dispossessed", ids: ids)
            try library.reread(
                at: Fixture.now.addingTimeInterval(-Self.hour / 2), bookID: "cccc1111", reference: "dispossessed",
                ids: ids)
            _ = try library.logProgress(
                .page(30), note: "again", at: Fixture.now.addingTimeInterval(-Self.hour / 4), bookID: "cccc1111",
                reference: "dispossessed", ids: ids)
        }
        try store.save()
        return storage
    }

    func whole(_ storage: LibraryStorage) throws -> Library {
        try Store(persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)).state
    }

    func choice(_ reference: String?, selection: Book.ID? = nil, club: Club.ID? = nil) -> BookChoice {
        BookChoice(reference: reference, scene: SceneState(selection: selection, club: club), now: Fixture.now)
    }

    /// Applies `make()` to a store loaded with the operation's scope, saves it and reads it back
    /// whole; and to another, loaded whole. The results and the libraries after must be the same.
    /// - Returns: the books the operation asked to read in full.
    @discardableResult
    func expectSameAsWhole<Operation: LibraryOperation>(
        _ name: String, _ make: () -> Operation, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Set<Book.ID> where Operation.Result: Equatable {
        try expectSameAsWhole(name, make, comparing: { $0 }, sourceLocation: sourceLocation)
    }

    /// The same, comparing what `comparing` takes of the results: a result that holds a book as loaded
    /// holds it without the histories the operation did not read.
    func expectSameAsWhole<Operation: LibraryOperation, Compared: Equatable>(
        _ name: String, _ make: () -> Operation, comparing: (Operation.Result) -> Compared,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Set<Book.ID> {
        defer { try? FileManager.default.removeItem(at: home) }
        let scoped = try makeStore(name + "-scoped")
        let (store, plan) = try scoped.open(for: make(), lockTimeout: 1)
        let result = try store.update { try plan.apply(&$0) }
        try store.save()

        var library = try whole(try makeStore(name + "-whole"))
        let expected = try make().apply(to: &library)
        #expect(comparing(result) == comparing(expected), "\(name): the result", sourceLocation: sourceLocation)
        #expect(try whole(scoped) == library, "\(name): the library after", sourceLocation: sourceLocation)
        return plan.history
    }

    /// What a logged entry did, without the book's entries before it.
    static func logged(_ logged: LogProgress.Logged) -> [String] {
        [
            "\(logged.outcome)", logged.reference, logged.book.id, "\(logged.book.status)",
            "\(logged.book.currentProgress)", "\(logged.book.currentReading?.progress.latest as Any)",
        ]
    }

    /// What an import did, by book.
    static func imported(_ result: ImportResult) -> [String] {
        result.added.map(\.book.id)
            + result.merged.map { "\($0.match.id) \($0.reason) \($0.newReadings) \($0.filled) \($0.keptAside)" }
    }

    @Test func eachOperationReadsWhatItSaysItReads() throws {
        let ids = { Self.ids() }
        // Logged after the latest entry: the one book, no history.
        #expect(
            try expectSameAsWhole(
                "progress",
                {
                    LogProgress(
                        book: choice("dune messiah"), value: .relative(20), note: "on", date: nil,
                        clock: { Fixture.now }, ids: ids())
                }, comparing: Self.logged) == [])
        // Backdated between two entries, relative to the one before it: the book's history.
        #expect(
            try expectSameAsWhole("backdated") {
                LogProgress(
                    book: choice("left hand"), value: .relative(5), note: nil,
                    date: Fixture.now.addingTimeInterval(-9 * Self.day), clock: { Fixture.now }, ids: ids())
            } == ["bbbb1111"])
        #expect(
            try expectSameAsWhole(
                "selected",
                {
                    LogProgress(
                        book: choice(nil, selection: "aaaa1111"), value: .page(200), note: nil, date: nil,
                        clock: { Fixture.now }, ids: ids())
                }, comparing: Self.logged) == [])
        let lines: [NumberedEvent] = [
            (1, .success(try ReadingEvent(line: #"{"book": "dune", "page": 300}"#, now: Fixture.now, timeZone: .utc))),
            (
                2,
                .success(
                    try ReadingEvent(
                        line: #"{"book": "messiah", "page": 70, "time": "2026-11-01T10:00:00Z"}"#, now: Fixture.now,
                        timeZone: .utc))
            ),
            (
                3,
                .success(
                    try ReadingEvent(
                        line: #"{"book": "left hand", "action": "finish"}"#, now: Fixture.now, timeZone: .utc))
            ),
        ]
        #expect(
            try expectSameAsWhole("batch") {
                ApplyBatch(lines: lines, now: Fixture.now, timeZone: .utc, skipInvalid: false, ids: ids())
            } == ["aaaa2222"])
        var device = ReaderImport(source: .koreader)
        var item = ReaderImport.Book(title: "Dune", author: "Frank Herbert", origin: "dune.sdr")
        item.progress = ReaderImport.Progress(fraction: 0.5, time: Fixture.now)
        item.sessions = [
            ReaderImport.Session(
                id: UUID(uuid: (0xAB, 1, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)),
                time: Fixture.now.addingTimeInterval(-11 * Self.day), fraction: 0.1, minutes: 30)
        ]
        device.books = [item, ReaderImport.Book(title: "Solaris", origin: "solaris.sdr")]
        device.books[1].progress = ReaderImport.Progress(fraction: 0.2, time: Fixture.now)
        #expect(
            try expectSameAsWhole("reader import") {
                var next = 0
                return MergeReaderImport(
                    device, now: Fixture.now,
                    makeID: {
                        next += 1
                        return "dddd000\(next)"
                    }, ids: ids())
            } == ["aaaa1111"])
        let export = ImportFile(
            format: .json,
            items: [
                ImportFile.Item(book: Fixture.book("Dune", id: "eeee1111", author: "Frank Herbert")),
                ImportFile.Item(book: Fixture.book("Solaris", id: "eeee2222")),
            ])
        #expect(try expectSameAsWhole("import", { MergeImport(export) }, comparing: Self.imported) == [])
        #expect(try expectSameAsWhole("show") { ShowBook(book: choice("dispossessed")) } == ["cccc1111"])
        #expect(try expectSameAsWhole("notes") { GatherBookNotes(book: choice("dune")) } == ["aaaa1111"])
        #expect(
            try expectSameAsWhole("club's book") { GatherBookNotes(book: choice(nil, club: "c1ub0000")) }
                == ["aaaa1111"])
        #expect(
            try expectSameAsWhole("meeting notes") {
                GatherMeetingNotes(
                    club: ClubChoice(reference: "sci-fi", scene: SceneState()), meeting: "m1", now: Fixture.now,
                    timeZone: .utc)
            } == ["aaaa1111"])
        #expect(
            try expectSameAsWhole("agenda") { PlanAgenda(club: nil, scene: SceneState(), now: Fixture.now, days: 30) }
                == ["aaaa1111", "bbbb1111"])
        #expect(
            try expectSameAsWhole("agenda of a week") {
                PlanAgenda(club: nil, scene: SceneState(club: "c1ub0000"), now: Fixture.now, days: 7)
            } == ["aaaa1111"])
    }

    /// A batch whose lines come late among themselves (a job that sends one a day late), and some
    /// before a book's stored latest entry: only the books with a line before their stored latest are
    /// read in full, and the batch does what it does to the library loaded whole. The pages repeat,
    /// so an entry equal to the one before it is left out: which one comes before must be right.
    @Test func aBatchLateAmongItsOwnLinesReadsNoHistory() throws {
        let latest: [(reference: String, id: Book.ID, time: Date)] = [
            ("dune", "aaaa1111", Fixture.now.addingTimeInterval(-10 * Self.day)),
            ("dune messiah", "aaaa2222", Fixture.now.addingTimeInterval(-8 * Self.day)),
            ("left hand", "bbbb1111", Fixture.now.addingTimeInterval(-6 * Self.day)),
        ]
        let format = ISO8601DateFormatter()
        var random = SeededGenerator(state: 38)
        var lateOnlyAmongTheirOwn = 0
        for round in 0..<40 {
            var expected = Set<Book.ID>()
            var reached: [Book.ID: Date] = [:]
            var lines: [NumberedEvent] = []
            for number in 1...Int.random(in: 2...12, using: &random) {
                let book = latest.randomElement(using: &random)!
                // Mostly after the stored latest, one in five before it; whole hours, so some share a second.
                let hours = Double(Int.random(in: round % 2 == 0 ? -48...96 : 0...96, using: &random))
                let time = book.time.addingTimeInterval(hours * Self.hour)
                if time < book.time { expected.insert(book.id) }
                if let before = reached[book.id], time < before, time >= book.time { lateOnlyAmongTheirOwn += 1 }
                reached[book.id] = max(reached[book.id] ?? time, time)
                let page = 100 + 20 * Int.random(in: 0...4, using: &random)
                let note = Int.random(in: 0..<5, using: &random) == 0 ? #", "note": "まだ \#(number)""# : ""
                let line =
                    #"{"book": "\#(book.reference)", "page": \#(page), "time": "\#(format.string(from: time))"\#(note)}"#
                lines.append((number, .success(try ReadingEvent(line: line, now: Fixture.now, timeZone: .utc))))
            }
            let history = try expectSameAsWhole("batch \(round)") {
                ApplyBatch(
                    lines: lines, now: Fixture.now, timeZone: .utc, skipInvalid: true, ids: Self.ids(startingWith: 0xBA)
                )
            }
            #expect(history == expected, "batch \(round)")
        }
        // The rounds did send lines late among their own, after the stored latest.
        #expect(lateOnlyAmongTheirOwn > 20)
    }

    @Test func aRuleGivenABookWithoutItsHistoryThrows() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let storage = try makeStore("partial")
        // Loaded as a command that asked for no history would have it.
        var partial = try Store(persistence: storage.persistence(lockTimeout: nil)).state
        let dune = try #require(partial[id: "aaaa1111"])
        #expect(!dune.hasWholeHistory)
        #expect(try whole(storage)[id: "aaaa1111"]?.hasWholeHistory == true)
        let notLoaded = BookClubError.historyNotLoaded(title: "Dune")
        #expect(throws: notLoaded) { try NotesReport.notes(of: dune) }
        #expect(throws: notLoaded) { try dune.withWholeHistory() }
        #expect(throws: notLoaded) { try Agenda.items(in: partial, now: Fixture.now, days: 30) }
        #expect(throws: notLoaded) {
            try MeetingNotes.report(club: Self.club, meeting: Self.club.meetings[1], library: partial, now: Fixture.now)
        }
        // Backdated before the latest entry: the entries before it are needed, and refused.
        let before = partial
        #expect(throws: notLoaded) {
            try partial.logProgress(
                .relative(5), note: nil, at: Fixture.now.addingTimeInterval(-15 * Self.day), bookID: "aaaa1111",
                reference: "dune")
        }
        #expect(partial == before)
        // An operation's plan applied to a library that lacks what it asked for fails the same way.
        let plan = try ShowBook(book: choice("dune")).resolve(in: partial)
        #expect(plan.history == ["aaaa1111"])
        #expect(throws: notLoaded) { try plan.result(in: partial) }
        // What the latest entry answers needs no history: a value logged after it.
        #expect(
            try partial.logProgress(.relative(5), note: nil, at: Fixture.now, bookID: "aaaa1111", reference: "dune")
                != .unchanged)
        // A message says what went wrong, and that nothing changed.
        #expect(notLoaded.message(in: .utc).contains("The history of 'Dune' was not loaded"))
    }

    @Test func theBookIsChosenByReferenceSelectionOrClub() throws {
        var library = Fixture.shelf
        library.clubs = [Self.club]
        #expect(try choice("left hand").apply(to: &library).book.id == "bbbb1111")
        #expect(try choice(nil, selection: "cccc1111").apply(to: &library).book.id == "cccc1111")
        #expect(try choice(nil, selection: "cccc1111").apply(to: &library).reference == "the dispossessed")
        #expect(try choice(nil, club: "c1ub0000").apply(to: &library).book.id == "aaaa1111")
        #expect(throws: BookClubError.noSelection) { try choice(nil).apply(to: &library) }
        #expect(throws: BookClubError.selectionGone) { try choice(nil, selection: "ffff0000").apply(to: &library) }
        #expect(choice("dune").books == .book(named: "dune"))
        #expect(choice(nil, selection: "aaaa1111").books == .books(["aaaa1111"]))
        #expect(choice(nil, club: "c1ub0000").books == .everything)
        #expect(throws: BookClubError.noClubSelected) {
            try ClubChoice(reference: nil, scene: SceneState()).choose(in: library)
        }
    }
}
