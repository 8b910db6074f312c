#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What this reader keeps of one shared club, beside the store (`STORE.clubs/<club>/`) and never in the
/// folder: the folder, the founder's key pinned on joining, this device and its key, which of the
/// reader's books are the club's, what was published, and a verified copy of every member's log
/// (`<device>.jsonl`), so that what was verified once stays whatever later happens in the folder.
public struct ClubMembership: Codable, Equatable, Sendable {
    public var club: String
    public var folder: String
    /// The founder's public key, `TYPE BASE64`, pinned on joining.
    public var founder: String
    public var device: String
    /// The key this device signs with: a private key, or a public one whose private key is in ssh-agent.
    public var keyPath: String
    /// Its public key, `TYPE BASE64`.
    public var key: String
    /// The name this member goes by.
    public var name: String
    /// The reader's own book for each club book, by the club book's id.
    public var links: [String: Book.ID] = [:]
    /// The furthest position published for each club book.
    public var published: [String: ClubPosition] = [:]
    /// The meetings whose target this member published as reached.
    public var reachedPublished: Set<String> = []
    /// How far each device's log was verified, by device (this device's own too).
    var marks: [String: ClubLog.Mark] = [:]
    /// The problems said once, by file: said again only when they change.
    public var reported: [String: String] = [:]
    /// This member left: nothing more is published.
    public var left = false
    /// The club's name, as last read.
    public var clubName = ""

    public var fingerprint: String { SSHPublicKey.fingerprint(of: key) ?? "" }
    public var founderFingerprint: String { SSHPublicKey.fingerprint(of: founder) ?? "" }
}

extension SSHPublicKey {
    /// The fingerprint of a `TYPE BASE64` key, as `ssh-keygen -l` prints it.
    static func fingerprint(of key: String) -> String? {
        parse(key).map { fingerprint(blob: $0.blob) }
    }
}

/// Where a store keeps its clubs: `STORE.clubs/`, a folder a club.
public struct ClubHome {
    public let path: String
    public let fileSystem: FileSystem

    public init(storePath: String, fileSystem: FileSystem) {
        (path, self.fileSystem) = (storePath + ".clubs", fileSystem)
    }

    func folder(of club: String) -> String { path + "/" + club }
    func statePath(of club: String) -> String { folder(of: club) + "/state.json" }
    func copyPath(of club: String, device: String) -> String { folder(of: club) + "/" + device + ".jsonl" }
    /// Where bookclub's own key for clubs is made, when the `clubKey` setting names none.
    public var defaultKeyPath: String { path + "/.key/id_ed25519" }

    /// The clubs this store shares or joined: one listing, nothing when it never did.
    public func clubs() -> [String] {
        fileSystem.list(path).filter { SyncLine.isID($0) && !$0.hasPrefix(".") }.sorted()
    }

    public func state(of club: String) throws -> ClubMembership? {
        guard let data = try fileSystem.read(statePath(of: club)) else { return nil }
        return try JSONCoding.decode(ClubMembership.self, from: data, path: statePath(of: club))
    }

    func save(_ state: ClubMembership) throws {
        let data = try JSONCoding.encoder().encode(state)
        try fileSystem.writeAtomically(statePath(of: state.club), data)
    }

    /// The verified copy of a device's log.
    func copy(of club: String, device: String) throws -> Data {
        try fileSystem.read(copyPath(of: club, device: device)) ?? Data()
    }
}

extension ClubHome {
    /// The shared club a reference names, as clubs are named everywhere (`Library.resolveClub`);
    /// omitted, the selected club when it is shared, else the only one.
    public func choose(_ reference: String?, selected: Club.ID? = nil) throws -> ClubMembership {
        let states = try clubs().compactMap { try state(of: $0) }
        guard !states.isEmpty else {
            throw BookClubError.clubRefused(
                "This store shares no club and joined none: run `bookclub club share CLUB FOLDER` or `bookclub club join FOLDER`"
            )
        }
        let named = Library(clubs: states.map { Club(id: $0.club, name: $0.clubName) })
        let id: Club.ID
        if let reference {
            id = try named.resolveClub(reference).id
        } else if let selected, states.contains(where: { $0.club == selected }) {
            id = selected
        } else if states.count == 1 {
            id = states[0].club
        } else {
            throw BookClubError.clubRefused(
                "Name the club: this store is in \(states.count) shared clubs (\(states.map(\.clubName).joined(separator: "; ")))"
            )
        }
        return states.first { $0.club == id }!
    }
}

extension SharedClub {
    /// The member a reference names: a fingerprint or a prefix of it (with or without `SHA256:`), or
    /// a name.
    public func member(matching reference: String) throws -> ClubMember {
        let needle = reference.trimmed
        let bare = needle.hasPrefix("SHA256:") ? String(needle.dropFirst(7)) : needle
        let tests: [(ClubMember) -> Bool] = [
            { $0.fingerprint == needle }, { $0.name.lowercased() == needle.lowercased() },
            { !bare.isEmpty && $0.fingerprint.dropFirst(7).hasPrefix(bare) },
        ]
        for test in tests {
            let matches = members.filter(test)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw BookClubError.clubRefused(
                    "\(reference) names \(matches.count) members: give more of a fingerprint ("
                        + matches.map { "\($0.name) \($0.fingerprint)" }.joined(separator: ", ") + ")")
            }
        }
        throw BookClubError.clubRefused("\(name) has no member \(reference): see `bookclub club members`")
    }
}
