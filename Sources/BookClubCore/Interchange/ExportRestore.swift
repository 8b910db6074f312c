#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `import json` of an export into an empty store (a backup put back), a few books at a time: the
/// file is read a part at a time, each book decoded and checked as `LibraryExport.decode` checks it,
/// and every entry but each reading's latest written to the history at once (`StagedHistory`). The
/// books are kept as a store loads them, with their latest entries only, so that a million entries
/// are never held; the save writes those latest entries after the staged ones and commits them all
/// as the one change. What comes out is what reading the file whole would give.
///
/// ```swift
/// let (file, staged) = try ExportRestore.stage(file: path, shownPath: path, fileSystem: fileSystem,
///                                              storage: storage, base: storage.committedHistoryLength())
/// ```
public enum ExportRestore {
    /// The file is not one the restore is sure of (not a plain file, not JSON, not a bookclub export,
    /// a member an export does not have, a book that is not sound): nothing is left staged, and
    /// reading the file whole says what is wrong.
    public struct GaveWay: Error {}

    /// The most one book may take in the file; a larger one gives way to reading the file whole.
    static let largestBook = 64 << 20
    /// How much of the file is read at once, and of the history written at once.
    static let part = StagedHistory.part

    /// Reads the export at `path` and writes every entry but each reading's latest to the history of
    /// `storage`, from `base` (its committed length); returns the file, its books holding only
    /// their latest entries, and what was staged, for the save (`LibraryStorage.persistence`).
    ///
    /// - Throws: `GaveWay` when the file is not one it is sure of, or an error of the files; either
    ///   way the history is cut back to `base`.
    public static func stage(
        file path: String, shownPath: String, fileSystem: FileSystem, storage: LibraryStorage, base: Int
    ) throws -> (file: ImportFile, staged: StagedHistory) {
        // A pipe, or a link to one (`<(zcat backup.json.gz)`, `/dev/stdin`), is read once and whole.
        guard fileSystem.kind(path) == nil || fileSystem.realPath(path).map({ fileSystem.kind($0) == nil }) == true
        else { throw GaveWay() }
        var staged: (file: ImportFile, staged: StagedHistory)?
        var wrote = false
        do {
            // Opened once, never read as parts of two files: a backup renamed over meanwhile (a nightly
            // export) is read to its end as it was opened, and one written over in place fails.
            let opened = try fileSystem.readOpened(path) { read in
                var restore = Restore(
                    source: Source(read: read), shownPath: shownPath, staged: StagedHistory(base: base))
                try restore.document { bytes, offset in
                    wrote = true
                    try fileSystem.write(storage.historyPath, Data(bytes), offset)
                }
                staged = (
                    ImportFile(
                        format: .json, items: restore.books.map { ImportFile.Item(book: $0) }, clubs: restore.clubs),
                    restore.staged
                )
            }
            guard opened, let staged else { throw GaveWay() }
            return staged
        } catch {
            if wrote { _ = try? fileSystem.append(storage.historyPath, Data(), base) }
            throw error
        }
    }

    /// The file, read a part at a time: the bytes from the value being read on.
    struct Source {
        let read: (_ offset: Int, _ count: Int) throws -> Data
        var buffer: [UInt8] = []
        /// Where the next byte is in `buffer`.
        var position = 0
        /// How much of the file `buffer` ends at.
        var offset = 0
        var ended = false

        /// Whether `buffer` has a byte at `index`, reading more of the file when needed.
        mutating func has(_ index: Int) throws -> Bool {
            while index >= buffer.count, !ended {
                guard buffer.count - position <= ExportRestore.largestBook else { throw GaveWay() }
                let data = try read(offset, ExportRestore.part)
                if data.isEmpty { ended = true }
                buffer += data
                offset += data.count
            }
            return index < buffer.count
        }

        /// The next byte after blanks, not taken; `nil` at the end.
        mutating func peek() throws -> UInt8? {
            while try has(position) {
                switch buffer[position] {
                case 0x20, 0x0A, 0x09, 0x0D: position += 1
                default: return buffer[position]
                }
            }
            return nil
        }

        /// Takes `byte` after blanks, or gives way.
        mutating func take(_ byte: UInt8) throws {
            guard try peek() == byte else { throw GaveWay() }
            position += 1
        }

