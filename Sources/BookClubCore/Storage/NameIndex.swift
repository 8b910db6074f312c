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
/// match, several, text it cannot compare byte for byte) is left to the full search, which says what
/// is wrong. Written with each new snapshot, by a save that found it missing or out of date, and by
/// `doctor --fix`; a store without one works as before.
///
/// ```text
/// {"lines":"id offset characters title","snapshot":"4f0c… 2051733 1764182400123456"}
/// 00000000000000000000000000000002	17	-	"book 00002"
/// 00000000000000000000000000000004	1283	12	"ノルウェイの森 00003"
/// {"books":3000,"crc":"1a2b3c4d"}
/// ```
///
/// A line is a book's id, the byte offset in the snapshot of the line `    {` that opens the book,
/// the number of characters of its title when the title is not ASCII (`-` when it is), and its
/// lowercased title as a JSON string, separated by tabs. The last line seals the others with their
/// checksum. The index cannot say that it lists every book (only splitting the snapshot could):
/// written by bookclub from the snapshot it names, it does.
struct NameIndex {
    /// The index's lines, from the line break that ends its first line.
    private let lines: Data
    /// The index whole, its last line (the seal) from `last`, the line break before it.
    private let data: Data
    private let last: Data.Index
    private let header: Data
    /// The index read again, whole, for a lookup that goes through every byte of it.
    private let reread: () -> Data?

    /// The first line of the index of a snapshot of this generation, size and time of change.
    static func header(generation: String, size: Int, modified: Date?) -> Data {
        let micros = Int(((modified?.timeIntervalSince1970 ?? 0) * 1_000_000).rounded())
        var writer = JSONWriter(compact: true)
        writer.object { w in
            w.field("lines", "id offset characters title")
            w.field("snapshot", "\(generation) \(size) \(micros)")
        }
        return writer.take()
    }

