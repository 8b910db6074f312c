import BookClubCore
import Foundation
import Testing

/// A book's readings as text, oldest first: `finished ?–2019-12-30` (`?`: unknown).
func history(_ book: Book?) -> [String] {
    func day(_ date: Date?) -> String {
        guard let date else { return "?" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")!
        return formatter.string(from: date)
    }
    return (book?.readings ?? []).map { "\($0.status.rawValue) \(day($0.started))–\(day($0.ending?.date))" }
}

extension ImportFile {
    func book(_ title: String) -> Book? {
        items.first { $0.book.title == title }?.book
    }
}

/// The Goodreads importer over the three generations of its header, each in a hand-written file.
@Suite struct GoodreadsImportTests {
    @Test func theLegacyThirtyOneColumnExport() throws {
        let file = try Fixture.importFile(try Fixture.export("goodreads-31.csv"), .goodreads)
        #expect(file.items.map(\.line) == [2, 4, 5, 6, 7, 8, 9, 10, 11], "a review with a line break spans two lines")
        #expect(file.items.map(\.book.id) == (1...9).map { "b\($0)" })

        let left = try #require(file.book("The Left Hand of Darkness"))
        #expect(left.author == "Ursula K. Le Guin")
        #expect(left.isbn == "9780441478125", "ISBN13, unwrapped from =\"...\"")
        #expect(left.pages == 304)
        #expect(left.currentRating == 5)
        #expect(left.tags == ["fiction", "sci-fi"], "custom shelves become tags; the read shelf does not")
        #expect(left.added == Fixture.day("2019-11-02"))
        #expect(
            left.currentReview == """
                Genly Ai on Gethen.<br/><br/>"The only thing that makes life possible is permanent, intolerable uncertainty."
                A line break the review kept.
                """)
        #expect(history(left) == ["finished ?–2019-12-30"])

        let dune = try #require(file.book("Dune"))
        #expect(dune.pages == nil, "an empty page count is unknown")
        #expect(dune.privateNotes == "Lent to Sam")
        #expect(dune.tags == ["re-read", "sci-fi"])
        #expect(
            history(dune) == ["finished ?–?", "finished ?–?"],
            "read twice, Date Read empty: both dates unknown, never today")

        let kindred = try #require(file.book("Kindred"))
        #expect(kindred.currentRating == nil, "My Rating 0 is unrated")
        #expect(kindred.author == "Octavia E. Butler", "runs of spaces in names are made one")
        #expect(
            history(kindred) == ["finished ?–?", "finished ?–?", "finished ?–2020-03-01"],
            "Date Read is the last reading's")

        let antiracist = try #require(file.book("How to Be an Antiracist"))
        #expect(history(antiracist) == ["reading ?–?"])
        #expect(antiracist.readings.first?.progress.entries == [])
        #expect(antiracist.tags == ["non-fiction"])

        let night = try #require(file.book("It Walks by Night"))
        #expect(night.isbn == nil && night.pages == nil && night.readings.isEmpty && night.tags.isEmpty)
        #expect(night.status == .unstarted)

        let children = try #require(file.book("Children of the Mind"))
        #expect(history(children) == ["abandoned ?–2020-04-02"], "wont-finish is a did-not-finish shelf")
        #expect(children.tags.isEmpty, "the shelf that gave the status is not a tag too")

        let novel = try #require(file.book("How to Read a Novel"))
        #expect(novel.status == .unstarted, "want-to-finish-eventually is a custom shelf, not a did-not-finish one")
        #expect(novel.tags == ["want-to-finish-eventually", "non-fiction"])

        let silmarillion = try #require(file.book("The Silmarillion"))
        #expect(history(silmarillion) == ["abandoned ?–?"])
        #expect(silmarillion.currentRating == 2)

        #expect(
            file.book("the left hand of darkness")?.isbn == nil,
            "titles are trimmed; the duplicate is left to the merge")
    }

    @Test func theTwentyFourColumnExportWithCRLFAndAByteOrderMark() throws {
        let file = try Fixture.importFile(try Fixture.export("goodreads-24.csv"), .goodreads)
        #expect(file.items.map(\.line) == [2, 3, 4, 5, 6])
        let silk = try #require(file.book("The Silk Roads: A New History of the World"))
        #expect(history(silk) == ["abandoned ?–?"], "a custom exclusive shelf dnf")
        #expect(silk.tags == ["history"])
        #expect(history(file.book("The Design of Everyday Things")) == ["abandoned ?–2025-01-10"])
        let capital = try #require(file.book("Capital in the Twenty First Century"))
        #expect(capital.status == .unstarted && capital.readings.isEmpty, "to-read wins over a read count")
        #expect(capital.isbn == "067443000X", "ISBN when ISBN13 is empty")
        #expect(capital.tags == ["economics"])
        let piranesi = try #require(file.book("Piranesi"))
        #expect(piranesi.currentReview == "A <i>house</i> of endless halls &amp; tides.", "HTML is kept as written")
        #expect(piranesi.currentRating == 3)
        #expect(history(piranesi) == ["finished ?–2024-01-31"])
        #expect(history(file.book("The Hunger Games")) == ["reading ?–?"])
    }

    @Test func theTwentyThreeColumnExportWithoutAFinalLineBreak() throws {
        let file = try Fixture.importFile(try Fixture.export("goodreads-23.csv"), .goodreads)
        #expect(file.items.count == 3)
        let hailMary = try #require(file.book("Project Hail Mary"))
        #expect(hailMary.privateNotes == "Lend to Ana, ask for it back")
        #expect(hailMary.currentReview == "Rocky!")
        #expect(hailMary.tags == ["sci-fi", "book-club"])
        #expect(history(hailMary) == ["finished ?–2026-01-04"])
        #expect(file.book("The Great Gatsby")?.status == .unstarted)
        #expect(history(file.book("Pride and Prejudice")) == ["abandoned ?–2026-02-01"])
    }

    @Test(arguments: [
        ("dnf", Book.Status.abandoned), ("DNF 2020", .abandoned), ("did-not-finish", .abandoned),
        ("wont-finish", .abandoned),
        ("won't finish", .abandoned), ("abandoned", .abandoned), ("gave-up", .abandoned), ("read", .finished),
        ("currently-reading", .reading), ("to-read", .unstarted), ("want-to-finish-eventually", .unstarted),
        ("to-read-non-fiction", .unstarted), ("favourites", .unstarted),
    ])
    func exclusiveShelvesBecomeStatuses(_ shelf: String, _ status: Book.Status) throws {
        // Columns are found by name: a file with only the required ones reads.
        let csv = "Exclusive Shelf,Title,Author\n\"\(shelf)\",Dune,Frank Herbert\n"
        let book = try #require(try Fixture.importFile(Data(csv.utf8), .goodreads).items.first?.book)
        #expect(book.status == status)
        let isCustom = ![.abandoned].contains(status) && !["read", "currently-reading", "to-read"].contains(shelf)
        #expect(book.tags == (isCustom ? [shelf] : []))
        #expect(book.added == Fixture.now, "no Date Added column: added at the import")
    }
}