        /// The bytes of the next value after blanks (an object, an array, a string, a number or a
        /// literal), taken; nesting deeper than a store's file may (`JSONCoding.maximumDepth`), or a
        /// value cut short, gives way.
        mutating func value() throws -> ArraySlice<UInt8> {
            // What was read before this value is not needed again.
            if position >= ExportRestore.part {
                buffer.removeFirst(position)
                position = 0
            }
            guard let first = try peek() else { throw GaveWay() }
            let start = position
            var end = start
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") {
                var nesting = JSONNesting()
                repeat {
                    guard try has(end) else { throw GaveWay() }
                    nesting.take(buffer[end])
                    end += 1
                    guard nesting.depth <= JSONCoding.maximumDepth - 2 else { throw GaveWay() }
                } while nesting.depth > 0 || nesting.inString
            } else {
                while try has(end), !Self.ends(buffer[end]) { end += 1 }
            }
            position = end
            return buffer[start..<end]
        }

        /// Whether a byte ends a number or a literal.
        static func ends(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x09, 0x0D: true
            default: false
            }
        }
    }

    /// The document read so far: its books as a store loads them, its clubs, and the history staged.
    struct Restore {
        var source: Source
        let shownPath: String
        var staged: StagedHistory
        var books: [Book] = []
        var clubs: [Club] = []
        var lines = JSONWriter(compact: true)

        /// Reads the document, its members in any order; `write` writes a part of the staged lines.
        mutating func document(write: ([UInt8], Int) throws -> Void) throws {
            var seen = Set<String>()
            var format: String?
            var version: Int?
            try source.take(UInt8(ascii: "{"))
            if try source.peek() == UInt8(ascii: "}") { throw GaveWay() }
            repeat {
                let key = try decode(String.self, source.value())
                guard seen.insert(key).inserted else { throw GaveWay() }
                try source.take(UInt8(ascii: ":"))
                switch key {
                case "books": try books(write: write)
                case "clubs": clubs = try decode([Club].self, source.value())
                case "format": format = try decode(String.self, source.value())
                case "version": version = try decode(Int.self, source.value())
                // A member an export does not have: the whole read says whether it may be there.
                default: throw GaveWay()
                }
                guard let next = try source.peek() else { throw GaveWay() }
                source.position += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw GaveWay() }
            } while true
            // The whole library checked again, its books as loaded: their ids, and the clubs.
            guard try source.peek() == nil, format == LibraryExport.formatName,
                let version, version <= LibraryExport.currentVersion, seen.contains("books"), seen.contains("clubs"),
                Library(books: books, clubs: clubs).problem() == nil
            else { throw GaveWay() }
            if !lines.bytes.isEmpty { try flush(write) }
        }

        /// Reads the books, staging each one's lines.
        mutating func books(write: ([UInt8], Int) throws -> Void) throws {
            try source.take(UInt8(ascii: "["))
            if try source.peek() == UInt8(ascii: "]") {
                source.position += 1
                return
            }
            repeat {
                try add(decode(Book.self, source.value()))
                if lines.bytes.count >= ExportRestore.part { try flush(write) }
                guard let next = try source.peek() else { throw GaveWay() }
                source.position += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw GaveWay() }
            } while true
        }

        /// A book, checked as a document's are; its entries but each reading's latest staged.
        mutating func add(_ decoded: Book) throws {
            var book = decoded
            book.deriveFractions()
            // Its entries checked here, for the library checked at the end holds only the latest.
            guard Library(books: [book]).problem() == nil else { throw GaveWay() }
            var tail = staged.tails[book.id]
            for index in book.readings.indices {
                let entries = book.readings[index].progress.entries
                for entry in entries.dropLast() {
                    let at = staged.base + staged.length + lines.bytes.count
                    lines.historyLine(
                        book: book.id, reading: book.readings[index].id, entry: entry, previous: tail ?? -1)
                    tail = at
                }
                book.readings[index].progress = .partial(entries: entries.last.map { [$0] } ?? [], withdrawn: [])
            }
            staged.tails[book.id] = tail
            books.append(book)
        }

        mutating func flush(_ write: ([UInt8], Int) throws -> Void) throws {
            let bytes = lines.bytes
            try write(bytes, staged.base + staged.length)
            staged.length += bytes.count
            lines.bytes.removeAll(keepingCapacity: true)
        }

        /// A value decoded as the whole document's would be; any failure gives way.
        func decode<T: Decodable>(_ type: T.Type, _ bytes: ArraySlice<UInt8>) throws -> T {
            do {
                return try JSONCoding.decode(type, from: Data(bytes), path: shownPath)
            } catch {
                throw GaveWay()
            }
        }
    }
}
