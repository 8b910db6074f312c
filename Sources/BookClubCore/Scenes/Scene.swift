#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Per-scene state, the CLI's SceneStorage: the book, or the club, selected in one shell's scene.
///
/// A scene is named by `BOOKCLUB_SCENE`; two scenes share one store but not their selection.
/// Selecting a book clears the club, and the other way round.
public struct SceneState: Codable, Equatable, Sendable {
    public static let schemaVersion = 1

    public var selection: Book.ID?
    /// A selected club: commands that take a book then default to its current book.
    public var club: Club.ID?

    public init(selection: Book.ID? = nil, club: Club.ID? = nil) {
        self.selection = selection
        self.club = club
    }

    /// The persistence of the scene file at `path`. A missing file means nothing is selected.
    public static func persistence(path: String, fileSystem: FileSystem) -> Persistence<SceneState> {
        Persistence(
            load: {
                guard let data = try fileSystem.read(path) else { return SceneState() }
                let file = try JSONCoding.decode(SceneFile.self, from: data, path: path)
                if file.schemaVersion > schemaVersion {
                    throw BookClubError.newerSchema(path: path, found: file.schemaVersion, supported: schemaVersion)
                }
                return SceneState(selection: file.selection, club: file.club)
            },
            save: { _, scene in
                let file = SceneFile(schemaVersion: schemaVersion, selection: scene.selection, club: scene.club)
                try fileSystem.writeAtomically(path, try JSONCoding.encoder().encode(file) + Data(utf8: "\n"))
            })
    }

    private struct SceneFile: Codable {
        var schemaVersion: Int
        var selection: Book.ID?
        var club: Club.ID?
    }
}
