import Foundation
import Testing

@testable import BookClubCore

@Suite struct EditorConfigTests {
    @Test func presentSeedsProgressClearsNoteAndPresents() {
        var config = EditorConfig()
        config.note = "left over"
        config.present(initialProgress: 0.4)
        #expect(config.isEditorPresented)
        #expect(config.progress == 0.4)
        #expect(config.note == "")
    }

    @Test(arguments: [(-0.5, 0.0), (1.5, 1.0), (Double.nan, 0.0), (Double.infinity, 1.0), (0.25, 0.25)])
    func progressIsClamped(_ value: Double, _ expected: Double) {
        var config = EditorConfig()
        config.present(initialProgress: value)
        #expect(config.progress == expected)
        config.progress = value
        #expect(config.progress == expected)
    }

    @Test func commitTrimsTheNoteAndDismisses() throws {
        var config = EditorConfig()
        config.present(initialProgress: 0.5)
        config.note = "\n  the spice must flow \n"
        let committed = config.commit()
        let draft = try #require(committed)
        #expect(draft.progress == 0.5)
        #expect(draft.note == "the spice must flow")
        #expect(!config.isEditorPresented)
    }

    @Test func blankNoteCommitsAsNilAndNothingIsCommittedUnlessPresented() {
        var config = EditorConfig()
        #expect(config.commit() == nil)
        config.present(initialProgress: 0.1)
        config.note = "   "
        #expect(config.commit()?.note == nil)
        config.present(initialProgress: 0.1)
        config.dismiss()
        #expect(config.commit() == nil)
    }
}

@Suite struct ModelTests {
    @Test func entriesStayInTimeOrderAndTheLatestIsTheProgress() {
        var progress = ReadingProgress()
        #expect(progress.progress == 0)
        progress.add(.init(progress: 0.5, time: Fixture.now))
        progress.add(.init(progress: 0.2, time: Fixture.now.addingTimeInterval(-3600)))
        #expect(progress.entries.map(\.progress) == [0.2, 0.5])
        #expect(progress.progress == 0.5)
    }

    @Test func entryProgressIsClampedToAFraction() {
        #expect(ReadingProgress.Entry(progress: 3, time: Fixture.now).progress == 1)
        #expect(ReadingProgress.Entry(progress: .nan, time: Fixture.now).progress == 0)
    }

    @Test func anEntryHoldsItsNumbersInSixtyFourBytes() {
        #expect(MemoryLayout<ReadingProgress.Entry>.stride == 64)
        var entry = ReadingProgress.Entry(id: UUID(), progress: 0.5, page: 0, time: Fixture.now, listened: -3)
        #expect(entry.page == 0 && entry.minutes == nil && entry.listened == -3)
        entry.page = nil
        entry.minutes = 1440
        #expect(entry.page == nil && entry.minutes == 1440)
        // Beyond 32 bits: held as the nearest that fits, which the checks refuse as they did the value.
        entry.page = 5_000_000_000
        entry.listened = -5_000_000_000
        #expect(entry.page == Int(Int32.max) && entry.listened == Int(Int32.min) + 1)
        #expect(Library.problem(progress: 0.5, page: entry.page, minutes: nil, listened: nil) != nil)
        #expect(Library.problem(progress: 0.5, page: nil, minutes: nil, listened: entry.listened) != nil)
    }