/// The StoryGraph importer, over a hand-written export.
@Suite struct StoryGraphImportTests {
    @Test func everyRowOfTheExport() throws {
        let file = try Fixture.importFile(try Fixture.export("storygraph.csv"), .storygraph)
        #expect(file.items.map(\.line) == [2, 4, 5, 6, 7, 8, 9, 10, 11])

        let freakonomics = try #require(file.book("Freakonomics"))
        #expect(freakonomics.author == "Steven D. Levitt, Stephen J. Dubner")
        #expect(freakonomics.isbn == "9780060731328")
        #expect(freakonomics.currentRating == 4.25)
        #expect(freakonomics.currentReview == "Clever.\nToo clever, maybe.")
        #expect(freakonomics.tags == ["economics", "favourites"])
        #expect(freakonomics.added == Fixture.day("2023-05-01"))
        #expect(history(freakonomics) == ["finished 2023-05-23–2023-06-07"])

        #expect(file.book("Shuggie Bain")?.readings.isEmpty == true)
        let secret = try #require(file.book("The Secret History"))
        #expect(history(secret) == ["abandoned ?–2021-07-11"])
        #expect(secret.tags == ["almost-finished"])
        #expect(history(file.book("El guardián invisible")) == ["finished ?–?", "finished 2025-05-26–2025-06-11"])
        #expect(
            history(file.book("Dream Count")) == ["finished ?–2025-04-04"],
            "a range that ends before it starts keeps its end")
        let dawn = try #require(file.book("The Dawn of Everything"))
        #expect(dawn.isbn == nil, "an ASIN is not an ISBN")
        #expect(dawn.author == "David Graeber, David Wengrow")
        #expect(
            history(file.book("Middlemarch")) == ["reading 2025-07-06–?"],
            "a single day of a book being read is its start")
        #expect(
            history(file.book("Persuasion")) == ["finished 2022-01-03–2022-01-08", "finished 2024-03-10–2024-03-15"])
        #expect(file.book("Persuasion")?.currentRating == 3.5)
        #expect(history(file.book("Stoner")) == ["finished ?–2022-09-17"], "Last Date Read when Dates Read is empty")
    }

    @Test(arguments: [
        ("paused", Book.Status.reading, [String]()), ("dnf", .abandoned, []), ("owned", .unstarted, ["owned"]),
    ])
    func otherStatuses(_ readStatus: String, _ status: Book.Status, _ tags: [String]) throws {
        let csv = "Title,Authors,Read Status\nDune,Frank Herbert,\(readStatus)\n"
        let book = try #require(try Fixture.importFile(Data(csv.utf8), .storygraph).items.first?.book)
        #expect(book.status == status)
        #expect(book.tags == tags)
    }
}

