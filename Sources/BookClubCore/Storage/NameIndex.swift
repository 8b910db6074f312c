#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `STORE.names`: the snapshot's books by id and title, so that a book named by a whole title or an
/// id prefix is found without reading every book of the snapshot. Derived data, never trusted over
/// what it indexes: it serves only the snapshot it names (its generation, size and time of change),
/// a book it finds is checked against the book's own line, and a reference it cannot settle (no
/// match, several, text it cannot compare byte for byte) is left to the full search, which says what
/// is wrong. Written with each new snapshot, by a save that found it missing or out of date, and by
/// `doctor --fix`; a store without one works as before.
///
/// ```text
/// {"snapshot":"4f0c… 2051733 1764182400123456"}
/// 00000000000000000000000000000002	-	"book 00002"
/// 00000000000000000000000000000004	12	"ノルウェイの森 00003"
/// ```
///
/// A line is a book's id, a tab, the number of characters of its title when the title is not ASCII
/// (`-` when it is), a tab, and its lowercased title as a JSON string.
struct NameIndex {
    /// The index's lines, from the line break that ends its first line.
    private let lines: Data

    /// The first line of the index of a snapshot of this generation, size and time of change.
    static func header(generation: String, size: Int, modified: Date?) -> Data {
        let micros = Int(((modified?.timeIntervalSince1970 ?? 0) * 1_000_000).rounded())
        var writer = JSONWriter(compact: true)
        writer.object { w in w.field("snapshot", "\(generation) \(size) \(micros)") }
        return writer.take()
    }

    /// The index of these books (id and title), or `nil` when an id is not ASCII (which a byte
    /// comparison could not stand for).
    static func contents(header: Data, books: some Sequence<(id: Book.ID, title: String)>) -> Data? {
        var data = header
        var writer = JSONWriter(compact: true)
        for (id, title) in books {
            guard id.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x09 && $0 != 0x0A }) else { return nil }
            let lowered = title.lowercased()
            writer.string(lowered)
            let count = lowered.utf8.allSatisfy { $0 < 0x80 } ? "-" : String(lowered.count)
            data += Data("\n\(id)\t\(count)\t".utf8) + writer.take()
        }
        return data + Data("\n".utf8)
    }

    /// The index at `path` when it is of the snapshot `header` describes.
    init?(reading path: String, header: Data, fileSystem: FileSystem) {
        guard let data = try? fileSystem.read(path), data.starts(with: header + Data("\n".utf8)),
            data.last == 0x0A
        else { return nil }
        lines = data[(data.startIndex + header.count)...]
    }

    /// What the index says `needle` (a reference, lowercased and trimmed) names by the second and
    /// third rules of `Reference.matches`: the ids that start with it (four characters or more), else
    /// the ids of the books whose lowercased title it is. `nil` when bytes cannot decide: the needle
    /// is not ASCII where a title of other bytes may still be the same text.
    func ids(named needle: String) -> (prefixed: [Book.ID], titled: [Book.ID])? {
        let isASCII = needle.utf8.allSatisfy { $0 < 0x80 }
        // The only non-ASCII characters that are the same text as ASCII ones (canonical singletons).
        if !isASCII, needle.unicodeScalars.contains(where: { [0x037E, 0x1FEF, 0x212A].contains($0.value) }) {
            return nil
        }
        var prefixed: [Book.ID] = []
        if isASCII, needle.count >= 4, !needle.utf8.contains(0x09) {
            prefixed = hits(Array("\n".utf8) + Array(needle.utf8)).map(\.id)
            if !prefixed.isEmpty { return (prefixed, []) }
        }
        var writer = JSONWriter(compact: true)
        writer.string(needle)
        var titled = Set(hits(Array("\t".utf8) + writer.take() + Array("\n".utf8)).map(\.id))
        // A title of other bytes may be the same text (composed or not): compared as text, those of
        // as many characters.
        let count = needle.count
        for line in nonASCIILines(ofCount: count) where line.title == needle { titled.insert(line.id) }
        return (prefixed, titled.sorted())
    }

    /// The lines in which `needle` occurs, each by the id that starts it.
    private func hits(_ needle: [UInt8]) -> [(id: Book.ID, start: Int)] {
        lines.withUnsafeBytes { bytes in
            var found: [(id: Book.ID, start: Int)] = []
            var offset = 0
            while let at = JSONLine.find(needle, in: bytes, from: offset) {
                offset = at + 1
                var start = needle.first == 0x0A ? at + 1 : at
                while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
                guard let tab = bytes[start...].firstIndex(of: 0x09) else { continue }
                found.append(
                    (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<tab]), as: UTF8.self), start))
            }
            return found
        }
    }

    /// The lines of titles that are not ASCII and have `count` characters, with the title decoded.
    private func nonASCIILines(ofCount count: Int) -> [(id: Book.ID, title: String)] {
        let field = Array("\t\(count)\t".utf8)
        return lines.withUnsafeBytes { bytes in
            var found: [(id: Book.ID, title: String)] = []
            var offset = 0
            while let at = JSONLine.find(field, in: bytes, from: offset) {
                offset = at + 1
                var start = at
                while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
                guard let end = bytes[at...].firstIndex(of: 0x0A) else { continue }
                let raw = Data(bytes[(at + field.count)..<end])
                guard let title = JSONCoding.decodeLine(String.self, from: raw) else { continue }
                found.append(
                    (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self), title))
            }
            return found
        }
    }
}

