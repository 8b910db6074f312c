import Foundation
import Testing

@testable import BookClubCore

/// `STORE.names`, the index of titles: a book named by a whole title or an id prefix is found in it,
/// and it finds exactly what the search of every book finds, or leaves the reference to that search.
@Suite struct NameIndexTests {
    let path = "/data/store.json"
    let titles = [
        "Dune", "Dune Messiah", "ノルウェイの森", "Caf\u{E9}", "Cafe\u{301}", "Book 📚", "كتاب الرمل", "A;B", "Twin", "Twin",
        "Tab\there",
        // Twins of the two ASCII characters that a character of other bytes is the same text as.
        "C;D", "C\u{37E}D", "E`F", "E\u{1FEF}F",
    ]

    /// A store of these books, ids `b0000` ..., written in one save (a new snapshot, with its index).
    func shelf(files: FileSystem = .inMemory()) throws -> LibraryStorage {
        let storage = LibraryStorage(path: path, fileSystem: files)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update {
            for (index, title) in titles.enumerated() {
                $0.addBook(Fixture.book(title, id: String(format: "b%04d", index)))
            }
            // An id of several words, looked up as an id in the walk that looks for it as a title.
            $0.addBook(Fixture.book("Spaced", id: "a b c"))
        }
        try store.save()
        return storage
    }

    /// The id of the book a scoped load by `reference` holds, or the error it fails with.
    func scoped(_ storage: LibraryStorage, _ reference: String) -> String {
        do {
            let store = try Store(persistence: storage.persistence(lockTimeout: nil, scope: .book(named: reference)))
            return store.state.books.map(\.id).joined(separator: ",")
        } catch {
            return "\(error)"
        }
    }

    /// The same, as the whole library resolves it.
    func resolved(_ storage: LibraryStorage, _ reference: String) -> String {
        do {
            return try Store(persistence: storage.persistence(lockTimeout: nil)).state.resolve(reference).id
        } catch {
            return "\(error)"
        }
    }

    let references = [
        "dune", "DUNE", " Dune ", "dune messiah", "ノルウェイの森", "caf\u{E9}", "cafe\u{301}", "book 📚", "كتاب الرمل", "a;b",
        "a\u{37E}b", "twin", "tab\there", "c;d", "c\u{37E}d", "e`f", "b0001", "b000", "b00", "B0003", "nothing", "dun",
        "messiah", "كتاب",
    ]

    /// Where the index says the book of this id begins in the snapshot.
    func offset(_ index: String, _ id: String) throws -> Int {
        let line = try #require(index.split(separator: "\n").first { $0.hasPrefix("\(id)\t") })
        return try #require(Int(line.split(separator: "\t")[1]))
    }