    @Test func anEntryIsWrittenAndReadAsTheCompilerWouldHaveIt() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let id = UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")!
        let entry = ReadingProgress.Entry(
            id: id, progress: 0.25, page: 12, time: Date(timeIntervalSince1970: 0), note: "ノルウェイ", listened: 3)
        let text = String(decoding: try encoder.encode(entry), as: UTF8.self)
        #expect(
            text
                == #"{"id":"00000000-0000-0000-0000-0000000000AB","listened":3,"note":"ノルウェイ","page":12,"progress":0.25,"time":-978307200}"#
        )
        #expect(try JSONDecoder().decode(ReadingProgress.Entry.self, from: Data(text.utf8)) == entry)
        // A fraction out of range is read as it is, for the checks to refuse; no page is not page 0.
        let read = try JSONDecoder().decode(
            ReadingProgress.Entry.self, from: Data(#"{"id":"\#(id)","progress":1.5,"time":0}"#.utf8))
        #expect(read.progress == 1.5 && read.page == nil && read.minutes == nil && read.listened == nil)
    }

    /// The entry as the compiler made its Codable when it held its numbers as `Int?`.
    private struct SynthesizedEntry: Codable, Equatable {
        let id: UUID
        var progress: Double
        var page: Int?
        var time: Date
        var note: String?
        var minutes: Int?
        var listened: Int?
    }

    @Test func anEntryIsCodedAsTheSynthesizedOneWasKeyForKey() throws {
        let id = UUID(uuidString: "00000000-0000-0000-0000-0000000000CD")!
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let shapes: [SynthesizedEntry] = [
            SynthesizedEntry(id: id, progress: 0, time: time),
            SynthesizedEntry(
                id: id, progress: 0.5, page: 120, time: time, note: "מסע ✈️", minutes: 45, listened: 300),
            SynthesizedEntry(id: id, progress: 1, page: 0, time: time, listened: 0),
            SynthesizedEntry(id: id, progress: 1.5, page: -2, time: time, minutes: 99_999_999),
        ]
        // As the store's coder writes them, and with dates as numbers. (Without sorted keys, JSONEncoder
        // writes an object's keys in its dictionary's order, which no two processes share: bookclub
        // always sorts them.)
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        let iso = JSONDecoder()
        iso.dateDecodingStrategy = .iso8601
        let coders = [
            (sorted, JSONDecoder()), (JSONCoding.encoder(), iso), (JSONCoding.encoder(pretty: false), iso),
        ]
        for (encoder, decoder) in coders {
            for shape in shapes {
                let entry = ReadingProgress.Entry(
                    id: shape.id, progress: 0, page: shape.page, time: shape.time, note: shape.note,
                    minutes: shape.minutes, listened: shape.listened)
                var expected = shape
                expected.progress = 0
                let written = String(decoding: try encoder.encode(entry), as: UTF8.self)
                let synthesized = String(decoding: try encoder.encode(expected), as: UTF8.self)
                #expect(written == synthesized)
                let decoded = try decoder.decode(ReadingProgress.Entry.self, from: encoder.encode(shape))
                let back = SynthesizedEntry(
                    id: decoded.id, progress: decoded.progress, page: decoded.page, time: decoded.time,
                    note: decoded.note, minutes: decoded.minutes, listened: decoded.listened)
                #expect(back == shape)
            }
        }
    }

    @Test func currentProgressIsOneWhenFinishedAsInTheTalk() {
        var reading = Reading(
            started: Fixture.now, progress: ReadingProgress(entries: [.init(progress: 0.3, time: Fixture.now)]))
        #expect(reading.currentProgress == 0.3)
        reading.ending = Ending(outcome: .finished, date: nil)
        #expect(reading.currentProgress == 1)
        reading.ending = Ending(outcome: .abandoned, date: nil)
        #expect(reading.currentProgress == 0.3)
    }

    @Test func statusIsDerivedFromTheLatestReading() throws {
        var library = Fixture.shelf
        let id = "aaaa1111"
        #expect(library[id: id]?.status == .unstarted)
        _ = try library.logProgress(.page(100), note: nil, at: Fixture.now, bookID: id, reference: "dune")
        #expect(library[id: id]?.status == .reading)
        #expect(try library.end(.finished, date: nil, note: nil, bookID: id, reference: "dune"))
        #expect(library[id: id]?.status == .finished)
        try library.reread(at: Fixture.now, bookID: id, reference: "dune")
        #expect(library[id: id]?.status == .reading)
        #expect(library[id: id]?.readings.count == 2)
        #expect(library[id: id]?.currentProgress == 0)
    }
}

@Suite struct ProgressLoggingTests {
    var library = Fixture.shelf
    let dune = "aaaa1111"

    @Test(arguments: [
        ("120", ProgressValue.page(120)), ("45%", .percent(45)), ("12.5%", .percent(12.5)), ("+20", .relative(20)),
        (" 7 ", .page(7)),
    ])
    func parsesValues(_ text: String, _ expected: ProgressValue) {
        #expect(ProgressValue(parsing: text) == expected)
    }

    @Test(arguments: ["", "abc", "-5", "101%", "nan%", "inf%", "++3", "99999999999999999999", "1e3", "12 %x"])
    func refusesValues(_ text: String) {
        #expect(ProgressValue(parsing: text) == nil)
        #expect(ProgressValue.problem(with: text) != nil)
    }

    @Test mutating func pagesBecomeFractionsAndKeepThePage() throws {
        let outcome = try library.logProgress(
            .page(100), note: "the spice", at: Fixture.now, bookID: dune, reference: "dune")
        guard case .logged(let entry) = outcome else {
            Issue.record("nothing logged")
            return
        }
        #expect(entry.progress == 0.25)
        #expect(entry.page == 100)
        #expect(entry.note == "the spice")
        #expect(library[id: dune]?.currentPage == 100)
    }