/// Files that are not what they claim to be, and values that cannot be read, are refused whole.
@Suite struct ImportRefusalTests {
    @Test(arguments: [
        (
            "Title,Author\nDune,Frank Herbert\n", ImportFormat.goodreads,
            "export.csv: line 1: not a Goodreads export (no `Exclusive Shelf` column); nothing was imported."
        ),
        (
            "Title,Authors,Read Status\nDune,Frank Herbert,read\n", .goodreads,
            "export.csv: line 1: not a Goodreads export (no `Author` column); it looks like a StoryGraph export: try `bookclub import storygraph FILE`; nothing was imported."
        ),
        (
            "Title,Author,Exclusive Shelf\nDune,Frank Herbert,read\n", .storygraph,
            "export.csv: line 1: not a StoryGraph export (no `Authors` column); it looks like a Goodreads export: try `bookclub import goodreads FILE`; nothing was imported."
        ),
        (
            "{\"format\": \"bookclub-export\"}\n", .goodreads,
            "export.csv: line 1: not a Goodreads export (no `Title` column); nothing was imported."
        ),
        (
            "Title,Author,Exclusive Shelf,Number of Pages\nDune,Frank Herbert,read,many\n", .goodreads,
            "export.csv: line 2: `Number of Pages` is 'many', not a whole number from 0 to 100000; nothing was imported."
        ),
        (
            "Title,Author,Exclusive Shelf,Date Read\nDune,Frank Herbert,read,2024/02/30\n", .goodreads,
            "export.csv: line 2: `Date Read` is '2024/02/30', not a date (YYYY/MM/DD); nothing was imported."
        ),
        (
            "Title,Author,Exclusive Shelf,My Rating\nDune,Frank Herbert,read,7\n", .goodreads,
            "export.csv: line 2: `My Rating` is '7', not a whole number from 0 to 5; nothing was imported."
        ),
        (
            "Title,Author,Exclusive Shelf\n  ,Frank Herbert,read\n", .goodreads,
            "export.csv: line 2: no `Title`; nothing was imported."
        ),
        (
            "Title,Author,Exclusive Shelf,Read Count\nDune,Frank Herbert,read,1000000\n", .goodreads,
            "export.csv: line 2: `Read Count` is '1000000', not a whole number from 0 to 100; nothing was imported."
        ),
        (
            "Title,Author,Exclusive Shelf,Date Added\nDune,Frank Herbert,read,\(String(repeating: "9", count: 60))\n",
            .goodreads,
            "export.csv: line 2: `Date Added` is '\(String(repeating: "9", count: 40))…', not a date (YYYY/MM/DD); nothing was imported."
        ),
        (
            "Title,Authors,Read Status,Star Rating\nDune,Frank Herbert,read,nan\n", .storygraph,
            "export.csv: line 2: `Star Rating` is 'nan', not a number from 0.0 to 5.0; nothing was imported."
        ),
        (
            "Title,Authors,Read Status,Dates Read\nDune,Frank Herbert,read,2024/01/01-2024/01/02-2024/01/03\n",
            .storygraph,
            "export.csv: line 2: `Dates Read` holds '2024/01/01-2024/01/02-2024/01/03', not a day or a range of days; nothing was imported."
        ),
    ])
    func refused(_ csv: String, _ format: ImportFormat, _ message: String) throws {
        let error = try #require(throws: BookClubError.self) { try Fixture.importFile(Data(csv.utf8), format) }
        #expect(error.localizedDescription == message)
        #expect(error.kind == .dataFile)
    }

