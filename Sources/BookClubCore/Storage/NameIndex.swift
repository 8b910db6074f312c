#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `STORE.names`: the snapshot's books by id and title, with where each begins in the snapshot, so
/// that a book named by its id, an id prefix or a whole title is found without searching, splitting
/// or reading every book of the snapshot. Derived data, never trusted over
/// what it indexes: it serves only the snapshot it names (its generation, size and time of change),
/// a book it finds is checked against the book's own line, and a reference it cannot settle (no
/// match, several, a bucket whose seal fails) is left to the full search, which says what is wrong.
/// Written with each new snapshot, by a save that found it missing or out of date, and by
/// `doctor --fix`; a store without one works as before.
///
/// ```text
/// {"lines":"id offset title","snapshot":"4f0c… 2051733 1764182400123456"}
/// 00000000000000000000000000000002	17	"book 00002"
/// 00000000000000000000000000000004	1283	"ノルウェイの森 00003"
/// {"bucket":0,"crc":"4cc31e8e"}
/// 00000000000000000000000000000002	17
/// 00000000000000000000000000000004	1283
/// {"bucket":1,"crc":"83080c08"}
/// {"buckets":[74,221],"titles":1,"crc":"283e46b5"}
/// ```
///
/// The lines are in buckets, each sealed by its last line with its checksum, and the last line says
/// where each bucket begins, sealed too: a lookup reads and checks a few buckets, not the whole
/// index. First the buckets of titles, one for each 32 books and one more (as many as the last line
/// says): a book's line there is its id, the byte offset in the snapshot of the line `    {` that
/// opens the book, and its lowercased title in Unicode's composed form (`form(_:)`) as a JSON
/// string, separated by tabs, in the bucket its title falls in (FNV-1a of its bytes, modulo the
/// number of buckets of titles). Then the buckets of ids, 32 lines each: each book's id and offset,
/// in the order of the ids' bytes, so that an id or an id prefix is found by halving. The index
/// cannot say that it lists every book (only splitting the snapshot could): written by bookclub
/// from the snapshot it names, it does.
struct NameIndex {
    /// The index whole.
    private let data: Data
    /// Where each bucket begins, from the start of `data`, then where the last line does.
    private let bounds: [Int]
    /// How many of the buckets are of titles, before those of ids.
    private let titles: Int

    /// The first line of the index of a snapshot of this generation, size and time of change.
    static func header(generation: String, size: Int, modified: Date?) -> Data {
        let micros = Int(((modified?.timeIntervalSince1970 ?? 0) * 1_000_000).rounded())
        var writer = JSONWriter(compact: true)
        writer.object { w in
            w.field("lines", "id offset title")
            w.field("snapshot", "\(generation) \(size) \(micros)")
        }
        return writer.take()
    }

    /// A lowercased title or reference as the index holds it: in Unicode's composed form (NFC), the
    /// form in which `String` compares text, so that the same text is the same bytes (`é` written as
    /// `e` and an accent, or `;` as the Greek question mark, U+037E).
    static func form(_ lowercased: String) -> String {
        lowercased.utf8.allSatisfy { $0 < 0x80 }
            ? lowercased : String(decoding: lowercased._nfcCodeUnits, as: UTF8.self)
    }