    @Test mutating func theSameValueWithoutANoteAddsNothing() throws {
        _ = try library.logProgress(.page(100), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        let again = try library.logProgress(
            .page(100), note: nil, at: Fixture.now.addingTimeInterval(60), bookID: dune, reference: "dune")
        #expect(again == .unchanged)
        let withNote = try library.logProgress(
            .page(100), note: "still here", at: Fixture.now, bookID: dune, reference: "dune")
        #expect(withNote != .unchanged)
        #expect(library[id: dune]?.currentReading?.progress.entries.count == 2)
    }

    @Test mutating func relativeValuesCountFromTheLatestPage() throws {
        _ = try library.logProgress(.page(100), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        _ = try library.logProgress(.relative(20), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        #expect(library[id: dune]?.currentPage == 120)
        _ = try library.logProgress(.percent(50), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        _ = try library.logProgress(.relative(10), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        #expect(library[id: dune]?.currentPage == 210)
    }

    @Test mutating func refusals() throws {
        #expect(throws: BookClubError.pageOutOfRange(page: 401, title: "Dune", pages: 400)) {
            try library.logProgress(.page(401), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        }
        var noPages = Library(books: [Fixture.book("Untitled", id: "dddd", pages: nil)])
        #expect(throws: BookClubError.needsPageCount(title: "Untitled", reference: "u")) {
            try noPages.logProgress(.page(3), note: nil, at: Fixture.now, bookID: "dddd", reference: "u")
        }
        _ = try noPages.logProgress(.percent(30), note: nil, at: Fixture.now, bookID: "dddd", reference: "u")
        #expect(noPages[id: "dddd"]?.currentProgress == 0.3)
        _ = try library.end(.finished, date: nil, note: nil, bookID: dune, reference: "dune")
        #expect(throws: BookClubError.finished(title: "Dune", reference: "dune")) {
            try library.logProgress(.page(3), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        }
        #expect(
            BookClubError.finished(title: "Dune", reference: "dune").localizedDescription.contains(
                "bookclub unfinish dune"))
    }

    @Test mutating func finishTwiceChangesNothingAndUnfinishResumes() throws {
        #expect(try library.end(.finished, date: Fixture.now, note: "great", bookID: dune, reference: "dune"))
        let before = library
        #expect(try !library.end(.finished, date: nil, note: nil, bookID: dune, reference: "dune"))
        #expect(library == before)
        #expect(try library.resume(bookID: dune, at: Fixture.now, reference: "dune") == .finished)
        #expect(library[id: dune]?.status == .reading)
        #expect(throws: BookClubError.notFinished(title: "Dune", reference: "dune")) {
            try library.resume(bookID: dune, at: Fixture.now, reference: "dune")
        }
        #expect(throws: BookClubError.notEnded(title: "Dune", reference: "dune")) {
            try library.reread(at: Fixture.now, bookID: dune, reference: "dune")
        }
    }

    @Test mutating func abandonKeepsProgress() throws {
        _ = try library.logProgress(.page(100), note: nil, at: Fixture.now, bookID: dune, reference: "dune")
        #expect(try library.end(.abandoned, date: nil, note: "too slow", bookID: dune, reference: "dune"))
        #expect(library[id: dune]?.status == .abandoned)
        #expect(library[id: dune]?.currentProgress == 0.25)
        #expect(library[id: dune]?.currentReading?.ending?.date == nil)
    }
}

@Suite struct BookReferenceTests {
    let library = Fixture.shelf

    @Test(arguments: [
        ("aaaa1111", "Dune"), ("AAAA22", "Dune Messiah"), ("dune", "Dune"), ("DUNE MESS", "Dune Messiah"),
        ("left hand", "The Left Hand of Darkness"), ("the disp", "The Dispossessed"),
        ("hand of dark", "The Left Hand of Darkness"),
    ])
    func resolves(_ reference: String, _ title: String) throws {
        #expect(try library.resolve(reference).title == title)
    }

    func message(_ reference: String, exactly: Bool = false, in library: Library? = nil) -> String? {
        do {
            _ = try (library ?? self.library).resolve(reference, exactly: exactly)
            return nil
        } catch {
            return (error as? BookClubError)?.message(in: Fixture.utc)
        }
    }

