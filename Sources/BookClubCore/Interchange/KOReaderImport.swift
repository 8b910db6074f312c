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

    /// Past this many names, a folder is not an e-reader's (the whole disk, say): the search stops.
    public static let mostFilesSearched = 200_000
    /// How deep below the folder the search goes.
    public static let deepestFolder = 16
    /// A larger file is not a sidecar, and is passed over.
    public static let largestSidecar = 16 << 20
    /// What `sqlite3` may print of a statistics database.
    public static let largestStatistics = 1 << 30

    public init(fileSystem: FileSystem, runner: ProgramRunner, environment: [String: String], timeZone: Zone) {
        (self.fileSystem, self.runner) = (fileSystem, runner)
        (self.environment, self.timeZone) = (environment, timeZone)
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
            if try fileSystem.readRange(path, 0, 16) == Data("SQLite format 3\0".utf8) {
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

    /// KOReader's `statistics.sqlite3`, read with the `sqlite3` program: `immutable=1` reads it as it
    /// is, leaving nothing beside it (a WAL database otherwise gets `-wal` and `-shm` files, which a
    /// read-only e-reader refuses).
    func readStatistics(_ path: String, shownAs shown: String) throws -> ReaderImport {
        guard runner.find("sqlite3", environment) != nil else {
            throw BookClubError.unavailable(
                "Reading KOReader's statistics needs the sqlite3 program; install it (the sqlite3 package)")
        }
        var uri = "file:"
        for character in path {
            switch character {
            case "%": uri += "%25"
            case "?": uri += "%3F"
            case "#": uri += "%23"
            default: uri.append(character)
            }
        }
        let sqlite3 = Program(
            "sqlite3", ["-readonly", "-json", uri + "?immutable=1", KOReaderStatistics.query], environment: environment,
            output: .capture(limit: Self.largestStatistics))
        let result = try runner.run(sqlite3)
        guard !result.truncated else {
            throw BookClubError.badImport(path: shown, line: nil, detail: "more statistics than bookclub reads (1 GB)")
        }
        guard result.status == 0 else {
            throw BookClubError.badImport(
                path: shown, line: nil,
                detail: "sqlite3 could not read KOReader's statistics from it (exit code \(result.status))")
        }
        var imported = ReaderImport(source: .koreader)
        imported.books = try KOReaderStatistics.read(result.output, origin: shown, timeZone: timeZone)
        return imported
    }
}