    /// The index of these books (id, offset in the snapshot and title), or `nil` when an id is not
    /// ASCII (which a byte comparison could not stand for) or holds a tab or a line break.
    static func contents(header: Data, books: [(id: Book.ID, offset: Int, title: String)]) -> Data? {
        let titles = books.count / 32 + 1
        var buckets = [Data](repeating: Data(), count: titles)
        var writer = JSONWriter(compact: true)
        for (id, offset, title) in books {
            guard id.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x09 && $0 != 0x0A }) else { return nil }
            let title = form(title.lowercased())
            writer.string(title)
            buckets[bucket(title: title, of: titles)] +=
                Data(utf8: "\(id)\t\(offset)\t") + writer.take() + Data(utf8: "\n")
        }
        let byID = books.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        for first in stride(from: 0, to: byID.count, by: 32) {
            buckets.append(
                Data(byID[first..<min(first + 32, byID.count)].map { "\($0.id)\t\($0.offset)\n" }.joined().utf8))
        }
        var data = header + Data(utf8: "\n")
        var starts: [Int] = []
        for (number, lines) in buckets.enumerated() {
            starts.append(data.count)
            data += lines + Seal.seal(Data(utf8: #"{"bucket":\#(number)}"#), covering: lines) + Data(utf8: "\n")
        }
        let directory = #"{"buckets":[\#(starts.map(String.init).joined(separator: ","))],"titles":\#(titles)}"#
        return data + Seal.seal(Data(utf8: directory)) + Data(utf8: "\n")
    }

    /// The bucket of a title in the index's form.
    private static func bucket(title: String, of count: Int) -> Int {
        Int(FNV1a.hash(title.utf8) % UInt64(count))
    }

    /// The index at `path` when it is of the snapshot `header` describes and its last line, which
    /// says where its buckets begin, is whole. Whether every bucket is whole is asked apart
    /// (`isSealed`), by what needs every book; a lookup checks the buckets it reads.
    init?(reading path: String, header: Data, fileSystem: FileSystem) {
        guard let data = try? fileSystem.map(path) else { return nil }
        self.init(data, header: header)
    }

    private init?(_ data: Data, header: Data) {
        guard data.starts(with: header + Data(utf8: "\n")), data.last == 0x0A,
            let last = data.dropLast().lastIndex(of: 0x0A)
        else { return nil }
        let directory = last + 1 - data.startIndex
        let read = data.withUnsafeBytes { bytes in
            Self.directory(UnsafeRawBufferPointer(rebasing: bytes[directory..<(bytes.count - 1)]))
        }
        // Each bucket holds at least its seal, the first after the header, the last before this line.
        guard let (starts, titles) = read, titles >= 1, titles <= starts.count, starts.first == header.count + 1,
            zip(starts, starts.dropFirst() + [directory]).allSatisfy({ $0 < $1 })
        else { return nil }
        self.data = data
        self.titles = titles
        bounds = starts + [directory]
    }

    /// The buckets' starts and the number of buckets of titles, as the last line gives them, when its
    /// seal holds.
    private static func directory(_ line: UnsafeRawBufferPointer) -> (starts: [Int], titles: Int)? {
        let open = Array(#"{"buckets":["#.utf8)
        let then = Array(#"],"titles":"#.utf8)
        guard line.count > open.count + then.count + Seal.sealLength, line.starts(with: open),
            Seal.check(line, covering: UnsafeRawBufferPointer(start: nil, count: 0)) == true
        else { return nil }
        var numbers: [Int] = []
        var number: Int?
        var isLast = false
        var at = open.count
        while at < line.count - Seal.sealLength {
            let byte = line[at]
            at += 1
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                guard (number ?? 0) < Int.max / 20 else { return nil }
                number = (number ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                continue
            }
            // A comma between the starts, then `],"titles":` and the last number.
            guard let found = number, !isLast else { return nil }
            numbers.append(found)
            number = nil
            if byte == UInt8(ascii: "]") {
                guard line[(at - 1)...].starts(with: then) else { return nil }
                at += then.count - 1
                isLast = true
            } else if byte != UInt8(ascii: ",") {
                return nil
            }
        }
        guard isLast, let titles = number else { return nil }
        return (numbers, titles)
    }

    /// Whether every bucket's seal holds: an index damaged or cut says nothing of which books have a name.
    var isSealed: Bool {
        (0..<(bounds.count - 1)).allSatisfy { withLines(ofBucket: $0) { _ in () } != nil }
    }

    /// What the index says `needle` (a reference, lowercased, trimmed and in the index's `form`)
    /// names by the first three rules of `Reference.matches`, from buckets whose seals hold: the book
    /// whose id it is, else the books whose ids start with it (four characters or more), else those
    /// whose lowercased title it is, each by its id and offset. `nil` when a bucket it reads is
    /// damaged, or the line of the needle's id says no offset.
    func books(named needle: String) -> (id: Entry?, prefixed: [Entry], titled: [Entry])? {
        var prefixed: [Entry] = []
        // The ids in order, from the bucket where those from the needle on begin: the needle as an
        // id first, then the ids it starts.
        if needle.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x09 && $0 != 0x0A }), titles < bounds.count - 1 {
            let key = Array(needle.utf8)
            let exact = key + [0x09]
            let isPrefix = needle.count >= 4
            guard var bucket = bucket(ofID: key) else { return nil }
            var after = false
            var id: Entry??
            while !after && id == nil && bucket < bounds.count - 1 {
                let read: Void? = withLines(ofBucket: bucket) { lines in
                    Self.forEachLine(in: lines) { line in
                        if Self.line(line, startsWith: exact) {
                            id = .some(Self.entry(of: line))
                        } else if isPrefix, Self.line(line, startsWith: key) {
                            if let entry = Self.entry(of: line) { prefixed.append(entry) }
                        } else if key.lexicographicallyPrecedes(line.prefix { $0 != 0x09 }) {
                            after = true
                        }
                        return !after && id == nil
                    }
                }
                guard read != nil else { return nil }
                bucket += 1
            }
            if let id { return id.map { ($0, [], []) } }
        }
        // The rule of id prefixes comes first: the titles cannot change what it found.
        guard prefixed.isEmpty else { return (nil, prefixed, []) }
        var writer = JSONWriter(compact: true)
        writer.string(needle)
        let title = Array("\t".utf8) + writer.take()
        var titled: [Entry] = []
        let read: Void? = withLines(ofBucket: Self.bucket(title: needle, of: titles)) { lines in
            Self.forEachLine(in: lines) { line in
                if Self.line(line, endsWith: title), let entry = Self.entry(of: line) { titled.append(entry) }
                return true
            }
        }
        return read == nil ? nil : (nil, [], titled)
    }

    /// The bucket of ids where `key` is, or those from it on begin: the last whose first id is not
    /// after it, found by halving. `nil` when there is no bucket of ids (no book), or one it reads is
    /// damaged.
    private func bucket(ofID key: [UInt8]) -> Int? {
        var (low, high) = (titles, bounds.count - 1)
        guard low < high else { return nil }
        while high - low > 1 {
            let middle = (low + high) / 2
            guard
                let first = withLines(ofBucket: middle, { lines in Array(lines.prefix { $0 != 0x09 && $0 != 0x0A }) })
            else { return nil }
            if key.lexicographicallyPrecedes(first) { high = middle } else { low = middle }
        }
        return low
    }

    /// A book as a line of the index gives it.
    struct Entry {
        var id: Book.ID
        /// Where the book begins in the snapshot; `nil` for a book of the journal.
        var offset: Int?
    }

    /// `body` of the lines of a bucket, before its seal; `nil` when the seal does not hold (or is not
    /// the bucket's).
    private func withLines<T>(ofBucket number: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        data.withUnsafeBytes { bytes in
            let section = bytes[bounds[number]..<bounds[number + 1]]
            // The seal is the bucket's last line; the line before it ends the bucket's lines.
            guard section.last == 0x0A else { return nil }
            let end = section.dropLast().lastIndex(of: 0x0A).map { $0 + 1 } ?? section.startIndex
            let lines = UnsafeRawBufferPointer(rebasing: bytes[section.startIndex..<end])
            let seal = UnsafeRawBufferPointer(rebasing: bytes[end..<(section.endIndex - 1)])
            let object = Array(#"{"bucket":\#(number)"#.utf8)
            guard seal.count == object.count + Seal.sealLength, seal.starts(with: object),
                Seal.check(seal, covering: lines) == true
            else { return nil }
            return body(lines)
        }
    }

    /// Calls `body` with each line of `lines`, without its line break, until it returns `false`. A
    /// walk from one line break to the next: searching for a needle, by any byte of it, stops on
    /// every line or more (ids, numbers, tabs and titles of the same words).
    private static func forEachLine(
        in lines: UnsafeRawBufferPointer, _ body: (Slice<UnsafeRawBufferPointer>) -> Bool
    ) {
        guard let base = lines.baseAddress else { return }
        var start = 0
        while start < lines.count, let end = firstByte(0x0A, at: base + start, count: lines.count - start) {
            let next = base.distance(to: end)
            guard body(lines[start..<next]) else { return }
            start = next + 1
        }
    }

    /// The book of a line of the index; `nil` when the line is not of the index's shape.
    private static func entry(of line: Slice<UnsafeRawBufferPointer>) -> Entry? {
        guard let tab = line.firstIndex(of: 0x09) else { return nil }
        // Digits only, and few enough: a line bookclub did not write may say anything.
        let digits = line[(tab + 1)..<(line[(tab + 1)...].firstIndex(of: 0x09) ?? line.endIndex)]
        guard (1...18).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let offset = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return Entry(
            id: String(decoding: UnsafeRawBufferPointer(rebasing: line[..<tab]), as: UTF8.self), offset: offset)
    }

    /// Whether the line starts with `bytes`.
    private static func line(_ line: Slice<UnsafeRawBufferPointer>, startsWith bytes: [UInt8]) -> Bool {
        Self.line(line, has: bytes, at: line.startIndex)
    }

    /// Whether the line ends with `bytes`.
    private static func line(_ line: Slice<UnsafeRawBufferPointer>, endsWith bytes: [UInt8]) -> Bool {
        Self.line(line, has: bytes, at: line.endIndex - bytes.count)
    }

    /// Whether the line holds `bytes` from `start`: their first and last bytes compared before the
    /// rest, as most lines differ there.
    private static func line(_ line: Slice<UnsafeRawBufferPointer>, has bytes: [UInt8], at start: Int) -> Bool {
        start >= line.startIndex && start + bytes.count <= line.endIndex && line[start] == bytes[0]
            && line[start + bytes.count - 1] == bytes.last!
            && bytes.withUnsafeBytes { sameBytes(line.base.baseAddress! + start, $0.baseAddress!, count: bytes.count) }
    }
}

extension LibraryFiles {
    /// The first line of the index of this snapshot; `nil` when the snapshot has no generation or is
    /// not laid out as bookclub writes it (a store of an earlier schema, or edited by hand).
    var nameIndexHeader: Data? {
        guard let generation, snapshotRun != nil else { return nil }
        return NameIndex.header(generation: generation, size: snapshotSize, modified: fileSystem.modified(path))
    }

    /// The line of the one book `needle` (a reference, lowercased and trimmed) names by its id, an id
    /// prefix or a whole title, as the index and the journal's books say, checked against the book's
    /// own line; `nil` when they cannot settle it.
    func indexedLine(named needle: String, in index: NameIndex) -> Data? {
        guard !needle.isEmpty else { return nil }
        // The same text as the same bytes; `String` compares the forms alike.
        let needle = NameIndex.form(needle)
        /// The snapshot's book at the entry's offset, when it is the book of this id and no change
        /// replaced it.
        func snapshotLine(_ entry: NameIndex.Entry) -> Data? {
            guard journalBooks[entry.id] == nil, let offset = entry.offset,
                let line = snapshotBook(at: snapshotBytes.startIndex + offset)
            else { return nil }
            return Self.id(of: line) == entry.id ? line : nil
        }
        // An id: the first rule, and a book's own.
        if let line = journalBooks[needle] { return line }
        guard let named = index.books(named: needle) else { return nil }
        if let entry = named.id { return snapshotLine(entry) }
        // The journal's books stand over the snapshot's.
        var journal: [(id: Book.ID, title: String)] = []
        for id in journalOrder {
            guard case .some(.some(let line)) = journalBooks[id] else { continue }
            guard let title = line.withUnsafeBytes({ JSONLine.string("title", in: $0) }) else { return nil }
            journal.append((id, title))
        }
        let prefixed =
            named.prefixed.filter { journalBooks[$0.id] == nil }.map { ($0, true) }
            + journal.filter { needle.count >= 4 && $0.id.hasPrefix(needle) }.map {
                (NameIndex.Entry(id: $0.id, offset: nil), false)
            }
        let titled =
            named.titled.filter { journalBooks[$0.id] == nil }.map { ($0, true) }
            + journal.filter { $0.title.lowercased() == needle }.map {
                (NameIndex.Entry(id: $0.id, offset: nil), false)
            }
        let found = prefixed.isEmpty ? titled : prefixed
        guard found.count == 1, let (entry, inSnapshot) = found.first else { return nil }
        guard let line = inSnapshot ? snapshotLine(entry) : journalBooks[entry.id] ?? nil else { return nil }
        if prefixed.isEmpty {
            guard line.withUnsafeBytes({ JSONLine.string("title", in: $0) })?.lowercased() == needle else { return nil }
        } else {
            guard entry.id.hasPrefix(needle) else { return nil }
        }
        return line
    }

    /// Writes the index of the snapshot's books, replacing one out of date; nothing when the snapshot
    /// cannot have one. Derived data: a failure is passed over.
    func writeNameIndex() {
        guard let header = nameIndexHeader, let (lines, asLaidOut) = try? snapshotLines(), asLaidOut else { return }
        var books: [(id: Book.ID, offset: Int, title: String)] = []
        for line in lines {
            guard let id = Self.id(of: line), let title = line.withUnsafeBytes({ JSONLine.string("title", in: $0) })
            else { return }
            books.append((id, line.startIndex - snapshotBytes.startIndex, title))
        }
        guard let contents = NameIndex.contents(header: header, books: books) else { return }
        try? fileSystem.replace(storage.namesPath, contents)
    }
}

extension LibraryStorage {
    /// Writes the index of names when it is missing or out of date, under the store lock; `true`
    /// when it wrote one.
    func refreshNameIndex(lockTimeout: Double) throws -> Bool {
        let unlock = try fileSystem.lock(lockPath, lockTimeout)
        defer { unlock() }
        let files = try readFiles(locked: true)
        guard files.nameIndexHeader != nil, files.nameIndex?.isSealed != true else { return false }
        files.writeNameIndex()
        return try LibraryFiles(reading: self).nameIndex?.isSealed == true
    }
}
