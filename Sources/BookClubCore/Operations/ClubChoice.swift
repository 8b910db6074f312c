#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The club a command is about: the one a reference names, else the scene's selected club.
public struct ClubChoice: Equatable, Sendable {
    public var reference: String?
    public var scene: SceneState

    public init(reference: String?, scene: SceneState) {
        self.reference = reference
        self.scene = scene
    }

    /// The chosen club in `library`.
    public func choose(in library: Library) throws -> Club {
        if let reference { return try library.resolveClub(reference) }
        guard let id = scene.club, let club = library.clubs.first(where: { $0.id == id }) else {
            throw BookClubError.noClubSelected
        }
        return club
    }
}