    /// The index of these books (id, offset in the snapshot and title), or `nil` when an id is not
    /// ASCII (which a byte comparison could not stand for).
    static func contents(header: Data, books: some Sequence<(id: Book.ID, offset: Int, title: String)>) -> Data? {
        var data = header
        var writer = JSONWriter(compact: true)
        var count = 0
        for (id, offset, title) in books {
            guard id.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x09 && $0 != 0x0A }) else { return nil }
            let lowered = title.lowercased()
            writer.string(lowered)
            let characters = lowered.utf8.allSatisfy { $0 < 0x80 } ? "-" : String(lowered.count)
            data += Data(utf8: "\n\(id)\t\(offset)\t\(characters)\t") + writer.take()
            count += 1
        }
        data += Data(utf8: "\n")
        writer.object { w in w.field("books", count) }
        return data + Seal.seal(writer.take(), covering: data) + Data(utf8: "\n")
    }

    /// The index at `path` when it is of the snapshot `header` describes. Whether it is whole is
    /// asked apart (`isSealed`), by what needs every book: a book's line found by its id is checked
    /// against the snapshot anyway, and a `progress` by id need not checksum the index.
    init?(reading path: String, header: Data, fileSystem: FileSystem) {
        guard let data = try? fileSystem.map(path) else { return nil }
        self.init(data, header: header, reread: { try? fileSystem.read(path) })
    }

    private init?(_ data: Data, header: Data, reread: @escaping () -> Data?) {
        guard data.starts(with: header + Data(utf8: "\n")), data.last == 0x0A,
            let last = data.dropLast().lastIndex(of: 0x0A), last >= data.startIndex + header.count
        else { return nil }
        self.data = data
        self.last = last
        self.header = header
        self.reread = reread
        lines = data[(data.startIndex + header.count)...last]
    }

    /// Whether the last line seals the rest with its CRC-32C (`Seal`): an index damaged or cut says
    /// nothing of which books have a name.
    var isSealed: Bool {
        Seal.check(data[(last + 1)..<(data.endIndex - 1)], covering: data[...last]) == true
    }

    /// Where the book of this id begins in the snapshot, as the index says.
    func offset(of id: Book.ID) -> Int? {
        guard !id.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A }) else { return nil }
        let field = Array("\(id)\t".utf8)
        var found: Int?
        _ = forEachLine { line in
            guard Self.line(line, startsWith: field) else { return true }
            found = Self.entry(of: line)?.offset
            return false
        }
        return found
    }

    /// What the index says `needle` (a reference, lowercased and trimmed) names by the second and
    /// third rules of `Reference.matches`: the books whose ids start with it (four characters or
    /// more), and those whose lowercased title it is, each by its id and offset. `nil` when bytes
    /// cannot decide: the needle is not ASCII where a title of other bytes may still be the same text.
    func books(named needle: String) -> (prefixed: [Entry], titled: [Entry])? {
        // A title looked up goes through every byte of the index, its seal and its lines: read whole,
        // that costs one copy, where faulting in the mapping's pages cost more than the checksum
        // itself (300 KB at 4,600 books). Read again, it is checked again.
        guard let whole = reread().flatMap({ NameIndex($0, header: header, reread: { nil }) }) else { return nil }
        return whole.lookUp(needle)
    }

    private func lookUp(_ needle: String) -> (prefixed: [Entry], titled: [Entry])? {
        guard isSealed else { return nil }
        let isASCII = needle.utf8.allSatisfy { $0 < 0x80 }
        // The only non-ASCII characters that are the same text as ASCII ones (canonical singletons).
        if !isASCII, needle.unicodeScalars.contains(where: { [0x037E, 0x1FEF, 0x212A].contains($0.value) }) {
            return nil
        }
        let prefix = isASCII && needle.count >= 4 && !needle.utf8.contains(0x09) ? Array(needle.utf8) : nil
        var writer = JSONWriter(compact: true)
        writer.string(needle)
        let title = Array("\t".utf8) + writer.take()
        // A title of other bytes may be the same text (composed or not): those of as many characters
        // are compared as text. An ASCII needle can be the same text as one only through the two
        // singletons that stand for ASCII characters, `;` and `` ` `` (the third, the Kelvin sign, is
        // lowercased to `k`).
        let count =
            isASCII && !needle.utf8.contains(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "`") })
            ? nil : Array("\t\(needle.count)".utf8)
        var prefixed: [Entry] = []
        var titled: [Entry] = []
        let whole = forEachLine { line in
            if let prefix, Self.line(line, startsWith: prefix), let entry = Self.entry(of: line) {
                prefixed.append(entry)
            }
            if Self.line(line, endsWith: title) {
                if let entry = Self.entry(of: line) { titled.append(entry) }
                return true
            }
            // The title's tab is the line's last: a JSON string holds none.
            guard let count, let tab = line.lastIndex(of: 0x09), Self.line(line[..<tab], endsWith: count) else {
                return true
            }
            let raw = UnsafeRawBufferPointer(rebasing: line[(tab + 1)...])
            var scanner = JSONScanner(bytes: raw)
            // A title the scanner leaves to the decoder, and that the decoder cannot read: undecided.
            guard let other = scanner.string() ?? JSONCoding.decodeLine(String.self, from: Data(raw)) else {
                return false
            }
            if other == needle, let entry = Self.entry(of: line) { titled.append(entry) }
            return true
        }
        return whole ? (prefixed, titled) : nil
    }

    /// A book as a line of the index gives it.
    struct Entry {
        var id: Book.ID
        /// Where the book begins in the snapshot; `nil` for a book of the journal.
        var offset: Int?
    }

    /// Calls `body` with each line of the index, without its line break, until it returns `false`;
    /// `false` then. A walk from one line break to the next: searching the index for a needle, by
    /// any byte of it, stops on every line or more (ids, numbers, tabs and titles of the same words),
    /// and a title looked for took four searches of 9,000 to 14,000 stops each at 4,600 books.
    private func forEachLine(_ body: (Slice<UnsafeRawBufferPointer>) -> Bool) -> Bool {
        lines.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            // After the line break that ends the header.
            var start = 1
            while start < bytes.count, let end = firstByte(0x0A, at: base + start, count: bytes.count - start) {
                let next = base.distance(to: end)
                guard body(bytes[start..<next]) else { return false }
                start = next + 1
            }
            return true
        }
    }

    /// The book of a line of the index; `nil` when the line is not of the index's shape.
    private static func entry(of line: Slice<UnsafeRawBufferPointer>) -> Entry? {
        guard let tab = line.firstIndex(of: 0x09),
            let next = line[(tab + 1)...].firstIndex(of: 0x09),
            let offset = Int(String(decoding: UnsafeRawBufferPointer(rebasing: line[(tab + 1)..<next]), as: UTF8.self))
        else { return nil }
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
        if let offset = index.offset(of: needle) { return snapshotLine(.init(id: needle, offset: offset)) }
        guard let named = index.books(named: needle) else { return nil }
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
