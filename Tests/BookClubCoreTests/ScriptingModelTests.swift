import BookClubCore
import Foundation
import Testing

@Suite struct ReadingEventTests {
    func event(_ line: String) throws(ReadingEvent.Problem) -> ReadingEvent {
        try ReadingEvent(line: line, now: Fixture.now, timeZone: Fixture.utc)
    }

    func problem(_ line: String) -> String? {
        do {
            _ = try event(line)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func readsPagesPercentsNotesTimesAndActions() throws {
        #expect(try event(#"{"book": "dune", "page": 120}"#).value == .page(120))
        let full = try event(
            #"{"book":"dune","percent":45.5,"note":" the spice ","time":"2026-11-17T19:00:00Z","action":"finish"}"#)
        #expect(full.value == .percent(45.5))
        #expect(full.note == "the spice")
        #expect(full.time == Date(timeIntervalSince1970: 1_794_942_000))
        #expect(full.action == .finished)
        #expect(try event(#"{"book":"dune","action":"abandon","note":"dull"}"#).action == .abandoned)
    }

    @Test(arguments: [
        ("[1]", "expected a JSON object"),
        ("{\"book\":\"dune\"", "expected a JSON object"),
        (#"{"page": 3}"#, "expected `book`"),
        (#"{"book": "  ", "page": 3}"#, "expected `book`"),
        (#"{"book": "dune"}"#, "expected `page`, `percent` or `action`"),
        (#"{"book": "dune", "pgae": 3}"#, "unknown key `pgae`"),
        (#"{"book": "dune", "page": "3"}"#, "`page` must be a whole number"),
        (#"{"book": "dune", "page": 3.5}"#, "`page` must be a whole number"),
        (#"{"book": "dune", "page": -1}"#, "`page` must be a whole number"),
        (#"{"book": "dune", "page": 100000000000000000000000}"#, "`page` must be a whole number"),
        (#"{"book": "dune", "percent": 101}"#, "`percent` must be a number from 0 to 100"),
        (#"{"book": "dune", "page": 1, "percent": 1}"#, "not both"),
        (#"{"book": "dune", "action": "start"}"#, "`action` must be"),
        (#"{"book": "dune", "page": 1, "time": "last week"}"#, "`time` must be a date such as 2026-11-20T19:00:00Z"),
        (#"{"book": "dune", "page": 1, "time": "2027-01-01T00:00:00Z"}"#, "is in the future"),
        (#"{"book": 7, "page": 1}"#, "expected a JSON object"),
    ])
    func refusesWhatIsNotAnEvent(_ line: String, _ expected: String) {
        let reason = problem(line)
        #expect(reason?.contains(expected) == true, "\(line): \(reason ?? "accepted")")
    }

    @Test func appliesAsProgressThenFinish() throws {
        var library = Fixture.shelf
        let logged = try library.apply(event(#"{"book":"dune","page":100,"note":"worms"}"#), now: Fixture.now)
        #expect(logged.entry?.page == 100)
        #expect(logged.ending == nil)
        let ended = try library.apply(
            event(#"{"book":"dune","page":400,"action":"finish","note":"what a ride"}"#), now: Fixture.now)
        #expect(ended.entry?.note == "what a ride")
        #expect(ended.ending == .finished)
        let dune = try #require(library[id: "aaaa1111"])
        #expect(dune.status == .finished)
        #expect(dune.currentReading?.ending?.note == nil)
        #expect(throws: BookClubError.finished(title: "Dune", reference: "dune")) {
            try library.apply(event(#"{"book":"dune","page":10}"#), now: Fixture.now)
        }
        // An action alone keeps its note with the ending.
        let abandoned = try library.apply(
            event(#"{"book":"dispossessed","action":"abandon","note":"later"}"#), now: Fixture.now)
        #expect(abandoned.ending == .abandoned)
        #expect(library[id: "cccc1111"]?.currentReading?.ending?.note == "later")
    }
}

@Suite struct LibraryDiffEventTests {
    @Test func findsAddedBooksNewEntriesAndFinishedReadings() throws {
        let old = Fixture.shelf
        var new = old
        new.addBook(Fixture.book("Solaris", id: "dddd1111"))
        let first = try new.logProgress(.page(10), note: nil, at: Fixture.now, bookID: "aaaa1111", reference: "dune")
        let second = try new.logProgress(.page(20), note: "x", at: Fixture.now, bookID: "aaaa1111", reference: "dune")
        _ = try new.end(.finished, date: Fixture.now, note: "done", bookID: "bbbb1111", reference: "left")
        guard case .logged(let a) = first, case .logged(let b) = second else {
            Issue.record("nothing logged")
            return
        }
        #expect(
            LibraryDiff(from: old, to: new).events == [
                .progress("aaaa1111", a), .progress("aaaa1111", b),
                .finished("bbbb1111", Ending(outcome: .finished, date: Fixture.now, note: "done")),
                .added("dddd1111"),
            ])
        // Nothing is heard twice, and an edit is no event.
        var edited = new
        edited.books[0].title = "Dune (1965)"
        #expect(LibraryDiff(from: new, to: edited).events == [])
    }
}

@Suite struct ExportFormatTests {
    var library: Library {
        var library = Library(books: [
            Book(
                id: "aaaa1111", title: "Dune", author: "Frank Herbert", pages: 412, isbn: "978-0441013593",
                tags: ["sf"],
                rating: 4, review: "Spice, \"worms\",\nand politics.", added: Fixture.now),
            Book(id: "bbbb1111", title: "Emma", author: "Jane Austen", added: Fixture.now),
            Book(id: "cccc1111", title: "Ulysses", isbn: "0141182806", added: Fixture.now),
        ])
        _ = try? library.logProgress(
            .page(100), note: "the spice", at: Fixture.now, bookID: "aaaa1111", reference: "dune")
        _ = try? library.end(.finished, date: Fixture.now, note: "lovely", bookID: "bbbb1111", reference: "emma")
        return library
    }

    @Test func goodreadsCSVQuotesAndGuardsLikeGoodreads() {
        let lines = GoodreadsCSV.render(library, timeZone: Fixture.utc).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == Substring(GoodreadsCSV.columns.joined(separator: ",")))
        #expect(
            lines[1]
                == #"aaaa1111,Dune,Frank Herbert,"Herbert, Frank",,"=""""","=""9780441013593""",4,,,,412,,,,2026/11/18,"currently-reading, sf","currently-reading (#1), sf (#1)",currently-reading,"Spice, ""worms"","#
        )
        // Goodreads' 24 columns, then the book as bookclub keeps it.
        #expect(
            lines[2].hasPrefix(
                #"and politics.",,,0,0,"{""added"":""2026-11-18T11:06:40Z"",""author"":""Frank Herbert"",""id"":""aaaa1111"","#
            ))
        #expect(
            lines[3].hasPrefix(
                #"bbbb1111,Emma,Jane Austen,"Austen, Jane",,"=""""","=""""",0,,,,,,,2026/11/18,2026/11/18,read,read (#1),read,,,,1,0,"{"#
            ))
        #expect(lines[4].hasPrefix(#"cccc1111,Ulysses,,,,"=""0141182806""","=""""",0,"#))
        #expect(lines.last == "")
    }

    /// A library of every kind of book: titles in Japanese, Hebrew and emoji, notes with quotes,
    /// line breaks and control characters, readings finished, abandoned, and begun again.
    var variedLibrary: Library {
        var library = ImportMergeTests.exportedLibrary
        library.books += [
            Book(id: "e1", title: "ノルウェイの森", author: "村上 春樹", pages: 296, added: Fixture.day("2025-03-01")),
            Book(id: "e2", title: "📚 מסע", pages: 120, rating: 3.5, added: Fixture.day("2024-07-04")),
            Book(id: "e3", title: "Waiting \"quoted\", on the shelf", added: Fixture.day("2024-07-05")),
        ]
        let notes = ["僕は三十七歳で", "a \"quote\",\nthen a line", "tab\there\u{1}", "", "🐋 و"]
        for (index, note) in notes.enumerated() {
            _ = try? library.logProgress(
                .page(20 * (index + 1)), note: note, at: Fixture.day("2025-03-0\(index + 2)"), bookID: "e1",
                reference: "e1")
        }
        _ = try? library.logProgress(.page(60), note: nil, at: Fixture.day("2024-08-01"), bookID: "e2", reference: "e2")
        _ = try? library.end(
            .abandoned, date: Fixture.day("2024-08-02"), note: "not now", bookID: "e2", reference: "e2")
        return library
    }

    /// The clubs of an export come by id, whatever order the store keeps them in (two machines that
    /// synced them keep them in the order each heard of them): the same bytes on every machine, a part
    /// at a time as whole.
    @Test func anExportsClubsComeByID() throws {
        let clubs = [Club(id: "c2", name: "Second"), Club(id: "c1", name: "First")]
        var text = LibraryExport.Text()
        let parts = try text.end(clubs: clubs)
        let whole = try LibraryExport(Library(books: [], clubs: clubs)).encoded()
        #expect(parts == whole)
        let written = String(decoding: parts, as: UTF8.self)
        let first = try #require(written.range(of: "\"c1\""))
        let second = try #require(written.range(of: "\"c2\""))
        #expect(first.lowerBound < second.lowerBound)
    }

    /// The last column holds each book as JSONEncoder writes it, its keys sorted, though written by hand.
    @Test func theCSVsLastColumnIsTheBookAsJSONEncoderWritesIt() throws {
        let library = variedLibrary
        let csv = GoodreadsCSV.render(library, timeZone: Fixture.utc)
        // Every note was logged, and each made a field of its own kind of trouble.
        let notes = library.books.first { $0.id == "e1" }?.readings.last?.progress.entries.compactMap(\.note)
        #expect(notes?.count == 5)
        for book in library.books {
            let json = String(decoding: try JSONCoding.encoder(pretty: false).encode(book), as: UTF8.self)
            // The field quoted (it holds quotes), at the end of its row.
            #expect(csv.contains(",\"" + json.replacing("\"", with: "\"\"") + "\"\n"), "\(book.title)")
        }
    }

    /// Made a book at a time, in the order the journal arranges them, each part handed over as it grows,
    /// the documents are the ones made whole.
    @Test func exportsMadeABookAtATimeAreTheDocumentsMadeWhole() {
        let library = variedLibrary
        let zone = Fixture.utc
        let arranged = ReadingJournal.Text.arranged(library.books, timeZone: zone)
        #expect(Set(arranged.map(\.id)) == Set(library.books.map(\.id)))
        var journal = ReadingJournal.Text(arranged, timeZone: zone)
        var csv = GoodreadsCSV.Text(timeZone: zone)
        var journalParts = Data()
        var csvParts = Data()
        for book in arranged { journalParts += journal.add(book) ?? Data() }
        for book in library.books { csvParts += csv.add(book) ?? Data() }
        journalParts += journal.end()
        csvParts += csv.end()
        let whole = ReadingJournal.markdown(library, timeZone: zone).string
        #expect(String(decoding: journalParts, as: UTF8.self) == whole)
        #expect(String(decoding: csvParts, as: UTF8.self) == GoodreadsCSV.render(library, timeZone: zone))
        // Every section, in the journal's order, each heading once.
        let headings = whole.split(separator: "\n").filter { $0.hasPrefix("## ") }
        #expect(
            headings == [
                "## Reading now", "## Finished in 2026", "## Abandoned", "## To read",
            ])
        #expect(whole.contains("僕は三十七歳で"))
    }

    @Test func journalGroupsByWhereEachBookStands() {
        let journal = ReadingJournal.markdown(library, timeZone: Fixture.utc).string
        #expect(
            journal == """
                # Reading journal

                ## Reading now

                ### Dune — Frank Herbert
                p. 100 of 412 (24%)
                Tags: sf

                > Spice, "worms",
                > and politics.

                - p. 100, Wed 18 Nov 2026: the spice

                ## Finished in 2026

                ### Emma — Jane Austen
                Finished Wed 18 Nov 2026

                - finished: lovely

                ## To read

                - Ulysses

                """)
    }

    @Test func theExportDocumentRoundTrips() throws {
        var library = library
        library.books[0].coverName = "dune.jpg"
        library.books[0].privateNotes = "lent to Sam\u{1B}[31m \\ \t \u{7F} \u{202E}"
        library.books[2].rating = 4.25
        library.books[2].readings = [
            Reading(
                started: Date(timeIntervalSince1970: -14_831_769_600),  // 1500: Foundation is Julian there
                progress: ReadingProgress(entries: [
                    .init(progress: 1e-7, page: 0, time: Date(timeIntervalSince1970: -1), note: "")
                ]),
                ending: Ending(outcome: .abandoned, date: nil, note: "🙃")),
            // 29 Feb 2000
            Reading(started: nil, ending: Ending(outcome: .finished, date: Date(timeIntervalSince1970: 951_782_400))),
        ]
        library.clubs = [
            Club(
                id: "c1", name: "Sci-fi \"club\"", description: "line\nbreak",
                meetings: [
                    Meeting(
                        id: "m1", date: Fixture.now, bookID: "aaaa1111", target: .init(page: 200, label: "part one"),
                        place: "Library")
                ]),
            Club(id: "c2", name: "Empty"),
        ]
        let document = LibraryExport(library)
        let data = try document.encoded()
        let decoded = try LibraryExport.decode(data, path: "export.json")
        #expect(decoded == document)
        #expect(try decoded.encoded() == data)
        // The hand-written document says what JSONEncoder would have said.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let reference = try decoder.decode(LibraryExport.self, from: encoder.encode(document))
        #expect(try decoder.decode(LibraryExport.self, from: data) == reference)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""time" : "1969-12-31T23:59:59Z""#))
        #expect(text.contains(#""date" : "2000-02-29T00:00:00Z""#))
        #expect(text.hasSuffix("  \"format\" : \"bookclub-export\",\n  \"version\" : 1\n}\n"))
        #expect(
            try LibraryExport(Library()).encoded()
                == Data(
                    "{\n  \"books\" : [],\n  \"clubs\" : [],\n  \"format\" : \"bookclub-export\",\n  \"version\" : 1\n}\n"
                        .utf8))
        #expect(throws: BookClubError.self) {
            try LibraryExport.decode(
                Data(#"{"format":"other","version":1,"books":[],"clubs":[]}"#.utf8), path: "x.json")
        }
        #expect(throws: BookClubError.newerSchema(path: "x.json", found: 2, supported: 1)) {
            try LibraryExport.decode(
                Data(#"{"format":"bookclub-export","version":2,"books":[],"clubs":[]}"#.utf8), path: "x.json")
        }
    }
}