    @Test func aJSONDocumentThatIsNotAnExport() throws {
        let error = try #require(throws: BookClubError.self) {
            try Fixture.importFile(Data(#"{"schemaVersion": 2, "books": []}"#.utf8), .json, path: "store.json")
        }
        #expect(error.kind == .dataFile)
        #expect(error.localizedDescription.hasPrefix("store.json: "))
    }
}

@Suite struct ISBNTests {
    @Test(
        arguments: [
            ("=\"0140236666\"", "0140236666"), ("=\"\"", nil), ("", nil), ("9780140236668", "9780140236668"),
            ("978-0-14-023666-8", "9780140236668"), ("067443000x", "067443000X"), ("B07MNWKF2M", nil), ("123", nil),
            ("140143505", "0140143505"), ("38549081", nil),
        ] as [(String, String?)])
    func cellsAreUnwrappedAndOnlyISBNsKept(_ cell: String, _ isbn: String?) {
        #expect(ISBN.cleaned(cell) == isbn)
    }

    @Test func anISBN10MatchesItsISBN13() {
        #expect(ISBN.matchKey("0-441-17271-7") == "9780441172719")
        #expect(ISBN.matchKey("067443000X") == "9780674430006")
        #expect(ISBN.matchKey("9780441172719") == "9780441172719")
        #expect(ISBN.matchKey("n/a") == nil)
    }
}

/// Merging an import into a library: one change, duplicates skipped and reported with their match.
@Suite struct ImportMergeTests {
    @Test func aRowRepeatingAnEarlierOneIsSkippedAndReported() throws {
        var library = Library()
        let result = library.merge(try Fixture.importFile(try Fixture.export("goodreads-31.csv"), .goodreads))
        #expect(result.added.count == 8)
        #expect(library.books.map(\.id) == (1...8).map { "b\($0)" })
        let skipped = try #require(result.merged.first)
        #expect(result.merged.count == 1)
        #expect(skipped.item.line == 11)
        #expect(skipped.match.id == "b1")
        #expect(skipped.matchLine == 2)
        #expect(!skipped.matchIsInStore)
        #expect(skipped.reason == .titleAndAuthor)
    }

    @Test(arguments: ["goodreads-31.csv", "goodreads-24.csv", "goodreads-23.csv", "storygraph.csv"])
    func importingTheSameFileTwiceAddsNothing(_ name: String) throws {
        let format: ImportFormat = name.hasPrefix("goodreads") ? .goodreads : .storygraph
        var library = Library()
        let first = library.merge(try Fixture.importFile(try Fixture.export(name), format))
        let before = library
        let second = library.merge(try Fixture.importFile(try Fixture.export(name), format, idPrefix: "c"))
        #expect(library == before)
        #expect(second.added.isEmpty)
        #expect(second.merged.count == first.added.count + first.merged.count)
        #expect(second.merged.allSatisfy { $0.matchIsInStore })
        for skipped in second.merged {
            let expected: Set<ImportResult.MatchReason> =
                skipped.item.book.isbn == nil ? [.titleAndAuthor, .externalID] : [.isbn]
            #expect(expected.contains(skipped.reason), "\(skipped.item.book.title)")
            #expect(!skipped.changedTheBook, "a second import changes nothing")
        }
    }

