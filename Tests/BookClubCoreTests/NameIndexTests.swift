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
    func shelf(files: FileSystem = .inMemory(), more: [(id: String, title: String)] = []) throws -> LibraryStorage {
        let storage = LibraryStorage(path: path, fileSystem: files)
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update {
            for (index, title) in titles.enumerated() {
                $0.addBook(Fixture.book(title, id: String(format: "b%04d", index)))
            }
            for (id, title) in more { $0.addBook(Fixture.book(title, id: id)) }
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

    /// The index with its buckets sealed again, and the line that says where they begin, as bookclub
    /// would have written it: an index bookclub wrote wrong, or one forged.
    func sealed(_ text: String) -> Data {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
        let titles = lines.removeLast().split(separator: #""titles":"#).last?.prefix { $0.isNumber } ?? ""
        var data = Data((lines.removeFirst() + "\n").utf8)
        var starts: [Int] = []
        var bucket = Data()
        for line in lines {
            guard line.hasPrefix(#"{"bucket":"#) else {
                bucket += Data((line + "\n").utf8)
                continue
            }
            starts.append(data.count)
            let object = Data((line.prefix { $0 != "," } + "}").utf8)
            data += bucket + Seal.seal(object, covering: bucket) + Data("\n".utf8)
            bucket = Data()
        }
        let directory = #"{"buckets":[\#(starts.map(String.init).joined(separator: ","))],"titles":\#(titles)}"#
        return data + Seal.seal(Data(directory.utf8)) + Data("\n".utf8)
    }

    @Test func theIndexFindsWhatTheSearchOfEveryBookFinds() throws {
        let storage = try shelf()
        let index = String(decoding: try #require(try storage.fileSystem.read(storage.namesPath)), as: UTF8.self)
        let snapshot = try #require(try storage.fileSystem.read(storage.path))
        #expect(index.hasPrefix(#"{"lines":"id offset title","snapshot":""#))
        #expect(index.contains("\nb0000\t16\t\"dune\"\n"), "the first book, after `{` and `  \"books\" : [`")
        #expect(index.contains("\nb0002\t\(try offset(index, "b0002"))\t\"ノルウェイの森\"\n"))
        #expect(index.contains("\nb0010\t\(try offset(index, "b0010"))\t\"tab\\there\"\n"))
        // The same text as the same bytes: composed, and `;` for the Greek question mark.
        #expect(index.contains("\nb0004\t\(try offset(index, "b0004"))\t\"caf\u{E9}\"\n"))
        #expect(index.contains("\nb0012\t\(try offset(index, "b0012"))\t\"c;d\"\n"))
        #expect(index.hasSuffix("\n") && sealed(index) == Data(index.utf8), "sealed as the test seals it")
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

    /// Books as a library of a few hundred holds them: ids of the same first characters, titles of
    /// the same words, in several scripts, composed and not.
    let many: [(id: String, title: String)] = (0..<400).map { number in
        let id = String(format: "%04x", number % 97) + String(format: "%04x", number) + "aaaaaaaaaaaaaaaaaaaaaaaa"
        let titles = ["Book \(number)", "ノルウェイの森 \(number % 50)", "Cafe\u{301} \(number % 30)", "كتاب \(number)"]
        return (id, titles[number % titles.count])
    }

    @Test func aLibraryOfManyBooksIsFoundThroughItsBuckets() throws {
        let storage = try shelf(more: many)
        let index = String(decoding: try #require(try storage.fileSystem.read(storage.namesPath)), as: UTF8.self)
        let lines = index.split(separator: "\n")
        let books = titles.count + 1 + many.count
        #expect(lines.filter { $0.hasPrefix(#"{"bucket":"#) }.count == books / 32 + 1 + (books + 31) / 32)
        #expect(lines.last?.contains(#"],"titles":\#(books / 32 + 1),"crc":"#) == true)
        // The buckets of ids, after those of titles: each book's id and offset, in order.
        let ids = lines.filter { $0.split(separator: "\t").count == 2 }.map { String($0.prefix { $0 != "\t" }) }
        #expect(ids == (many.map(\.id) + titles.indices.map { String(format: "b%04d", $0) } + ["a b c"]).sorted())
        var references = references
        for (number, book) in many.enumerated() where number % 7 == 0 {
            references += [book.id, String(book.id.prefix(4)), String(book.id.prefix(8)), book.title.lowercased()]
        }
        references += [
            "caf\u{E9} 2", "caf\u{E9} 3", "ノルウェイの森 7", "book 399", "book 400", "0001", "0061", "0006", "000c",
        ]
        for reference in references {
            #expect(scoped(storage, reference) == resolved(storage, reference), "\(reference)")
        }
        #expect(scoped(storage, "book 12") == many[12].id)
        #expect(scoped(storage, String(many[13].id.prefix(8))) == many[13].id)
        #expect(scoped(storage, "cafe\u{301} 2").hasPrefix("ambiguousBook"), "composed or not, the same title")
        // Ids of the same prefix over two buckets of ids.
        let header = Data(index.utf8.prefix { $0 != 0x0A })
        let read = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: storage.fileSystem))
        for prefix in ["0006", "000c"] {
            #expect(read.books(named: prefix)?.prefixed.map(\.id) == ids.filter { $0.hasPrefix(prefix) })
        }
        // A title of other bytes that is the same text, found by the index, not by the search.
        #expect(read.books(named: NameIndex.form("c\u{37E}d"))?.titled.map(\.id) == ["b0011", "b0012"])

    }

    /// A lookup checks the seals of the buckets it reads, and no others: a bucket damaged leaves the
    /// books it holds to the search of every book, which the save after it writes the index again for.
    @Test func aLookupChecksTheBucketsItReads() throws {
        let storage = try shelf(more: many)
        let files = storage.fileSystem
        let text = try #require(try files.read(storage.namesPath))
        let header = Data(text.prefix { $0 != 0x0A })
        let index = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: files))
        #expect(index.isSealed)
        #expect(index.books(named: "book 12")?.titled.map(\.id) == [many[12].id])
        #expect(index.books(named: String(many[13].id.prefix(8)))?.prefixed.map(\.id) == [many[13].id])
        // A title changed in its bucket, not sealed again.
        let damaged = String(decoding: text, as: UTF8.self).replacing("\t\"book 12\"\n", with: "\t\"book 21\"\n")
        try files.replace(storage.namesPath, Data(damaged.utf8))
        let read = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: files))
        #expect(!read.isSealed)
        #expect(read.books(named: "book 12") == nil, "its bucket's seal fails")
        let elsewhere = try #require(
            many.indices.first { number in
                read.books(named: many[number].title.lowercased()) != nil
            })
        #expect(
            read.books(named: many[elsewhere].title.lowercased())?.titled.map(\.id).contains(many[elsewhere].id) == true
        )
        #expect(read.books(named: many[12].id)?.id?.id == many[12].id, "an id is in the buckets of ids")
        #expect(scoped(storage, "book 12") == many[12].id)
        // An id's offset changed in its bucket of ids: an id prefix found there is not trusted.
        let at13 = try offset(String(decoding: text, as: UTF8.self), many[13].id)
        let moved = String(decoding: text, as: UTF8.self).replacing(
            "\n\(many[13].id)\t\(at13)\n", with: "\n\(many[13].id)\t\(at13 + 1)\n")
        try files.replace(storage.namesPath, Data(moved.utf8))
        let again = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: files))
        #expect(again.books(named: String(many[13].id.prefix(8))) == nil)
        #expect(again.books(named: "book 12")?.titled.map(\.id) == [many[12].id])
        #expect(scoped(storage, String(many[13].id.prefix(8))) == many[13].id)
        // A bucket of ids that the halving reads on its way (the middle one, the seventh of 13) is
        // checked too: damaged, its first id could lead the search away from an id prefix.
        let ids = (many.map(\.id) + titles.indices.map { String(format: "b%04d", $0) } + ["a b c"]).sorted()
        let passedBy = ids[(ids.count + 31) / 32 / 2 * 32 + 1]
        let at = try offset(String(decoding: text, as: UTF8.self), passedBy)
        let passed = String(decoding: text, as: UTF8.self).replacing(
            "\n\(passedBy)\t\(at)\n", with: "\n\(passedBy)\t\(at + 1)\n")
        try files.replace(storage.namesPath, Data(passed.utf8))
        let halved = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: files))
        #expect(halved.books(named: String(ids[0].prefix(6))) == nil)
        #expect(scoped(storage, String(ids[0].prefix(6))) == resolved(storage, String(ids[0].prefix(6))))
        // The last line, cut or with another checksum: no index.
        try files.replace(storage.namesPath, Data(text.dropLast(3)) + Data("0\"}\n".utf8))
        #expect(NameIndex(reading: storage.namesPath, header: header, fileSystem: files) == nil)
        let crc = text.dropLast(4).last == UInt8(ascii: "0") ? "1" : "0"
        try files.replace(storage.namesPath, Data(text.dropLast(4)) + Data("\(crc)\"}\n".utf8))
        #expect(NameIndex(reading: storage.namesPath, header: header, fileSystem: files) == nil)
        #expect(scoped(storage, "book 12") == many[12].id)
    }

    /// A short id is the first rule over a title the same as it: when the index cannot read the id
    /// (its bucket damaged, or its line saying no offset), it does not answer with the title.
    @Test func anIdTheIndexMissesIsNotAnsweredByATitle() throws {
        let storage = try shelf(more: [("v", "Other"), ("x1", "V"), ("r1", "Re\u{301}sume\u{301} too")])
        let files = storage.fileSystem
        let text = String(decoding: try #require(try files.read(storage.namesPath)), as: UTF8.self)
        #expect(scoped(storage, "v") == "v" && resolved(storage, "v") == "v")
        // A title written decomposed, found by the index in the composed form.
        let header = Data(text.utf8.prefix { $0 != 0x0A })
        let index = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: files))
        #expect(index.books(named: NameIndex.form("r\u{E9}sum\u{E9} too"))?.titled.map(\.id) == ["r1"])
        let at = try offset(text, "v")
        try files.replace(storage.namesPath, Data(text.replacing("\nv\t\(at)\n", with: "\nw\t\(at)\n").utf8))
        #expect(scoped(storage, "v") == "v")
        // The command's save, a change appended to the journal, writes the index again.
        let progress = try Store(
            persistence: storage.persistence(
                lockTimeout: 1, recording: ("progress", Fixture.now), scope: .book(named: "v")))
        try progress.update {
            _ = try $0.logProgress(.page(5), note: nil, at: Fixture.now, bookID: "v", reference: "v")
        }
        try progress.save()
        #expect(try files.read(storage.namesPath) == Data(text.utf8))
        // Sealed again with an offset that is no number: the id's line is there, and says nothing.
        try files.replace(storage.namesPath, sealed(text.replacing("\nv\t\(at)\n", with: "\nv\t-\(at)\n")))
        let forged = try #require(NameIndex(reading: storage.namesPath, header: header, fileSystem: files))
        #expect(forged.isSealed && forged.books(named: "v") == nil)
        #expect(scoped(storage, "v") == "v")
        // Nor does it answer a removed book's id with a title.
        let store = try Store(persistence: storage.persistence(lockTimeout: 1))
        store.update { _ = $0.removeBook(id: "v") }
        try store.save()
        #expect(scoped(storage, "v") == resolved(storage, "v"))
        #expect(scoped(storage, "v") == "x1")
    }

    /// The index of a few books, of none, and of one more than a bucket of ids holds: every id, id
    /// prefix and title is found, and what no book has is found to be no book's.
    @Test func anIndexOfAnyNumberOfBooksFindsEachOne() throws {
        let files = FileSystem.inMemory()
        let header = Data(#"{"lines":"id offset title","snapshot":"g 1 2"}"#.utf8)
        for count in [0, 1, 31, 32, 33, 65] {
            let books = (0..<count).map {
                (id: String(format: "id%02d", $0 * 7 % count), offset: 100 + $0, title: "T \($0)")
            }
            let data = try #require(NameIndex.contents(header: header, books: books))
            try files.replace("/names", data)
            let index = try #require(NameIndex(reading: "/names", header: header, fileSystem: files))
            #expect(index.isSealed)
            for book in books {
                #expect(index.books(named: book.id)?.id?.offset == book.offset, "\(count): \(book.id)")
                #expect(index.books(named: "t \(book.offset - 100)")?.titled.map(\.id) == [book.id])
            }
            let prefixed = index.books(named: "id0")?.prefixed.map(\.id) ?? ["?"]
            #expect(prefixed.isEmpty, "three characters are no id prefix")
            let tens = try #require(index.books(named: "id1_")?.prefixed)
            #expect(tens.isEmpty)
            #expect(index.books(named: "id99").map { $0.id == nil && $0.prefixed.isEmpty } == true)
            #expect(index.books(named: "nothing").map { $0.prefixed.isEmpty && $0.titled.isEmpty } == true)
        }
    }

    @Test func anIndexIsNeverTrustedOverTheBooksItIndexes() throws {
        let storage = try shelf()
        let files = storage.fileSystem
        let index = String(decoding: try #require(try files.read(storage.namesPath)), as: UTF8.self)
        let (at0, at1, at3, at5) = try (
            offset(index, "b0000"), offset(index, "b0001"), offset(index, "b0003"), offset(index, "b0005")
        )
        // An index that says another book is "dune", and has no line for the real one.
        let forged = index.replacing("\nb0000\t\(at0)\t\"dune\"\n", with: "\n").replacing(
            "\nb0003\t\(at3)\t\"caf\u{E9}\"\n", with: "\nb0003\t\(at3)\t\"dune\"\n"
        ).replacing("\nb0001\t\(at1)\t", with: "\nb0001\t\(at5)\t")
        #expect(forged != index)
        try files.replace(storage.namesPath, Data(forged.utf8))
        #expect(scoped(storage, "dune") == "b0000", "an index that fails its checksum is passed over")
        for reference in references {
            #expect(scoped(storage, reference) == resolved(storage, reference), "\(reference)")
        }
        // Sealed again, as if bookclub had written it wrong: an offset or a title that is not the
        // book's is found out against the book's own line.
        let at8 = try offset(index, "b0008")
        let misplaced = index.replacing("\nb0001\t\(at1)\t\"dune messiah\"", with: "\nb0001\t\(at5)\t\"x\"")
            .replacing("\nb0008\t\(at8)\t\"twin\"", with: "\nb0008\t\(at8)\t\"dune messiah\"")
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
        try files.replace(storage.namesPath, sealed(index.replacing("\nb0000\t\(at0)\t\"dune\"", with: "")))
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
        try files.replace(storage.namesPath, header + Data("\nb0000\t0\t\"dune\"\n".utf8))
        try progress(20)
        #expect(try files.read(storage.namesPath) == written)
    }
}
