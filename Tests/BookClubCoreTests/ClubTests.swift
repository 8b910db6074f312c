import BookClubCore
import Foundation
import Testing

@Suite struct ClubTests {
    let now = Fixture.now  // Wednesday 2026-11-18 11:06:40 UTC
    let utc = Fixture.utc

    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test(arguments: [
        ("thursday", "2026-11-19T12:00:00Z"), ("Thu 19:00", "2026-11-19T19:00:00Z"),
        ("wednesday", "2026-11-25T12:00:00Z"),
        ("tomorrow 7:30", "2026-11-19T07:30:00Z"), ("today 21:15", "2026-11-18T21:15:00Z"),
        ("2026-12-03 19:00", "2026-12-03T19:00:00Z"),
    ])
    func namedDaysAndTimes(_ text: String, _ expected: String) {
        #expect(When.parse(text, now: now, timeZone: utc, looking: .ahead) == date(expected))
    }

    @Test(arguments: ["th", "thursday 25:00", "thursday at 7", "someday 19:00", "thursday at", "at 19:00 thursday"])
    func refusedNamedDays(_ text: String) {
        #expect(When.parse(text, now: now, timeZone: utc) == nil)
    }

    var club: Club {
        Club(
            id: "c1ub0000", name: "Sci-Fi Club",
            meetings: [
                Meeting(id: "m2", date: date("2026-12-03T19:00:00Z"), bookID: "aaaa2222"),
                Meeting(
                    id: "m1", date: date("2026-11-19T19:00:00Z"), bookID: "aaaa1111",
                    target: .init(page: 250, label: "chapters 1-12")),
                Meeting(id: "m0", date: date("2026-11-05T19:00:00Z"), bookID: "aaaa1111", target: .init(page: 80)),
            ])
    }

    @Test func theCurrentBookIsDerivedFromTheSchedule() throws {
        var club = club
        #expect(club.meetings.map(\.id) == ["m0", "m1", "m2"])
        #expect(club.currentBookID(at: now) == "aaaa1111")
        #expect(club.currentBookID(at: date("2026-11-20T00:00:00Z")) == "aaaa2222")
        club.cancel(meetingID: "m1")
        #expect(club.currentBookID(at: now) == "aaaa2222")
        #expect(club.currentBookID(at: date("2027-01-01T00:00:00Z")) == nil)
    }

