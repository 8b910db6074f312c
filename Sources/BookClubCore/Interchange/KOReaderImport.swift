#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `bookclub import koreader PATH` reads: one sidecar, every sidecar under a folder (an
/// e-reader's disk, say), or KOReader's statistics database.
public struct KOReaderImport {
    public var fileSystem: FileSystem
    /// Runs `sqlite3` for a statistics database.
    public var runner: ProgramRunner
    /// The variables `sqlite3` runs with (its `PATH` finds it).
    public var environment: [String: String]
    public var timeZone: Zone
    /// A folder that is not there yet, for a copy of a statistics database that has a `-wal` file.
    public var scratch: String

    /// Past this many names, a folder is not an e-reader's (the whole disk, say): the search stops.
    public static let mostFilesSearched = 200_000
    /// How deep below the folder the search goes.
    public static let deepestFolder = 16
    /// A larger file is not a sidecar, and is passed over.
    public static let largestSidecar = 16 << 20

    public init(
        fileSystem: FileSystem, runner: ProgramRunner, environment: [String: String], timeZone: Zone, scratch: String
    ) {
        (self.fileSystem, self.runner) = (fileSystem, runner)
        (self.environment, self.timeZone, self.scratch) = (environment, timeZone, scratch)
    }

    /// The sidecar at `path`, or every `metadata.*.lua` under the folder (links are not followed,
    /// `.lua.old` backups are passed over), or the statistics database. One that cannot be read is
    /// said and skipped; a path with none is refused.
    /// - Parameters:
    ///   - path: an absolute path.
    ///   - shown: the path as the reader gave it, for messages.
    public func read(_ path: String, shownAs shown: String) throws -> ReaderImport {
        var sidecars: [String]
        switch fileSystem.kind(path) {
        case .folder:
            sidecars = self.sidecars(under: path)
        case nil:
            guard try fileSystem.size(path) != nil else { throw BookClubError.io(path: shown, cause: "no such file") }
            if try fileSystem.readRange(path, 0, 16) == Data(utf8: "SQLite format 3\0") {
                return try readStatistics(path, shownAs: shown)
            }
            sidecars = [path]
        case let other?:
            throw BookClubError.io(path: shown, cause: "it is \(other.rawValue)")
        }
        guard !sidecars.isEmpty else {
            throw BookClubError.badImport(
                path: shown, line: nil, detail: "no KOReader sidecar (metadata.*.lua) in it or under it")
        }
        var imported = ReaderImport(source: .koreader)
        for sidecar in sidecars.sorted() {
            let origin = sidecar == path ? shown : String(sidecar.dropFirst(path.count + 1))
            do {
                guard let size = try fileSystem.size(sidecar), size <= Self.largestSidecar else {
                    imported.problems.append(.init(place: origin, reason: "larger than 16 MB: not a sidecar"))
                    continue
                }
                let (book, bookmarks) = try KOReaderSidecar.read(
                    fileSystem.read(sidecar) ?? Data(), origin: origin, modified: fileSystem.modified(sidecar),
                    timeZone: timeZone)
                imported.books.append(book)
                imported.bookmarks += bookmarks
            } catch let problem as ReaderImport.Problem {
                imported.problems.append(problem)
            } catch BookClubError.io(_, let cause) {
                imported.problems.append(.init(place: origin, reason: cause))
            }
        }
        guard !imported.books.isEmpty else {
            let first = imported.problems.first.map { " (\($0.place): \($0.reason))" } ?? ""
            throw BookClubError.badImport(path: shown, line: nil, detail: "no sidecar bookclub can read" + first)
        }
        return imported
    }

    /// The paths of the `metadata.*.lua` files under `folder`, at most `deepestFolder` folders down,
    /// looking at no more than `mostFilesSearched` names.
    func sidecars(under folder: String) -> [String] {
        var sidecars: [String] = []
        var folders = [(folder, 0)]
        var visited = 0
        while let (folder, depth) = folders.popLast(), visited < Self.mostFilesSearched {
            for name in fileSystem.list(folder).sorted() {
                visited += 1
                let path = folder + "/" + name
                switch fileSystem.kind(path) {
                case .folder where depth < Self.deepestFolder: folders.append((path, depth + 1))
                case nil where name.hasPrefix("metadata.") && name.hasSuffix(".lua"): sidecars.append(path)
                default: break
                }
            }
        }
        return sidecars
    }

    /// KOReader's `statistics.sqlite3`, read with the `sqlite3` program (`SQLiteFile`), leaving nothing
    /// beside it (a WAL database otherwise gets `-wal` and `-shm` files, which a read-only e-reader
    /// refuses).
    func readStatistics(_ path: String, shownAs shown: String) throws -> ReaderImport {
        let database = try SQLiteFile(
            path, shownAs: shown, what: "KOReader's statistics", fileSystem: fileSystem, runner: runner,
            environment: environment, scratch: scratch)
        let rows = try database.rows(KOReaderStatistics.query, as: KOReaderStatistics.Row.self)
        var imported = ReaderImport(source: .koreader)
        imported.books = KOReaderStatistics.books(rows, origin: shown, timeZone: timeZone)
        return imported
    }
}