    @Test func matchingGoesByISBNElseByTitleAndAuthor() throws {
        var library = Library(books: [
            Book(
                id: "s1", title: "Dune (Dune Chronicles #1)", author: "Frank Herbert", isbn: "0-441-17271-7",
                added: Fixture.now),
            Book(id: "s2", title: "KINDRED", author: " octavia e. butler", added: Fixture.now),
            Book(
                id: "s3", title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", isbn: "9999999999999",
                added: Fixture.now),
        ])
        let result = library.merge(try Fixture.importFile(try Fixture.export("goodreads-31.csv"), .goodreads))
        let matches = Dictionary(
            uniqueKeysWithValues: result.merged.map { ($0.item.book.title, "\($0.match.id) \($0.reason)") })
        #expect(matches["Dune"] == "s1 isbn", "an ISBN-10 matches its ISBN-13, whatever the titles")
        #expect(
            matches["Kindred"] == "s2 titleAndAuthor",
            "no ISBN in the store: title and author, ignoring case and spaces")
        #expect(matches["The Left Hand of Darkness"] == nil, "two ISBNs that differ are two books")
        #expect(
            matches["the left hand of darkness"] == "s3 titleAndAuthor",
            "a row without an ISBN matches on title and author")
        #expect(result.added.contains { $0.book.title == "The Left Hand of Darkness" })
    }

    @Test func aJSONExportImportedIntoAnEmptyStoreComesBackWhole() throws {
        let original = Self.exportedLibrary
        let document = try LibraryExport(original).encoded()
        var library = Library()
        let result = library.merge(try Fixture.importFile(document, .json, path: "export.json"))
        #expect(result.added.map(\.book.id) == ["d1", "d2"])
        #expect(result.addedClubs.map(\.id) == ["c1"])
        #expect(library == original)
        #expect(try LibraryExport(library).encoded() == document)

        let again = library.merge(try Fixture.importFile(document, .json, path: "export.json"))
        #expect(library == original)
        #expect(again.merged.map(\.reason) == [.id, .id])
        #expect(again.skippedClubs.map(\.id) == ["c1"])
    }

    @Test func aClubOfAJSONExportFollowsItsBookToTheOneAlreadyInTheStore() throws {
        let document = try LibraryExport(Self.exportedLibrary).encoded()
        var library = Library(books: [
            Book(id: "mine", title: "Dune", author: "Frank Herbert", isbn: "9780441172719", added: Fixture.now)
        ])
        let result = library.merge(try Fixture.importFile(document, .json, path: "export.json"))
        #expect(result.merged.map { "\($0.item.book.id) \($0.match.id) \($0.reason)" } == ["d1 mine isbn"])
        #expect(library.books.map(\.id) == ["mine", "d2"])
        #expect(library.clubs.first?.meetings.first?.bookID == "mine")
    }

    static var exportedLibrary: Library {
        let reading = Reading(
            started: Fixture.day("2026-10-01"),
            progress: ReadingProgress(entries: [
                .init(progress: 0.25, page: 103, time: Fixture.day("2026-10-02"), note: "the spice"),
                .init(progress: 0.5, page: 206, time: Fixture.day("2026-10-09")),
            ]),
            ending: Ending(outcome: .finished, date: Fixture.day("2026-10-20"), note: "done"))
        return Library(
            books: [
                Book(
                    id: "d1", title: "Dune", author: "Frank Herbert", pages: 412, isbn: "9780441172719", tags: ["sf"],
                    rating: 4.5,
                    review: "<b>Yes</b>", privateNotes: "lent", added: Fixture.day("2026-09-01"),
                    readings: [Reading(started: nil, ending: Ending(outcome: .finished, date: nil)), reading]),
                Book(id: "d2", title: "Kindred", added: Fixture.day("2026-09-02")),
            ],
            clubs: [
                Club(
                    id: "c1", name: "Sci-Fi",
                    meetings: [Meeting(id: "m1", date: Fixture.day("2026-12-03"), bookID: "d1")])
            ])
    }
}