    @Test func meetingsAreNamedByIdDateOrNext() throws {
        #expect(try club.meeting("next", now: now, timeZone: utc).id == "m1")
        #expect(try club.meeting("m2", now: now, timeZone: utc).id == "m2")
        #expect(try club.meeting("2026-11-05", now: now, timeZone: utc).id == "m0")
        #expect(throws: BookClubError.meetingNotFound(club: "Sci-Fi Club", reference: "2026-11-06")) {
            try club.meeting("2026-11-06", now: now, timeZone: utc)
        }
    }

    @Test func clubsAreNamedLikeBooksAndPunctuationMayBeLeftOut() throws {
        let library = Library(clubs: [club, Club(id: "d2ub0000", name: "Octavia Readers")])
        #expect(try library.resolveClub("scifi").id == "c1ub0000")
        #expect(try library.resolveClub("octavia").id == "d2ub0000")
        #expect(throws: BookClubError.clubNotFound("poetry")) { try library.resolveClub("poetry") }
        #expect(throws: BookClubError.clubNotFound("sci")) { try library.resolveClub("sci", exactly: true) }
    }

    /// Dune, 400 pages: p. 100 ten days ago, p. 200 yesterday: 100 pages in 10 days.
    var library: Library {
        var library = Library(
            books: [Fixture.book("Dune", id: "aaaa1111"), Fixture.book("Kindred", id: "aaaa2222", pages: 264)],
            clubs: [club])
        _ = try! library.logProgress(
            .page(100), note: "the gom jabbar", at: now.addingTimeInterval(-20 * 86_400), bookID: "aaaa1111",
            reference: "dune")
        _ = try! library.logProgress(
            .page(150), note: "before the last meeting", at: date("2026-11-04T10:00:00Z"), bookID: "aaaa1111",
            reference: "dune")
        _ = try! library.logProgress(
            .page(200), note: "the spice", at: now.addingTimeInterval(-86_400), bookID: "aaaa1111", reference: "dune")
        return library
    }

    @Test func agendaTellsThePagesToGoAndWhetherYourPaceGetsYouThere() throws {
        let items = try Agenda.items(in: library, now: now, days: 30)
        #expect(items.map(\.meeting.id) == ["m1", "m2"])
        let next = try #require(items.first)
        #expect(next.targetPage == 250)
        #expect(next.currentPage == 200)
        #expect(next.pagesToGo == 50)
        #expect(abs(next.daysLeft - 1.329) < 0.01)
        #expect(abs((next.pagesPerDay ?? 0) - 50 / next.daysLeft) < 0.001)
        // 150 -> 200 within the last 14 days, from the entry before the window: 50 pages over 14 days.
        #expect(abs((next.recentPagesPerDay ?? 0) - 50.0 / 14) < 0.01)
        #expect(next.standing == .behind)
        #expect(items[1].standing == .unknown, "no target for the second meeting")

        var fast = library
        _ = try fast.logProgress(.page(245), note: nil, at: now, bookID: "aaaa1111", reference: "dune")
        #expect(try Agenda.items(in: fast, now: now, days: 30).first?.standing == .onTrack)
        _ = try fast.logProgress(.page(260), note: nil, at: now, bookID: "aaaa1111", reference: "dune")
        #expect(try Agenda.items(in: fast, now: now, days: 30).first?.standing == .reached)
        #expect(try Agenda.items(in: fast, now: now, days: 1).map(\.meeting.id) == [])
    }

    @Test func oneEntryIsNoPace() throws {
        // Tracking started mid-book: p. 300 yesterday is not 300 pages a day.
        var library = Library(books: [Fixture.book("Dune", id: "aaaa1111")], clubs: [club])
        _ = try library.logProgress(
            .page(300), note: nil, at: now.addingTimeInterval(-86_400), bookID: "aaaa1111", reference: "dune")
        let item = try #require(try Agenda.items(in: library, now: now, days: 30).first)
        #expect(item.recentPagesPerDay == nil)
        #expect(item.standing == .reached)
        var behind = Library(books: [Fixture.book("Dune", id: "aaaa1111")], clubs: [club])
        _ = try behind.logProgress(
            .page(100), note: nil, at: now.addingTimeInterval(-86_400), bookID: "aaaa1111", reference: "dune")
        let unknown = try #require(try Agenda.items(in: behind, now: now, days: 30).first)
        #expect(unknown.standing == .unknown)
        #expect(unknown.pagesToGo == 150)
    }

    @Test func aMeetingIsNamedByItsDateAndTime() throws {
        #expect(try club.meeting("2026-11-19T19:00Z", now: now, timeZone: utc).id == "m1")
    }

    @Test func meetingNotesAreThoseSinceThePreviousMeetingInReadingOrder() throws {
        let report = try MeetingNotes.report(club: club, meeting: club.meetings[1], library: library, now: now)
        #expect(report.since == date("2026-11-05T19:00:00Z"))
        #expect(report.notes.map(\.text) == ["the spice"])
        let first = try MeetingNotes.report(club: club, meeting: club.meetings[0], library: library, now: now)
        #expect(first.notes.map(\.text) == ["the gom jabbar", "before the last meeting", "the spice"])
        let markdown = MeetingNotes.markdown(report, timeZone: utc).string
        #expect(markdown.hasPrefix("# Sci-Fi Club: Thu 19 Nov 2026 19:00\n\n**Dune**, to p. 250 (chapters 1-12)\n"))
        #expect(markdown.contains("## Notes since Thu 5 Nov 2026\n\n- p. 200, Tue 17 Nov 2026: the spice\n"))
    }

    @Test func removingABookTakesItOffTheMeetings() throws {
        var library = library
        library.removeBook(id: "aaaa1111")
        #expect(library.clubs[0].meetings.map(\.bookID) == [nil, nil, "aaaa2222"])
    }
}

