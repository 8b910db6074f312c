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

    /// KOReader's sidecar, the sidecars under a folder, or its statistics database (`KOReaderImport`).
    func readKOReader(in session: Session) throws -> ReaderImport {
        let koreader = KOReaderImport(
            fileSystem: session.fileSystem, runner: session.runner, environment: session.variables,
            timeZone: session.timeZone, scratch: session.scratchFolder())
        return try koreader.read(absolutePath(in: session), shownAs: shownPath)
    }

    /// A Kobo's `KoboReader.sqlite`, or the one under the folder a Kobo is mounted at (`KoboImport`).
    func readKobo(in session: Session) throws -> ReaderImport {
        guard file != "-" else {
            throw BookClubError.badImport(
                path: shownPath, line: nil, detail: "a Kobo's library is read from its file, not standard input")
        }
        let kobo = KoboImport(
            fileSystem: session.fileSystem, runner: session.runner, environment: session.variables,
            timeZone: session.timeZone, scratch: session.scratchFolder())
        return try kobo.read(absolutePath(in: session), shownAs: shownPath)
    }
}

/// Reading a Calibre library, before the store is opened.
extension ImportCommand {
    /// The library's custom columns, listed; or its books, merged as an export's are.
    func runCalibre(_ request: CalibreRequest, in session: Session) throws {
        let calibre = try CalibreLibrary(
            absolutePath(in: session), shownAs: shownPath, fileSystem: session.fileSystem, runner: session.runner,
            environment: session.variables, scratch: session.scratchFolder())
        guard !request.listColumns else {
            let columns = try calibre.columns()
            if json {
                try session.writeJSON(CalibreColumnsJSON(columns))
            } else if columns.isEmpty {
                session.output.write("\(shownPath) has no custom columns.", as: .message)
            } else {
                for line in CalibreColumnsText.table(columns, width: session.terminal.lineWidth) {
                    session.output.write(line, as: .data)
                }
            }
            return
        }
        try merge(
            calibre.importFile(
                readColumn: request.readColumn, dateReadColumn: request.dateReadColumn,
                now: session.now().wholeSeconds, makeID: session.makeID, ids: session.ids),
            in: session)
    }
}

extension Session {
    /// A folder that is not there yet, in the temporary folder, for a copy a reader makes and removes.
    func scratchFolder() -> String {
        (services.variables["TMPDIR"]?.nonBlank ?? "/tmp") + "/bookclub-" + services.makeID()
    }
}