extension LibraryFiles {
    /// The first line of the index of this snapshot; `nil` when the snapshot has no generation or is
    /// not laid out as bookclub writes it (a store of an earlier schema, or edited by hand).
    private var nameIndexHeader: Data? {
        guard let generation, snapshotRun != nil else { return nil }
        return NameIndex.header(generation: generation, size: snapshotSize, modified: fileSystem.modified(path))
    }

    /// Whether `STORE.names` is the index of this snapshot.
    var hasNameIndex: Bool {
        guard let header = nameIndexHeader else { return true }
        let start = try? fileSystem.readRange(storage.namesPath, 0, header.count + 1)
        return start == header + Data("\n".utf8)
    }

    /// The line of the one book `needle` (a reference, lowercased and trimmed, that is no book's id)
    /// names by an id prefix or a whole title, as the index and the journal's books say, checked
    /// against the book's own line; `nil` when they cannot settle it, or there is no index of this
    /// snapshot.
    func indexedLine(named needle: String) -> Data? {
        guard !needle.isEmpty, let header = nameIndexHeader,
            let index = NameIndex(reading: storage.namesPath, header: header, fileSystem: fileSystem),
            let named = index.ids(named: needle)
        else { return nil }
        // The journal's books stand over the snapshot's.
        var journal: [(id: Book.ID, title: String)] = []
        for id in journalOrder {
            guard case .some(.some(let line)) = journalBooks[id] else { continue }
            guard let title = line.withUnsafeBytes({ JSONLine.string("title", in: $0) }) else { return nil }
            journal.append((id, title))
        }
        let prefixed =
            named.prefixed.filter { journalBooks[$0] == nil }
            + journal.filter { needle.count >= 4 && $0.id.hasPrefix(needle) }.map(\.id)
        let titled =
            named.titled.filter { journalBooks[$0] == nil }
            + journal.filter { $0.title.lowercased() == needle }.map(\.id)
        let ids = prefixed.isEmpty ? titled : prefixed
        guard ids.count == 1, let line = line(of: ids[0]), Self.id(of: line) == ids[0] else { return nil }
        if prefixed.isEmpty {
            guard line.withUnsafeBytes({ JSONLine.string("title", in: $0) })?.lowercased() == needle else { return nil }
        } else {
            guard ids[0].hasPrefix(needle) else { return nil }
        }
        return line
    }

    /// Writes the index of the snapshot's books, replacing one out of date; nothing when the snapshot
    /// cannot have one. Derived data: a failure is passed over.
    func writeNameIndex() {
        guard let header = nameIndexHeader else { return }
        var books: [(id: Book.ID, title: String)] = []
        for line in snapshotBooks {
            guard let id = Self.id(of: line), let title = line.withUnsafeBytes({ JSONLine.string("title", in: $0) })
            else { return }
            books.append((id, title))
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
        let files = try LibraryFiles(reading: self)
        guard !files.hasNameIndex else { return false }
        files.writeNameIndex()
        return files.hasNameIndex
    }
}
