import Foundation
import Testing

@testable import BookClubCore

/// The rule of imports: after an import, every non-empty value of every row of the file can be
/// found in `export --format json`, for each real export, imported twice, and Goodreads followed by
/// StoryGraph: nothing a reader kept is lost.
@Suite(.enabled(if: RealExports.isPresent, "the real exports are not here (../shared/fixtures/imports); skipped"))
struct ImportRuleTests {
    /// Every string (and number, as text) in a JSON value, with runs of white space made one.
    static func leaves(_ value: Any) -> [String] {
        switch value {
        case let text as String: [normal(text)]
        case let number as NSNumber: [number.stringValue]
        case let array as [Any]: array.flatMap(leaves)
        case let object as [String: Any]: object.values.flatMap(leaves)
        default: []
        }
    }

    static func normal(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// What a row's book says, from the export JSON of that book alone.
    struct Exported {
        var object: [String: Any]
        var leaves: [String]

        init(_ book: Book) throws {
            let data = try LibraryExport(Library(books: [book])).encoded()
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            object = try #require((document["books"] as? [[String: Any]])?.first)
            leaves = ImportRuleTests.leaves(object)
        }

        func contains(_ text: String) -> Bool {
            let needle = ImportRuleTests.normal(text)
            return leaves.contains { $0.contains(needle) }
        }

        var readings: [[String: Any]] { object["readings"] as? [[String: Any]] ?? [] }

        var ratings: [Double] {
            ([object["rating"]] + readings.map { ($0["ending"] as? [String: Any])?["rating"] }).compactMap {
                $0 as? Double
            }
        }
    }

    /// The values of `row` that `exported` does not hold, as `column: value`.
    static func missing(_ fields: [String: String], format: ImportFormat, in exported: Exported) -> [String] {
        var missing: [String] = []
        for (column, raw) in fields {
            var value = raw.trimmed
            if value.hasPrefix("=\""), value.hasSuffix("\""), value.count >= 3 {
                value = String(value.dropFirst(2).dropLast())
            }
            guard !value.isEmpty else { continue }
            let found: Bool
            switch column {
            case "My Rating", "Star Rating":
                let rating = Double(value) ?? -1
                found = rating == 0 || exported.ratings.contains(rating) || exported.contains(value)
            case "Read Count":
                let details = exported.object["details"] as? [String: [String]] ?? [:]
                found =
                    exported.readings.count >= Int(value) ?? 0
                    || details.contains { $0.key.hasSuffix(":Read Count") && $0.value.contains(value) }
            case "Date Read", "Date Added", "Last Date Read":
                found = exported.contains(value.replacing("/", with: "-"))
            case "Dates Read":
                found =
                    exported.contains(value)
                    || value.split(whereSeparator: { $0 == "," || $0 == "-" }).allSatisfy {
                        exported.contains(String($0).trimmed.replacing("/", with: "-"))
                    }
            case "Bookshelves", "Tags", "Moods", "Additional Authors", "Contributors":
                found = value.split(separator: ",").allSatisfy { item in
                    String(item).replacing("(", with: ",").replacing(")", with: ",").split(separator: ",").map {
                        String($0).trimmed
                    }
                    .filter { !$0.isEmpty }.allSatisfy { exported.contains($0) }
                }
            case "Exclusive Shelf", "Read Status":
                // The status shelves are the status; any other is a tag.
                found =
                    ["to-read", "read", "currently-reading", "did-not-finish", "paused"].contains(value.lowercased())
                    || exported.contains(value)
            case _ where column.lowercased().hasPrefix("isbn"):
                found = exported.contains(ISBN.cleaned(value) ?? value)
            default:
                found = exported.contains(value)
            }
            if !found { missing.append("\(column): \(value.prefix(60))") }
        }
        return missing
    }

    /// Imports each file in turn into one library, twice, and checks every row against the export.
    func check(_ files: [(String, ImportFormat)]) throws {
        var library = Library()
        var rows: [(name: String, line: Int, fields: [String: String], bookID: Book.ID, format: ImportFormat)] = []
        for (round, (name, format)) in (files + files).enumerated() {
            let data = try RealExports.data(name)
            let file = try Fixture.importFile(data, format, path: name, idPrefix: "r\(round)-")
            let before = library
            let result = library.merge(file)
            if round >= files.count {
                #expect(result.added.isEmpty, "\(name) again adds nothing")
                #expect(library == before, "\(name) again changes nothing")
            }
            let table = try CSVTable(parsing: data, path: name)
            var bookOfLine: [Int: Book.ID] = [:]
            for item in result.added { bookOfLine[item.line!] = item.book.id }
            for merged in result.merged { bookOfLine[merged.item.line!] = merged.match.id }
            for row in table.rows {
                let fields = Dictionary(
                    zip(table.header.map(\.trimmed), row.fields), uniquingKeysWith: { first, _ in first })
                rows.append((name, row.line, fields, try #require(bookOfLine[row.line]), format))
            }
        }
        var problems: [String] = []
        var exported: [Book.ID: Exported] = [:]
        for row in rows {
            guard let book = library[id: row.bookID] else {
                problems.append("\(row.name):\(row.line): its book is gone")
                continue
            }
            let export = try exported[row.bookID] ?? Exported(book)
            exported[row.bookID] = export
            for missing in Self.missing(row.fields, format: row.format, in: export) {
                problems.append("\(row.name):\(row.line): \(missing)")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) values not found, first: \(problems.prefix(8))")
        #expect(rows.count > 0)
    }

    @Test func goodreadsLegacyLosesNothing() throws { try check([("goodreads-legacy-31col.csv", .goodreads)]) }

    @Test func goodreads2024LosesNothing() throws { try check([("goodreads-2024-24col.csv", .goodreads)]) }

    @Test func storyGraphLosesNothing() throws { try check([("storygraph.csv", .storygraph)]) }

    @Test func goodreadsThenStoryGraphLoseNothing() throws {
        try check([("goodreads-2024-24col.csv", .goodreads), ("storygraph.csv", .storygraph)])
    }

    @Test func allThreeLoseNothing() throws {
        try check([
            ("goodreads-legacy-31col.csv", .goodreads), ("goodreads-2024-24col.csv", .goodreads),
            ("storygraph.csv", .storygraph),
        ])
    }
}

/// The rows the issue found lost, found.
@Suite(.enabled(if: RealExports.isPresent, "the real exports are not here (../shared/fixtures/imports); skipped"))
struct ImportMergeRowsTests {
    func library(_ files: [(String, ImportFormat)]) throws -> Library {
        var library = Library()
        for (index, (name, format)) in files.enumerated() {
            _ = library.merge(
                try Fixture.importFile(try RealExports.data(name), format, path: name, idPrefix: "f\(index)-"))
        }
        return library
    }

    func book(_ library: Library, _ title: String) throws -> Book {
        try #require(library.books.first { $0.title.lowercased().hasPrefix(title) })
    }

    @Test func aReReadIsASecondReadingAndARatedReadFillsAnUndatedShelving() throws {
        let library = try library([("goodreads-legacy-31col.csv", .goodreads)])
        let northanger = try book(library, "northanger abbey")
        #expect(northanger.readings.count == 2, "the 2016 Kindle read and the 2019 re-read")
        #expect(northanger.readings.map { $0.ending?.date.map { Fixture.utc.local($0).year } } == [2016, 2019])
        #expect(northanger.currentRating == 5)
        #expect(northanger.tags.contains("re-read"))
        #expect(northanger.details?["goodreads:Binding"]?.contains("Paperback") == true)
        let queue = try book(library, "the queue")
        #expect(queue.readings.count == 1)
        #expect(queue.readings[0].ending?.date == Fixture.day("2018-11-21"))
        #expect(queue.currentRating == 4)
        #expect((queue.currentReview?.count ?? 0) > 400)
    }

    @Test func storyGraphAfterGoodreadsFillsWhatItKnewMore() throws {
        let library = try library([("goodreads-legacy-31col.csv", .goodreads), ("storygraph.csv", .storygraph)])
        let neverwhere = try book(library, "neverwhere")
        #expect(neverwhere.status == .finished)
        #expect(neverwhere.readings.last?.started == Fixture.day("2023-05-23"))
        #expect(neverwhere.readings.last?.ending?.date == Fixture.day("2023-06-07"))
        let trees = try book(library, "the island of missing trees")
        #expect(trees.currentRating != nil)
    }

    @Test func contributorsKeepTheirRoles() throws {
        let library = try library([("storygraph.csv", .storygraph)])
        let narrated = library.books.flatMap { $0.contributors ?? [] }
        #expect(narrated.contains(Contributor(name: "Shvorne Marks", role: "Narrator")))
        let goodreads = try self.library([("goodreads-2024-24col.csv", .goodreads)])
        #expect(
            goodreads.books.contains { $0.contributors?.contains(Contributor(name: "Amy Wallace")) == true },
            "runs of spaces made one")
    }
}
