#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `bookclub doctor` checks: the store, its history, settings, scenes and the files beside them.
public enum Doctor {
    public struct Finding: Equatable, Sendable, Codable {
        public enum Kind: String, Codable, Sendable {
            /// All is well with this part.
            case ok
            /// Worth knowing; nothing is wrong.
            case note
            /// Something is wrong.
            case problem
            /// Something was wrong and was repaired.
            case fixed
        }

        public var kind: Kind
        public var message: String
    }

    /// - Parameters:
    ///   - sceneFolder: the folder of the scene files.
    ///   - fix: repair what can be repaired without losing anything (stale selections, temporary files).
    ///   - now: the time, against which a temporary file counts as stale.
    public static func examine(
        storage: LibraryStorage, settingsPath: String, sceneFolder: String, lockTimeout: Double, fix: Bool, now: Date
    ) -> [Finding] {
        var findings: [Finding] = []
        let fileSystem = storage.fileSystem
        // Temporary files of bookclub's own writes only, listed first: opening the store under its
        // lock (as --fix does) sweeps the store's silently. Those of settings and scenes, which have no
        // lock, are removed only when they are a minute old.
        let storeTemporaries = storage.temporaryFiles.map(POSIXFile.temporaryPrefix(for:))
        let otherTemporaries =
            [POSIXFile.temporaryPrefix(for: settingsPath)]
            + fileSystem.list(sceneFolder).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .map { POSIXFile.temporaryPrefix(for: sceneFolder + "/" + $0) }
        for prefix in storeTemporaries + otherTemporaries {
            let folder = prefix.parentPath
            for name in fileSystem.list(folder).sorted() where (folder + "/" + name).hasPrefix(prefix) {
                let path = folder + "/" + name
                let isStore = storeTemporaries.contains(prefix)
                if fix
                    && (isStore
                        || now.timeIntervalSince(fileSystem.modified(path) ?? now) > 60 && fileSystem.remove(path))
                {
                    findings.append(.init(kind: .fixed, message: "removed \(path), left by an interrupted write"))
                } else {
                    findings.append(
                        .init(kind: .problem, message: "\(path) was left by an interrupted write (--fix removes it)"))
                }
            }
        }
        if fix {
            do {
                if let restart = try storage.restartLostJournal(
                    lockTimeout: lockTimeout, keepingAsideWith: ".lost-journal-" + DateText.stamp(now))
                {
                    findings.append(
                        .init(
                            kind: .fixed,
                            message:
                                "started a new \(storage.journalPath): the store goes on from \(storage.path) and its history"
                        ))
                    if restart.recovered > 0 {
                        findings.append(
                            .init(
                                kind: .fixed,
                                message:
                                    "put back \(NumberText.count(restart.recovered, "progress entry", plural: "progress entries")) from \(storage.historyPath) that \(storage.path) did not count"
                            ))
                    }
                    if restart.unplaced > 0 {
                        findings.append(
                            .init(
                                kind: .note,
                                message:
                                    "kept \(NumberText.count(restart.unplaced, "line")) of \(storage.historyPath) of books \(storage.path) does not hold in \(restart.unplacedPath)"
                            ))
                    }
                    if let copy = restart.undoCopyPath {
                        findings.append(
                            .init(
                                kind: .note,
                                message:
                                    "kept a copy of \(storage.undoPath), whose records hold books as the lost journal had them, in \(copy)"
                            ))
                    }
                }
            } catch {
                // Reported below, as the store is opened.
            }
        }
        var library: Library?
        do {
            // Under the lock, so that a repair cannot race a writer; the store opened for that alone (no
            // book of it decoded), the walk below reads the library once.
            let store = try Store(
                persistence: storage.persistence(lockTimeout: fix ? lockTimeout : nil, scope: .books([])))
            // Every book read and checked, details and all, and every entry, a few books at a time: a
            // history of a million entries is never held whole.
            var entries = 0
            var bookFindings: [Finding] = []
            let walk = try storage.historyWalk()
            try walk.forEachBook { book in
                for reading in book.readings {
                    entries += reading.progress.entries.count
                    if let pages = book.pages, let page = reading.progress.entries.compactMap(\.page).max(),
                        page > pages
                    {
                        bookFindings.append(
                            .init(
                                kind: .problem,
                                message:
                                    "'\(book.title)' has an entry at p. \(page), past its \(NumberText.count(pages, "page")); set the page count with `bookclub edit`"
                            ))
                    }
                    if let started = reading.started, let ended = reading.ending?.date, ended < started {
                        bookFindings.append(.init(kind: .note, message: "'\(book.title)' ended before it started"))
                    }
                }
            }
            findings.append(
                .init(
                    kind: .ok,
                    message:
                        "store: \(NumberText.count(walk.library.books.count, "book")), \(NumberText.count(entries, "entry", plural: "entries")), \(NumberText.count(walk.library.clubs.count, "club"))"
                )
            )
            findings += bookFindings
            try findings += outOfOrder(storage: storage, library: walk.library)
            // Only a store whose every entry was read is repaired below.
            library = walk.library
            if !fix { findings += describe(try storage.leftovers(), storage: storage, fixed: false) }
            withExtendedLifetime(store) {}
        } catch {
            findings.append(.init(kind: .problem, message: describe(error)))
        }
        // Once the store above is released with its lock.
        if fix, library != nil {
            do {
                findings += describe(try storage.cutLeftovers(lockTimeout: lockTimeout), storage: storage, fixed: true)
                if try storage.foldJournal(lockTimeout: lockTimeout) {
                    findings.append(
                        .init(
                            kind: .fixed,
                            message: "folded \(storage.journalPath) into \(storage.path), which now holds every change")
                    )
                }
                if try storage.refreshNameIndex(lockTimeout: lockTimeout) {
                    findings.append(
                        .init(kind: .fixed, message: "wrote \(storage.namesPath), the index of the books' titles"))
                }
                if try storage.refreshListing(lockTimeout: lockTimeout) {
                    findings.append(
                        .init(kind: .fixed, message: "wrote \(storage.listingPath), the books' rows for `list`"))
                }
            } catch {
                findings.append(.init(kind: .problem, message: describe(error)))
            }
        }
        if !fix, (try? fileSystem.size(storage.lockPath)) ?? nil != nil {
            do {
                let unlock = try fileSystem.lock(storage.lockPath, 0)
                unlock()
            } catch {
                findings.append(
                    .init(
                        kind: .note,
                        message: "the store is locked: another bookclub (or a script with flock) is using it"))
            }
        }
        do {
            _ = try Store(persistence: Settings.persistence(path: settingsPath, fileSystem: fileSystem))
            findings.append(.init(kind: .ok, message: "settings: \(settingsPath)"))
        } catch {
            findings.append(
                .init(kind: .problem, message: describe(error) + " Start over with `bookclub settings reset --all`."))
        }
        for name in fileSystem.list(sceneFolder).sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = sceneFolder + "/" + name
            do {
                let scene = try Store(persistence: SceneState.persistence(path: path, fileSystem: fileSystem))
                let staleBook =
                    scene.state.selection.map { id in library?.books.contains { $0.id == id } == false } ?? false
                let staleClub = scene.state.club.map { id in library?.clubs.contains { $0.id == id } == false } ?? false
                guard staleBook || staleClub else { continue }
                let what =
                    "the scene '\(String(name.dropLast(5)))' selects a \(staleBook ? "book" : "club") that is no longer there"
                if fix {
                    scene.update { $0 = SceneState() }
                    try scene.save()
                    findings.append(.init(kind: .fixed, message: what + "; the selection was cleared"))
                } else {
                    findings.append(.init(kind: .problem, message: what + " (--fix clears it)"))
                }
            } catch {
                findings.append(.init(kind: .problem, message: describe(error)))
            }
        }
        return findings
    }

    /// A note for each book whose history was logged out of time order (backdated entries): harmless,
    /// as bookclub shows entries in time order.
    private static func outOfOrder(storage: LibraryStorage, library: Library) throws -> [Finding] {
        var lastTime: [UUID: Date] = [:]
        var books = Set<Book.ID>()
        let length = try storage.readFiles(locked: false).commit.historyLength
        try storage.forEachHistoryLine(length: length) { line in
            // Read as every walk of the history reads it (the decoder took 10 µs a line).
            guard
                let record = HistoryLine.record(line)
                    ?? JSONCoding.decodeLine(HistoryRecord.self, from: Data(line))
            else { return }
            if let previous = lastTime[record.reading], record.entry.time < previous { books.insert(record.book) }
            lastTime[record.reading] = max(record.entry.time, lastTime[record.reading] ?? record.entry.time)
        }
        return library.books.filter { books.contains($0.id) }.map {
            Finding(
                kind: .note,
                message: "'\($0.title)' has entries logged out of time order (backdated); they are shown in time order")
        }
    }

    /// What a stopped save left, found or removed.
    private static func describe(_ leftovers: Leftovers, storage: LibraryStorage, fixed: Bool) -> [Finding] {
        func bytes(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }
        var findings: [Finding] = []
        if leftovers.journalBytes > 0 {
            findings.append(
                fixed
                    ? .init(
                        kind: .fixed,
                        message:
                            "cut \(bytes(leftovers.journalBytes)) of a change that never committed from the end of \(storage.journalPath)"
                    )
                    : .init(
                        kind: .problem,
                        message:
                            "\(storage.journalPath) ends in \(bytes(leftovers.journalBytes)) of a change that never committed (a save was stopped); nothing committed is lost (--fix cuts them)"
                    ))
        }
        if leftovers.historyBytes > 0 {
            findings.append(
                fixed
                    ? .init(
                        kind: .fixed,
                        message:
                            "cut \(bytes(leftovers.historyBytes)) past the committed history from the end of \(storage.historyPath)"
                    )
                    : .init(
                        kind: .problem,
                        message:
                            "\(storage.historyPath) ends in \(bytes(leftovers.historyBytes)) the store never committed (a save was stopped); nothing committed is lost (--fix cuts them)"
                    ))
        }
        if leftovers.undoRecords > 0 {
            let records = leftovers.undoRecords == 1 ? "1 record" : "\(leftovers.undoRecords) records"
            findings.append(
                fixed
                    ? .init(
                        kind: .fixed,
                        message: "dropped \(records) of changes the store does not hold from \(storage.undoPath)")
                    : .init(
                        kind: .problem,
                        message:
                            "\(storage.undoPath) holds \(records) of changes the store does not hold (never committed, or undone); history and undo pass over them (--fix drops them)"
                    ))
        }
        return findings
    }

    private static func describe(_ error: any Error) -> String {
        (error as? BookClubError)?.errorDescription ?? String(describing: error)
    }
}