@Suite struct ICalendarTests {
    @Test func linesAreFoldedAt75OctetsWithoutSplittingCharacters() {
        let line = "SUMMARY:" + String(repeating: "é", count: 100)
        let folded = ICalendarProbe.fold(line)
        let lines = folded.components(separatedBy: "\r\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(
            lines.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined() == line)
    }

    @Test func textIsEscapedAndUIDsAreStable() {
        let club = Club(
            id: "c1ub", name: "Books, Wine; and \\ More",
            meetings: [Meeting(id: "m1", date: Fixture.now, place: "Ana's\nplace")])
        let one = ICalendar.render(club: club, books: Library(), now: Fixture.now)
        let two = ICalendar.render(club: club, books: Library(), now: Fixture.now.addingTimeInterval(99))
        #expect(one.contains("SUMMARY:Books\\, Wine\\; and \\\\ More\r\n"))
        #expect(one.contains("LOCATION:Ana's\\nplace\r\n"))
        #expect(one.contains("UID:m1-c1ub@bookclub\r\n"))
        #expect(one.contains("DTSTART:20261118T110640Z\r\n"))
        #expect(two.contains("UID:m1-c1ub@bookclub\r\n"))
        #expect(one.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(one.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
    }
}

/// The folding rule, reached through a rendered calendar so that it stays private to the core.
enum ICalendarProbe {
    static func fold(_ line: String) -> String {
        let club = Club(id: "x", name: String(line.dropFirst("SUMMARY:".count)))
        let rendered = ICalendar.render(club: club, books: Library(), now: Fixture.now)
        let start = rendered.range(of: "X-WR-CALNAME:")!.upperBound
        let end = rendered.range(of: "\r\nEND:VCALENDAR")!.lowerBound
        return "SUMMARY:" + rendered[start..<end]
    }
}

@Suite struct MigrationTests {
    let path = "/data/store.json"
    let version1 = Data(
        #"{"schemaVersion": 1, "historyLength": 0, "books": [{"id": "aaaa1111", "title": "Dune", "pages": 412, "tags": [], "added": "2026-11-01T10:00:00Z", "readings": []}]}"#
            .utf8)

    @Test func aVersionOneStoreIsReadAndKeptAsItWasWhenFirstRewritten() throws {
        let storage = LibraryStorage(path: path, fileSystem: .inMemory([path: version1]))
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        #expect(store.state.books.map(\.title) == ["Dune"])
        #expect(store.state.clubs == [])
        try store.update { try $0.addClub(Club(id: "c1", name: "Sci-Fi")) }
        try store.save()
        #expect(try storage.fileSystem.read(storage.backupPath(version: 1)) == version1)
        let text = String(decoding: try #require(try storage.fileSystem.read(path)), as: UTF8.self)
        #expect(text.contains("\"schemaVersion\" : 4"))
        store.update { $0.clubs[0].name = "Sci-Fi Club" }
        try store.save()
        #expect(try storage.fileSystem.read(storage.backupPath(version: 1)) == version1, "the backup is written once")
        let reopened = try Store(persistence: storage.persistence(lockTimeout: nil))
        #expect(reopened.state.clubs.map(\.name) == ["Sci-Fi Club"])
    }

    @Test(arguments: [
        (#""pages": -3"#, "at `books[0].pages` ('Dune'): expected a page count from 1 to 100000"),
        (#""title": " ""#, "at `books[0].title`: expected a title"),
    ])
    func valuesNoCommandCouldWriteAreRefused(_ field: String, _ detail: String) throws {
        var text = String(decoding: version1, as: UTF8.self)
        text = text.replacingOccurrences(
            of: field.hasPrefix("\"pages") ? #""pages": 412"# : #""title": "Dune""#, with: field)
        let storage = LibraryStorage(path: path, fileSystem: .inMemory([path: Data(text.utf8)]))
        #expect(throws: BookClubError.corruptFile(path: path, detail: detail)) {
            _ = try Store(persistence: storage.persistence(lockTimeout: nil))
        }
    }
}