    @Test func ambiguousReferencesListTheCandidatesWithAuthorYearAndID() {
        #expect(
            message("du")
                == "'du' matches 2 books: Dune by Frank Herbert, added 2026 (aaaa1111); "
                + "Dune Messiah by Frank Herbert, added 2026 (aaaa2222). Use more of the title or the id.")
        #expect(
            message("the")
                == "'the' matches 2 books: The Left Hand of Darkness, added 2026 (bbbb1111); "
                + "The Dispossessed, added 2026 (cccc1111). Use more of the title or the id.")
        // Two books of one title: no more of the title tells them apart, and the ids need 9 digits.
        var twins = library
        twins.addBook(Book(id: "eeee0000a1", title: "Emma", author: "Jane Austen", added: Fixture.day("2019-03-01")))
        twins.addBook(Book(id: "eeee0000b2", title: "Emma", added: Fixture.day("2021-07-09")))
        #expect(
            message("emma", in: twins)
                == "'emma' matches 2 books: Emma by Jane Austen, added 2019 (eeee0000a); Emma, added 2021 (eeee0000b). Use the id."
        )
    }

    @Test func aRemovalGivenPartOfATitleNamesTheBookItMeant() {
        #expect(
            message("dune mess", exactly: true)
                == "'dune mess' is not a whole title; it names Dune Messiah by Frank Herbert, added 2026 (aaaa2222). "
                + "To remove it, give its whole title or its id.")
        #expect(message("dune messiah", exactly: true) == nil)
        #expect(message("neuromancer", exactly: true) == "No book matches 'neuromancer'. See `bookclub list --all`.")
    }

    /// Titles in many scripts: the forms the rules compare (its words, its letters and digits) are
    /// those Unicode's tables give, whether a character is ASCII or not; and a batch's finder, which
    /// makes them once, says of each reference what `resolve` says.
    @Test func titlesInEveryScriptMatchAsUnicodeSays() throws {
        let titles = [
            "ノルウェイの森", "Sci-Fi: 2001 — A Space Odyssey", "מסע אל תום הלילה", "📚 Reading, Again!", "Ça ira (1789)",
            "Der Zauberberg", "東京 物語 第2部", "Anna\u{301} Karenina", "١٠٠١ ليلة", "L'Étranger",
        ]
        for title in titles {
            let lowered = title.lowercased()
            let forms = Reference.NameForms(title)
            #expect(forms.squeezed == String(lowered.filter { $0.isLetter || $0.isNumber }), "\(title)")
            #expect(forms.words == lowered.split { !$0.isLetter && !$0.isNumber }, "\(title)")
        }
        var shelf = Library()
        for (index, title) in titles.enumerated() {
            shelf.addBook(Book(id: String(format: "%08x", 0xC0DE_0000 + index), title: title, added: Fixture.now))
        }
        #expect(try shelf.resolve("scifi").title == "Sci-Fi: 2001 — A Space Odyssey")
        #expect(try shelf.resolve("ノルウェイ").title == "ノルウェイの森")
        #expect(try shelf.resolve("物語 第2").title == "東京 物語 第2部")
        #expect(try shelf.resolve("תום").title == "מסע אל תום הלילה")
        #expect(try shelf.resolve("reading again").title == "📚 Reading, Again!")
        var finder = BookFinder(shelf)
        for reference in [
            "scifi", "森", "ノルウェイ", "etranger", "l'étr", "zauber", "١٠٠١", "ca ira", "nothing", "a", "c0de",
        ] {
            let found = Result { try shelf.books[finder.index(of: reference, in: shelf)].title }
            let resolved = Result { try shelf.resolve(reference).title }
            #expect("\(found)" == "\(resolved)", "\(reference)")
        }
    }

    @Test(arguments: ["nothing", "", "   ", "aaa"])
    func missingReferences(_ reference: String) {
        #expect(throws: BookClubError.bookNotFound(reference)) { try library.resolve(reference) }
    }
}

@Suite struct WhenTests {
    let now = Fixture.now

    @Test func namedDays() {
        #expect(When.parse("today", now: now, timeZone: Fixture.utc) == now)
        #expect(
            When.parse("Yesterday", now: now, timeZone: Fixture.utc)
                == ISO8601DateFormatter().date(from: "2026-11-17T12:00:00Z"))
    }

    @Test(arguments: [
        ("2026-11-20", "2026-11-20T12:00:00Z"), ("2026-11-20T19:00", "2026-11-20T19:00:00Z"),
        ("2026-11-20T19:00:30Z", "2026-11-20T19:00:30Z"), ("2026-11-20T19:00+01:00", "2026-11-20T18:00:00Z"),
    ])
    func isoDates(_ text: String, _ expected: String) throws {
        let date = try #require(When.parse(text, now: now, timeZone: Fixture.utc))
        #expect(date == ISO8601DateFormatter().date(from: expected))
    }

    @Test(arguments: [
        "2026-02-30", "2026-13-01", "20261120", "soon", "2026-11-20T25:00", "0000-01-01", "2026-11-20T10:00junk",
        "١٢٣٤-٠١-٠١", "2026-11-20T١٩:00",
    ])
    func refusals(_ text: String) {
        #expect(When.parse(text, now: now, timeZone: Fixture.utc) == nil)
    }
}