    @Test func theIndexFindsWhatTheSearchOfEveryBookFinds() throws {
        let storage = try shelf()
        let index = String(decoding: try #require(try storage.fileSystem.read(storage.namesPath)), as: UTF8.self)
        let snapshot = try #require(try storage.fileSystem.read(storage.path))
        #expect(index.hasPrefix(#"{"lines":"id offset characters title","snapshot":""#))
        #expect(index.contains("\nb0000\t16\t-\t\"dune\"\n"), "the first book, after `{` and `  \"books\" : [`")
        #expect(index.contains("\nb0002\t\(try offset(index, "b0002"))\t7\t\"ノルウェイの森\"\n"))
        #expect(index.contains("\nb0010\t\(try offset(index, "b0010"))\t-\t\"tab\\there\"\n"))
        for id in ["b0000", "b0002", "b0010"] {
            let at = try offset(index, id)
            let book = try #require(
                String(decoding: snapshot[at...], as: UTF8.self).components(separatedBy: "\n    }").first)
            #expect(book.hasPrefix("    {\n") && book.contains("\"id\" : \"\(id)\""), "\(id): \(book)")
        }
        for reference in references {
            #expect(scoped(storage, reference) == resolved(storage, reference), "\(reference)")
        }
        #expect(scoped(storage, "dune") == "b0000")
        #expect(scoped(storage, "a b c") == "a b c" && resolved(storage, "a b c") == "a b c")
        #expect(scoped(storage, "ノルウェイの森") == "b0002")
        #expect(scoped(storage, "caf\u{E9}").hasPrefix("ambiguousBook"), "composed or not, the same title")
        #expect(scoped(storage, "c;d").hasPrefix("ambiguousBook"), "a title of other bytes that is the same text")
        #expect(scoped(storage, "e`f").hasPrefix("ambiguousBook"))

        // Changes in the journal stand over the index: a renamed book, a removed one, a new one.
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update {
            $0.books[0].title = "Arrakis"
            _ = $0.removeBook(id: "b0008")
            $0.addBook(Fixture.book("Dune", id: "b0100"))
            $0.addBook(Fixture.book("Ω", id: "e000"))
        }
        try store.save()
        let journal = String(decoding: try #require(try storage.fileSystem.read(storage.journalPath)), as: UTF8.self)
        #expect(journal.contains("Arrakis"), "the change was appended to the journal, under the same snapshot")
        for reference in references + ["arrakis", "e000", "b010", "ω"] {
            #expect(scoped(storage, reference) == resolved(storage, reference), "\(reference)")
        }
        #expect(scoped(storage, "dune") == "b0100")
        #expect(scoped(storage, "twin") == "b0009")
    }

    /// A title is looked up in the index read again whole (a copy costs less than faulting in every
    /// page of the mapping): what that read finds is checked as the first was.
    @Test func aTitleIsLookedUpInTheIndexAsItIsWhenAsked() throws {
        let storage = try shelf()
        let files = storage.fileSystem
        let text = try #require(try files.read(storage.namesPath))
        let header = Data(text.prefix { $0 != 0x0A })
        let index = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: files))
        #expect(index.books(named: "dune")?.titled.map(\.id) == ["b0000"])
        #expect(index.offset(of: "b0002") != nil)
        // Cut meanwhile, then replaced by the index of another snapshot.
        try files.replace(storage.namesPath, Data(text.dropLast(10)))
        #expect(index.books(named: "dune").map { $0.titled.map(\.id) } == nil, "its seal fails")
        try files.replace(storage.namesPath, Data("{}".utf8) + text.drop { $0 != 0x0A })
        #expect(index.books(named: "dune").map { $0.titled.map(\.id) } == nil, "of another snapshot")
        #expect(index.offset(of: "b0002") != nil, "an id is looked up in the index as it was mapped")
    }

    @Test func anIndexIsNeverTrustedOverTheBooksItIndexes() throws {
        let storage = try shelf()
        let files = storage.fileSystem
        let index = String(decoding: try #require(try files.read(storage.namesPath)), as: UTF8.self)
        let (at0, at1, at3, at5) = try (
            offset(index, "b0000"), offset(index, "b0001"), offset(index, "b0003"), offset(index, "b0005")
        )
        // An index that says another book is "dune", and has no line for the real one.
        let forged = index.replacing("\nb0000\t\(at0)\t-\t\"dune\"\n", with: "\n").replacing(
            "\nb0003\t\(at3)\t4\t\"caf\u{E9}\"\n", with: "\nb0003\t\(at3)\t-\t\"dune\"\n"
        ).replacing("\nb0001\t\(at1)\t", with: "\nb0001\t\(at5)\t")
        try files.replace(storage.namesPath, Data(forged.utf8))
        #expect(scoped(storage, "dune") == "b0000", "an index that fails its checksum is passed over")
        for reference in references {
            #expect(scoped(storage, reference) == resolved(storage, reference), "\(reference)")
        }
        // Sealed again, as if bookclub had written it wrong: an offset or a title that is not the
        // book's is found out against the book's own line.
        func sealed(_ text: String) -> Data {
            let body = Data(text.prefix { _ in true }.utf8)
            let lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
            let kept = Data(lines.dropLast(2).joined(separator: [0x0A])) + Data("\n".utf8)
            let count = lines.dropLast(2).count - 1
            return kept + Seal.seal(Data(#"{"books":\#(count)}"#.utf8), covering: kept) + Data("\n".utf8)
        }
        let at8 = try offset(index, "b0008")
        let misplaced = index.replacing("\nb0001\t\(at1)\t-\t\"dune messiah\"", with: "\nb0001\t\(at5)\t-\t\"x\"")
            .replacing("\nb0008\t\(at8)\t-\t\"twin\"", with: "\nb0008\t\(at8)\t-\t\"dune messiah\"")
        #expect(misplaced != index)
        try files.replace(storage.namesPath, sealed(misplaced))
        #expect(scoped(storage, "b0001") == "b0001")
        #expect(scoped(storage, "dune messiah") == "b0001")
        // An offset off by one, or inside another book, finds no book there.
        try files.replace(
            storage.namesPath, sealed(index.replacing("\nb0001\t\(at1)\t", with: "\nb0001\t\(at1 + 1)\t")))
        #expect(scoped(storage, "b0001") == "b0001")
        try files.replace(
            storage.namesPath, sealed(index.replacing("\nb0001\t\(at1)\t", with: "\nb0001\t\(at1 + 40)\t")))
        #expect(scoped(storage, "dune messiah") == "b0001")
        try files.replace(storage.namesPath, sealed(index.replacing("\nb0000\t\(at0)\t-\t\"dune\"", with: "")))
        #expect(scoped(storage, "dune messiah") == "b0001")
        for reference in references {
            #expect(scoped(storage, reference) == resolved(storage, reference), "\(reference)")
        }
        // An index of another snapshot is passed over: a title it lacks is still found.
        let other = index.replacing(#/"snapshot":"[0-9a-f]+/#, with: #""snapshot":"0123"#)
            .replacing("\nb0004\t", with: "\nb0099\t")
        try files.replace(storage.namesPath, Data(other.utf8))
        #expect(scoped(storage, "cafe\u{301}").hasPrefix("ambiguousBook"))
        #expect(scoped(storage, "b0099").hasPrefix("bookNotFound"))
    }

    /// The index vouches for the snapshot it was written from: a snapshot edited by hand so that it no
    /// longer splits into books (a comma gone) is refused by a command about one book as by `list`,
    /// not read around.
    @Test func aSnapshotThatNoLongerSplitsIsRefusedByEveryCommand() throws {
        let storage = try shelf()
        let files = storage.fileSystem
        let snapshot = String(decoding: try #require(try files.read(storage.path)), as: UTF8.self)
        let broken = snapshot.replacing("\n    },\n    {\n", with: "\n    }\n    {\n", maxReplacements: 1)
        #expect(broken != snapshot)
        try files.writeAtomically(storage.path, Data(broken.utf8))
        #expect(scoped(storage, "b0005").hasPrefix("corruptFile"), "\(scoped(storage, "b0005"))")
        #expect(resolved(storage, "b0005").hasPrefix("corruptFile"))
    }

    @Test func aMissingIndexIsWrittenByTheNextSaveOrByDoctorFix() throws {
        let storage = try shelf()
        let files = storage.fileSystem
        let written = try files.read(storage.namesPath)
        #expect(files.remove(storage.namesPath))
        #expect(scoped(storage, "dune") == "b0000", "found by the search of every book")
        #expect(try files.read(storage.namesPath) == nil, "a command that only reads writes nothing")
        #expect(try storage.refreshNameIndex(lockTimeout: 1))
        #expect(try files.read(storage.namesPath) == written)
        #expect(try !storage.refreshNameIndex(lockTimeout: 1), "nothing to do when it is current")

        /// `progress dune PAGE`, as the command loads and saves it.
        func progress(_ page: Int) throws {
            let store = try Store(
                persistence: storage.persistence(
                    lockTimeout: 1, recording: ("progress", Fixture.now), scope: .book(named: "dune")))
            try store.update {
                _ = try $0.logProgress(.page(page), note: nil, at: Fixture.now, bookID: "b0000", reference: "dune")
            }
            try store.save()
        }
        #expect(files.remove(storage.namesPath))
        try progress(10)
        #expect(try files.read(storage.namesPath) == written, "the index of the same snapshot")

        // Damaged under a first line that still names the snapshot: written again too.
        let header = try #require(written?.prefix { $0 != 0x0A })
        try files.replace(storage.namesPath, header + Data("\nb0000\t0\t-\t\"dune\"\n".utf8))
        try progress(20)
        #expect(try files.read(storage.namesPath) == written)
    }
}
