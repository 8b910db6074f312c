import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading the files of e-readers, before the store is opened.
extension ImportCommand {
    /// A Kindle's clippings, read a chunk at a time; a file with no entry bookclub can read is refused.
    func readKindle(in session: Session) throws -> ReaderImport {
        var reader = KindleClippings(timeZone: session.timeZone)
        if file == "-" {
            reader.read(try read(in: session))
        } else {
            let path = absolutePath(in: session)
            do {
                guard try session.fileSystem.size(path) != nil else {
                    throw BookClubError.io(path: shownPath, cause: "no such file")
                }
                try session.fileSystem.readLines(path, 0..<Int.max) { reader.read($0) }
            } catch BookClubError.io(_, let cause) {
                throw BookClubError.io(path: shownPath, cause: cause)
            }
        }
        let imported = reader.finish()
        guard !imported.books.isEmpty || imported.bookmarks > 0 || imported.clippingLimits > 0 else {
            throw BookClubError.badImport(
                path: shownPath, line: nil,
                detail: "no Kindle clipping in it"
                    + (imported.problems.first.map { " (\($0.place): \($0.reason))" } ?? "")
                    + "; a Kindle keeps them in documents/My Clippings.txt")
        }
        return imported
    }

    /// KOReader's sidecars: the file given, or every `metadata.*.lua` under the folder given (links
    /// are not followed, `.lua.old` backups are passed over). One that cannot be read is said and
    /// skipped; a path with none is refused.
    func readKOReader(in session: Session) throws -> ReaderImport {
        let root = absolutePath(in: session)
        let fileSystem = session.fileSystem
        var sidecars: [String] = []
        switch fileSystem.kind(root) {
        case .folder:
            var folders = [(root, 0)]
            var visited = 0
            while let (folder, depth) = folders.popLast(), visited < Self.mostFilesSearched {
                for name in fileSystem.list(folder).sorted() {
                    visited += 1
                    let path = folder + "/" + name
                    switch fileSystem.kind(path) {
                    case .folder where depth < 16: folders.append((path, depth + 1))
                    case nil where name.hasPrefix("metadata.") && name.hasSuffix(".lua"): sidecars.append(path)
                    default: break
                    }
                }
            }
        case nil:
            guard try fileSystem.size(root) != nil else {
                throw BookClubError.io(path: shownPath, cause: "no such file")
            }
            if try fileSystem.readRange(root, 0, 16) == Data("SQLite format 3\0".utf8) {
                return try readStatistics(at: root, in: session)
            }
            sidecars = [root]
        case let other?:
            throw BookClubError.io(path: shownPath, cause: "it is \(other.rawValue)")
        }
        guard !sidecars.isEmpty else {
            throw BookClubError.badImport(
                path: shownPath, line: nil, detail: "no KOReader sidecar (metadata.*.lua) in it or under it")
        }
        var imported = ReaderImport(source: .koreader)
        for path in sidecars.sorted() {
            let origin = path == root ? shownPath : String(path.dropFirst(root.count + 1))
            do {
                guard let size = try fileSystem.size(path), size <= Self.largestSidecar else {
                    imported.problems.append(.init(place: origin, reason: "larger than 16 MB: not a sidecar"))
                    continue
                }
                let data = try fileSystem.read(path) ?? Data()
                let (book, bookmarks) = try KOReaderSidecar.read(
                    data, origin: origin, modified: fileSystem.modified(path), timeZone: session.timeZone)
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
            throw BookClubError.badImport(path: shownPath, line: nil, detail: "no sidecar bookclub can read" + first)
        }
        return imported
    }

    /// KOReader's `statistics.sqlite3`, read with the `sqlite3` program: `immutable=1` reads it as it is,
    /// leaving nothing beside it (a WAL database otherwise gets `-wal` and `-shm` files, which a
    /// read-only e-reader refuses).
    func readStatistics(at path: String, in session: Session) throws -> ReaderImport {
        guard let sqlite3 = Subprocess("sqlite3", environment: session.services.variables) else {
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
        let (code, output, truncated) = try sqlite3.run(
            ["-readonly", "-json", uri + "?immutable=1", KOReaderStatistics.query], limit: Self.largestStatistics)
        guard !truncated else {
            throw BookClubError.badImport(
                path: shownPath, line: nil, detail: "more statistics than bookclub reads (1 GB)")
        }
        guard code == 0 else {
            throw BookClubError.badImport(
                path: shownPath, line: nil,
                detail: "sqlite3 could not read KOReader's statistics from it (exit code \(code))")
        }
        var imported = ReaderImport(source: .koreader)
        imported.books = try KOReaderStatistics.read(Data(output), origin: shownPath, timeZone: session.timeZone)
        return imported
    }

    static let largestStatistics = 1 << 30

    /// Past this, a folder is not an e-reader's (the whole disk, say): the search stops.
    static let mostFilesSearched = 200_000
    static let largestSidecar = 16 << 20
}
