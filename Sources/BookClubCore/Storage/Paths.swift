#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where bookclub keeps its files, from `--store`/`--settings`, the `BOOKCLUB_*` variables and XDG.
public struct Paths: Equatable, Sendable {
    public var store: String
    public var settings: String
    public var scene: String
    public var sceneName: String
    /// Where `progress --edit` keeps its draft while the editor is open.
    public var drafts: String
    /// The cache folder: Open Library's answers and the covers.
    public var cache: String
    /// The folder of the hooks: executables named `on-add`, `on-progress`, `on-finish`, `on-change`.
    public var hooks: String
    /// Whether the store's path was given (`--store`, `BOOKCLUB_STORE`) rather than the default one.
    var storeIsGiven: Bool
    /// Whether the settings file's path was given (`--settings`, `BOOKCLUB_SETTINGS`).
    var settingsIsGiven: Bool

    /// A scene's selection belongs to one store: the default store's scenes are
    /// `scenes/NAME.json`, another store's `scenes/store-HASH/NAME.json`, HASH naming its absolute path.
    ///
    /// - Parameters:
    ///   - environment: the process environment (`HOME`, `XDG_*_HOME`, `BOOKCLUB_STORE`, `BOOKCLUB_SETTINGS`, `BOOKCLUB_SCENE`).
    ///   - workingDirectory: what a relative store path is relative to.
    ///   - userHome: the home folder the system gives the user, for when `HOME` is unset or empty.
    public init(
        environment: [String: String], store: String? = nil, settings: String? = nil, workingDirectory: String = "/",
        userHome: () -> String = { "/" }
    ) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? userHome()
        func base(_ variable: String, _ fallback: String) -> String {
            // XDG: a relative path in these variables is invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        let config = base("XDG_CONFIG_HOME", ".config") + "/bookclub"
        let defaultStore = base("XDG_DATA_HOME", ".local/share") + "/bookclub/store.json"
        let givenStore = nonEmpty(store) ?? nonEmpty(environment["BOOKCLUB_STORE"])
        let givenSettings = nonEmpty(settings) ?? nonEmpty(environment["BOOKCLUB_SETTINGS"])
        self.store = givenStore ?? defaultStore
        self.settings = givenSettings ?? config + "/settings.json"
        storeIsGiven = givenStore != nil
        settingsIsGiven = givenSettings != nil
        hooks = config + "/hooks"
        cache = base("XDG_CACHE_HOME", ".cache") + "/bookclub"
        let name = nonEmpty(environment["BOOKCLUB_SCENE"]) ?? "default"
        sceneName = name
        // Any other character is written %XX, so that two names never share a file.
        let safeName = name.utf8.map { byte in
            let character = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (character.isLetter || character.isNumber || character == "-" || character == "_")
                ? String(character) : (byte < 16 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
        }.joined()
        let state = base("XDG_STATE_HOME", ".local/state") + "/bookclub"
        let absoluteStore = self.store.hasPrefix("/") ? self.store : workingDirectory + "/" + self.store
        let storeFolder = absoluteStore == defaultStore ? "" : "store-" + Self.hash(absoluteStore) + "/"
        scene = state + "/scenes/\(storeFolder)\(safeName).json"
        drafts = state + "/drafts"
    }

    /// FNV-1a, 64 bits, in hexadecimal: a short stable name for a path.
    static func hash(_ text: String) -> String {
        let hex = String(FNV1a.hash(text.utf8), radix: 16)
        return hex.zeroPadded(to: 16)
    }
}
