import Foundation
import Testing

@testable import BookClubCore

/// Real exports that people published, in `../shared/fixtures/imports` beside the package (see the
/// README there): every row is imported or reported as a duplicate, with the statuses its shelves
/// give. The folder is not part of the project; without it these tests are skipped, saying why.
enum RealExports {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/fixtures/imports").standardized

    static var isPresent: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path)
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// The path of a file of `../shared/fixtures`: `ereaders/kindle-2012-my-clippings.txt`.
    static func shared(_ path: String) -> String {
        folder.deletingLastPathComponent().appendingPathComponent(path).path
    }
}

@Suite(.enabled(if: RealExports.isPresent, "the real exports are not here (../shared/fixtures/imports); skipped"))
struct ImportConformanceTests {
    struct Outcome {
        var file: ImportFile
        var result: ImportResult
        var library: Library
        /// The status of every row's book, added or not.
        var statuses: [Book.Status: Int] {
            file.items.reduce(into: [:]) { $0[$1.book.status, default: 0] += 1 }
        }
    }

    func importing(_ name: String, _ format: ImportFormat, into library: Library = Library(), idPrefix: String = "b")
        throws -> Outcome
    {
        let file = try Fixture.importFile(try RealExports.data(name), format, path: name, idPrefix: idPrefix)
        var library = library
        let result = library.merge(file)
        return Outcome(file: file, result: result, library: library)
    }

    /// Every row is accounted for, a second import adds nothing, no date is made up, and the library
    /// is one the store accepts.
    func checkInvariants(_ outcome: Outcome, rows: Int, name: String, format: ImportFormat) throws {
        #expect(outcome.file.items.count == rows)
        #expect(outcome.result.added.count + outcome.result.merged.count == rows)
        let dates = outcome.library.books.flatMap { $0.readings.flatMap { [$0.started, $0.ending?.date] } }.compactMap {
            $0
        }
        #expect(!dates.contains(Fixture.now), "an unknown date stays unknown, never the time of the import")
        #expect(outcome.library.books.allSatisfy { $0.readings.allSatisfy(\.progress.entries.isEmpty) })
        _ = try LibraryExport.decode(try LibraryExport(outcome.library).encoded(), path: name)

        let again = try importing(name, format, into: outcome.library, idPrefix: "again")
        #expect(again.result.added.isEmpty)
        #expect(again.result.merged.count == rows)
        #expect(again.library == outcome.library)
    }

    @Test func goodreads2024WithTwentyFourColumns() throws {
        let outcome = try importing("goodreads-2024-24col.csv", .goodreads)
        try checkInvariants(outcome, rows: 358, name: "goodreads-2024-24col.csv", format: .goodreads)
        #expect(outcome.statuses == [.unstarted: 339, .finished: 16, .reading: 3])
        #expect(outcome.result.merged.isEmpty)
        let finished = outcome.library.books.filter { $0.status == .finished }
        #expect(
            finished.count { $0.currentReading?.ending?.date != nil } == 8, "8 read rows have a Date Read, 8 have none")
        #expect(finished.count { $0.readings.count == 2 } == 3, "three books were read twice")
        #expect(outcome.library.books.count { $0.currentRating != nil } == 9)
    }

    @Test func goodreadsLegacyWithThirtyOneColumnsAndCustomExclusiveShelves() throws {
        let name = "goodreads-legacy-31col.csv"
        let outcome = try importing(name, .goodreads)
        try checkInvariants(outcome, rows: 1_197, name: name, format: .goodreads)

        // The exclusive shelves, counted from the file itself, and the status each maps to.
        let table = try CSVTable(parsing: try RealExports.data(name), path: name)
        let column = try #require(table.header.firstIndex(of: "Exclusive Shelf"))
        let shelves = table.rows.reduce(into: [String: Int]()) { $0[$1.fields[column], default: 0] += 1 }
        #expect(
            shelves == [
                "read": 866, "to-read": 277, "to-read-non-fiction": 29, "want-to-finish-eventually": 12,
                "wont-finish": 9,
                "currently-reading": 4,
            ])
        let mapping: [String: Book.Status] = [
            "read": .finished, "to-read": .unstarted, "to-read-non-fiction": .unstarted,
            "want-to-finish-eventually": .unstarted,
            "wont-finish": .abandoned, "currently-reading": .reading,
        ]
        let expected = shelves.reduce(into: [Book.Status: Int]()) { $0[mapping[$1.key]!, default: 0] += $1.value }
        #expect(outcome.statuses == expected)
        #expect(outcome.statuses == [.finished: 866, .unstarted: 318, .abandoned: 9, .reading: 4])
        for custom in ["to-read-non-fiction", "want-to-finish-eventually"] {
            #expect(
                outcome.file.items.count { $0.book.tags.contains(custom) } == shelves[custom], "\(custom) becomes a tag"
            )
        }
        #expect(!outcome.file.items.contains { $0.book.tags.contains("wont-finish") })

        // Two books are listed twice, once without an ISBN: the later row is reported, with the earlier.
        #expect(
            outcome.result.merged.map { "\($0.item.book.title) \($0.matchLine ?? 0) \($0.reason)" }.sorted() == [
                "Northanger Abbey 924 titleAndAuthor", "The Queue 43 titleAndAuthor",
            ])
        // The Book of Negroes is listed twice with two ISBNs: two editions, both kept.
        #expect(outcome.library.books.count { $0.title == "The Book of Negroes" } == 2)
        #expect(outcome.file.items.count { $0.book.currentReview != nil } == 100)
    }

    @Test func storyGraph() throws {
        let outcome = try importing("storygraph.csv", .storygraph)
        try checkInvariants(outcome, rows: 193, name: "storygraph.csv", format: .storygraph)
        #expect(outcome.statuses == [.unstarted: 128, .finished: 64, .abandoned: 1])
        #expect(outcome.result.merged.isEmpty)
        #expect(
            outcome.library.books.count { $0.isbn == nil } == 13,
            "11 rows without an ISBN/UID, an ASIN, an ISBN cut short")
        #expect(
            outcome.file.book("84, Charing Cross Road")?.isbn == "0140143505", "a leading zero a spreadsheet dropped")
        #expect(outcome.library.books.contains { $0.currentRating == 4.25 })
        let finished = outcome.library.books.filter { $0.status == .finished }
        #expect(finished.count { $0.currentReading?.ending?.date != nil } == 59, "5 read rows have no dates")
        #expect(
            finished.count { $0.currentReading?.started != nil } == 33, "the ranges, but one that ends before it starts"
        )
    }

    @Test func aGoodreadsAndAStoryGraphExportOfTheSameShelfOverlap() throws {
        // bsanser/mapmyreads published both exports of one reader: the StoryGraph one matches by ISBN
        // what it shares with the Goodreads one.
        let goodreads = try importing("goodreads-2024-24col.csv", .goodreads)
        let both = try importing("storygraph.csv", .storygraph, into: goodreads.library, idPrefix: "s")
        #expect(both.result.added.count + both.result.merged.count == 193)
        #expect(both.result.merged.count == 129, "two of them match only once runs of spaces in names are made one")
        #expect(both.result.merged.allSatisfy { $0.matchIsInStore })
    }
}
