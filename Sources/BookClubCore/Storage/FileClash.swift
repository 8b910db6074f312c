#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A file that cannot play its role: one file given two roles (a settings path naming the store, an
/// `--output` naming the journal), or a file plainly of another kind than its role's.
public struct FileClash: Equatable, Sendable {
    /// What is said of it, naming the files.
    public var message: String
    /// Whether a path the user typed (a flag or a variable) is at fault: a usage error. Otherwise the
    /// file at bookclub's own place is damaged, or is a link where a file belongs (`isLink`).
    public var isTyped: Bool
    public var isLink = false
}

extension LibraryStorage {
    /// The first clash among the store's files, the settings and scene files and `output`, checked
    /// before any of them is opened; `nil` when every file has one role and is of its kind.
    ///
    /// - Parameter workingDirectory: what a relative path is relative to.
    public func fileClash(paths: Paths, output: String?, workingDirectory: String) -> FileClash? {
        sameFile(paths: paths, output: output, workingDirectory: workingDirectory) ?? wrongKind(paths: paths)
    }

    /// Two roles given one file, said as an error naming both.
    private func sameFile(paths: Paths, output: String?, workingDirectory cwd: String) -> FileClash? {
        // The store's companions share its folder, which is resolved once.
        var folders: [String: String?] = [:]
        func absolute(_ path: String) -> String {
            let full = path.hasPrefix("/") ? path : cwd + "/" + path
            // Symbolic links and `..` resolved where the file (or its folder) exists.
            let name = full.lastPathComponent
            if name == "." || name == ".." || fileSystem.kind(full) == .symbolicLink {
                if let real = fileSystem.realPath(full) { return real }
            }
            let folder = full.parentPath
            guard !folder.isEmpty else { return full }
            let real = folders[folder] ?? fileSystem.realPath(folder)
            folders[folder] = real
            guard let real else { return full }
            return real + "/" + name
        }
        let store = paths.storeIsGiven
        var roles: [(role: String, path: String, isTyped: Bool)] = [
            ("the store", path, store), ("the store's journal", journalPath, store),
            ("the store's history", historyPath, store), ("the store's undo log", undoPath, store),
            ("the store's earlier undo log", previousUndoPath, store), ("the store's lock", lockPath, store),
            ("the store's sync state", syncStatePath, store), ("the store's index of titles", namesPath, store),
            ("the store's listing", listingPath, store),
            ("the settings file", paths.settings, paths.settingsIsGiven), ("the scene file", paths.scene, false),
        ]
        if let output, output != "-" { roles.append(("--output", output, true)) }
        var seen: [String: (role: String, isTyped: Bool)] = [:]
        for (role, path, isTyped) in roles {
            let key = absolute(path)
            if let other = seen[key] {
                let message = "\(other.role) and \(role) are the same file (\(key))"
                guard other.isTyped || isTyped else {
                    // Two of bookclub's own places are one file only through a link.
                    return FileClash(
                        message: message + "; one is a link to the other: put the file itself in its place",
                        isTyped: false, isLink: true)
                }
                return FileClash(message: message + "; give each its own", isTyped: true)
            }
            seen[key] = (role, isTyped)
        }
        return nil
    }

    /// A file whose content is plainly of another kind than its role's (a store named as the settings
    /// file, settings named as the store); `nil` when each is of its kind, absent, or not bookclub's
    /// at all (which its own reader then reports).
    private func wrongKind(paths: Paths) -> FileClash? {
        // A struct and arrays, not tuples and sets: the runtime makes a tuple's or a set's type the
        // first time a process meets it, which cost every command a tenth of a millisecond here.
        struct Role {
            var role: String
            var path: String
            var kinds: [DataFileKind]
            var setBy: String
            var isTyped: Bool
        }
        let roles = [
            Role(
                role: "the store", path: path, kinds: [.store], setBy: "--store or BOOKCLUB_STORE",
                isTyped: paths.storeIsGiven),
            Role(
                role: "the settings file", path: paths.settings, kinds: [.settings],
                setBy: "--settings or BOOKCLUB_SETTINGS",
                isTyped: paths.settingsIsGiven),
            // A scene that selects nothing looks like settings.
            Role(
                role: "the scene file", path: paths.scene, kinds: [.scene, .settings], setBy: "BOOKCLUB_SCENE",
                isTyped: false),
        ]
        for role in roles {
            // The opening of a store as bookclub writes it says enough; anything else is read whole.
            var opening = Data()
            try? fileSystem.readLines(role.path, 0..<64) { opening += $0 }
            guard !opening.isEmpty, DataFileKind.of(opening) != .store || role.kinds != [.store] else { continue }
            guard let data = try? fileSystem.read(role.path), let kind = DataFileKind.of(data),
                !role.kinds.contains(kind)
            else {
                continue
            }
            let fix =
                role.isTyped ? "give \(role.setBy) a path of its own" : "move it away, or put \(role.role) itself there"
            return FileClash(
                message: "\(role.role) (\(role.path)) holds \(kind.rawValue); \(fix)", isTyped: role.isTyped)
        }
        return nil
    }
}
