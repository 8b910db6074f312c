#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The settings file, the CLI's AppStorage: small typed values with defaults, apart from the model.
///
/// Each setting is a stored property whose initial value is its default, and a `SettingKey` that
/// names and describes it; `Settings.keys` lists them once for `settings list/get/set/reset`.
public struct Settings: Equatable, Sendable {
    /// Whether covers are fetched for books (the talk's `updateArtwork`).
    public var updateArtwork = true
    /// Whether progress is synced (the talk's `syncProgress`): every command applies the other devices'
    /// changes first and writes its own after, when there is a `syncFolder`.
    public var syncProgress = true
    /// The folder shared with the other machines (`sync init`); empty when this store does not sync.
    public var syncFolder = ""
    /// When output is coloured.
    public var color = ColorMode.auto
    /// How long a command waits for the store lock, in seconds.
    public var lockTimeout = 10.0
    /// How long a hook may run before it is stopped, in seconds.
    public var hookTimeout = 10.0
    /// Books to finish each year, for `stats`; 0 for no goal.
    public var yearlyGoal = 0
    /// How Open Library can reach the reader (an email or web address of their own), sent with every
    /// request, as it asks of its clients; empty: requests name bookclub and its version only.
    public var contact = ""
    /// How long a request to Open Library may take, in seconds.
    public var networkTimeout = 10.0
    /// The largest cover bookclub takes, in megabytes.
    public var coverSizeLimit = 5
    /// The largest answer about a book bookclub takes, in megabytes.
    public var answerSizeLimit = 1
    /// How much of a linked book's progress a shared club sees.
    public var clubProgress = ClubProgress.exact
    /// The SSH key that signs what this reader publishes to shared clubs; empty: bookclub's own,
    /// made on first use beside the store.
    public var clubKey = ""

    public init() {}

    /// Every key, in the order `settings list` shows them.
    public static var keys: [AnySettingKey] {
        [
            AnySettingKey(
                SettingKey(name: "updateArtwork", keyPath: \.updateArtwork, summary: "Fetch cover artwork for books.")),
            AnySettingKey(
                SettingKey(
                    name: "syncProgress", keyPath: \.syncProgress,
                    summary: "Sync with the other machines at every command (else only `bookclub sync` does).")),
            AnySettingKey(
                SettingKey(
                    name: "syncFolder", keyPath: \.syncFolder,
                    summary: "The folder shared with your other machines (set by `bookclub sync init`).")),
            AnySettingKey(
                SettingKey(
                    name: "color", keyPath: \.color, summary: "Colour output: auto (on a terminal), always or never.")),
            AnySettingKey(
                SettingKey(
                    name: "lockTimeout", keyPath: \.lockTimeout,
                    summary: "Seconds to wait for another bookclub to release the store.")),
            AnySettingKey(
                SettingKey(
                    name: "hookTimeout", keyPath: \.hookTimeout, summary: "Seconds a hook may run before it is stopped."
                )),
            AnySettingKey(
                SettingKey(
                    name: "yearlyGoal", keyPath: \.yearlyGoal,
                    summary: "Books to finish each year, shown by `stats` (0: no goal).")),
            AnySettingKey(
                SettingKey(
                    name: "contact", keyPath: \.contact,
                    summary:
                        "Your email or web address, sent to Open Library with each request, as it asks (empty: none).")),
            AnySettingKey(
                SettingKey(
                    name: "networkTimeout", keyPath: \.networkTimeout,
                    summary: "Seconds to wait for Open Library before giving up.")),
            AnySettingKey(
                SettingKey(
                    name: "coverSizeLimit", keyPath: \.coverSizeLimit,
                    summary: "The largest cover to take, in megabytes.")),
            AnySettingKey(
                SettingKey(
                    name: "answerSizeLimit", keyPath: \.answerSizeLimit,
                    summary: "The largest answer about a book to take from Open Library, in megabytes.")),
            AnySettingKey(
                SettingKey(
                    name: "clubProgress", keyPath: \.clubProgress,
                    summary:
                        "What shared clubs see of your progress: exact, target (only reaching the meeting's) or off."
                )),
            AnySettingKey(
                SettingKey(
                    name: "clubKey", keyPath: \.clubKey,
                    summary: "The SSH key that signs what you share with clubs (empty: bookclub's own, made for you).")),
        ]
    }

    /// The key named `name` (case-insensitive), or an error that suggests the closest one.
    public static func key(named name: String) throws -> AnySettingKey {
        if let key = keys.first(where: { $0.name.lowercased() == name.lowercased() }) { return key }
        let close = keys.map(\.name).min {
            EditDistance.between($0.lowercased(), name.lowercased())
                < EditDistance.between($1.lowercased(), name.lowercased())
        }
        let suggestion = close.flatMap { EditDistance.between($0.lowercased(), name.lowercased()) <= 3 ? $0 : nil }
        throw BookClubError.unknownSetting(name, suggestion: suggestion)
    }
}

/// When output is coloured.
public enum ColorMode: String, CaseIterable, Codable, Sendable, SettingValue {
    case auto, always, never

    public init?(_ description: String) {
        self.init(rawValue: description.lowercased())
    }

    public var description: String { rawValue }
    public static var expected: String { "auto, always or never" }
    public static var choices: [String]? { allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let mode = ColorMode(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(Self.expected)")
        }
        self = mode
    }
}

/// How much of a linked book's progress a shared club sees.
public enum ClubProgress: String, CaseIterable, Codable, Sendable, SettingValue {
    /// The page and fraction of the furthest position.
    case exact
    /// Only whether each meeting's target was reached.
    case target
    /// Nothing.
    case off

    public init?(_ description: String) {
        self.init(rawValue: description.lowercased())
    }

    public var description: String { rawValue }
    public static var expected: String { "exact, target or off" }
    public static var choices: [String]? { allCases.map(\.rawValue) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let value = ClubProgress(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(Self.expected)")
        }
        self = value
    }
}

/// A type a setting can hold: parsed from and shown as text, stored as JSON.
public protocol SettingValue: LosslessStringConvertible, Codable, Equatable, Sendable {
    /// The value as `settings` shows it.
    var settingText: String { get }
    /// What the value must look like, for error messages ("true or false").
    static var expected: String { get }
    /// Whether a parsed value is acceptable (a finite, bounded timeout, say).
    func isValid() -> Bool
    /// Every value it takes, when they are few (for completions); `nil` for numbers and text.
    static var choices: [String]? { get }
}

extension SettingValue {
    public func isValid() -> Bool { true }
    public static var choices: [String]? { nil }
    public var settingText: String { description }
}

extension Bool: SettingValue {
    public static var expected: String { "true or false" }
    public static var choices: [String]? { ["true", "false"] }
}

extension Double: SettingValue {
    public static var expected: String { "a number of seconds from 0 to 3600" }
    public func isValid() -> Bool { isFinite && (0...3600).contains(self) }
    /// `10` rather than `10.0`.
    public var settingText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

extension String: SettingValue {
    public static var expected: String { "one line of up to 200 printable characters" }
    public func isValid() -> Bool {
        count <= 200 && !unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" }
    }
}

extension Int: SettingValue {
    public static var expected: String { "a whole number from 0 to 100000" }
    public func isValid() -> Bool { (0...100_000).contains(self) }
}

/// A typed setting: its name, where it lives in `Settings`, and a one-line description. Its default
/// is the property's initial value in `Settings()`.
public struct SettingKey<Value: SettingValue> {
    public let name: String
    public let keyPath: WritableKeyPath<Settings, Value>
    public let summary: String

    public var defaultValue: Value { Settings()[keyPath: keyPath] }
}

/// A setting key with its type erased, for listing and for setting from text.
public struct AnySettingKey {
    public let name: String
    public let summary: String
    public let expected: String
    public let value: (Settings) -> String
    public let defaultValue: String
    /// The value as its own type (a Bool, a number, a string), for JSON.
    public let typedValue: (Settings) -> any Encodable
    /// Every value it takes, when they are few; `nil` for numbers and text.
    public let choices: [String]?
    /// Sets the value from text; throws `BookClubError.invalidSetting` when it does not parse.
    public let set: (inout Settings, String) throws -> Void
    public let reset: (inout Settings) -> Void
    let encode: (Settings, inout KeyedEncodingContainer<SettingsCodingKey>) throws -> Void
    let decode: (KeyedDecodingContainer<SettingsCodingKey>, inout Settings) throws -> Void

    public init<Value: SettingValue>(_ key: SettingKey<Value>) {
        let name = key.name
        let keyPath = key.keyPath
        let defaultValue = key.defaultValue
        self.name = name
        summary = key.summary
        expected = Value.expected
        value = { $0[keyPath: keyPath].settingText }
        typedValue = { $0[keyPath: keyPath] }
        choices = Value.choices
        self.defaultValue = defaultValue.settingText
        set = { settings, text in
            guard let value = Value(text.trimmed), value.isValid() else {
                throw BookClubError.invalidSetting(key: name, value: text, expected: Value.expected)
            }
            settings[keyPath: keyPath] = value
        }
        reset = { $0[keyPath: keyPath] = defaultValue }
        encode = { settings, container in
            let value = settings[keyPath: keyPath]
            if value != defaultValue { try container.encode(value, forKey: SettingsCodingKey(name)) }
        }
        decode = { container, settings in
            guard let value = try container.decodeIfPresent(Value.self, forKey: SettingsCodingKey(name)) else { return }
            guard value.isValid() else {
                throw DecodingError.dataCorruptedError(
                    forKey: SettingsCodingKey(name), in: container, debugDescription: "expected \(Value.expected)")
            }
            settings[keyPath: keyPath] = value
        }
    }
}

struct SettingsCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Settings: Codable {
    public static let schemaVersion = 1

    /// Only values that differ from their defaults are written, beside `schemaVersion`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SettingsCodingKey.self)
        try container.encode(Self.schemaVersion, forKey: SettingsCodingKey("schemaVersion"))
        for key in Self.keys { try key.encode(self, &container) }
    }

    /// Missing keys take their defaults; unknown keys are refused.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: SettingsCodingKey.self)
        let known = Set(Self.keys.map(\.name) + ["schemaVersion"])
        if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: container, debugDescription: "unknown setting; see `bookclub settings list`")
        }
        for key in Self.keys { try key.decode(container, &self) }
    }
}

extension Settings {
    /// The persistence of the settings file at `path`. A missing file means every default.
    public static func persistence(path: String, fileSystem: FileSystem) -> Persistence<Settings> {
        Persistence(
            load: {
                guard let data = try fileSystem.read(path) else { return Settings() }
                if let settings = Settings.scan(data) { return settings }
                let header = try JSONCoding.decode(SchemaHeader.self, from: data, path: path)
                if let version = header.schemaVersion, version > schemaVersion {
                    throw BookClubError.newerSchema(path: path, found: version, supported: schemaVersion)
                }
                return try JSONCoding.decode(Settings.self, from: data, path: path)
            },
            save: { _, settings in
                try fileSystem.writeAtomically(path, try JSONCoding.encoder().encode(settings) + Data(utf8: "\n"))
            })
    }
}

extension Settings {
    /// Reads a settings file as Foundation's decoder reads it, where it is sure to: an object of known
    /// keys, each once, with values of their types that are valid, and `schemaVersion` no newer than
    /// this bookclub's. `nil` leaves the file to the decoder, which says what is wrong with it. A
    /// command with sync on reads the file each time, and the decoder's first use cost it a million
    /// instructions (a third of a `progress`).
    static func scan(_ data: Data) -> Settings? {
        data.withUnsafeBytes { bytes -> Settings? in
            var scanner = JSONScanner(bytes: bytes)
            var settings = Settings()
            var seen = JSONScanner.SeenKeys()
            func take<Value: SettingValue>(_ value: Value?, _ setting: inout Value) -> Bool {
                guard let value, value.isValid() else { return false }
                setting = value
                return true
            }
            func bool(_ scanner: inout JSONScanner) -> Bool? {
                scanner.skipBlanks()
                return scanner.take(literal: "true") ? true : scanner.take(literal: "false") ? false : nil
            }
            func int(_ scanner: inout JSONScanner) -> Int? {
                var value: Int?
                return scanner.read(&value) ? value : nil
            }
            func double(_ scanner: inout JSONScanner) -> Double? {
                var value: Double?
                return scanner.read(&value) ? value : nil
            }
            let complete = scanner.object { key, scanner in
                switch key {
                case "schemaVersion" where seen.first(0):
                    return int(&scanner).map { $0 <= schemaVersion } ?? false
                case "updateArtwork" where seen.first(1): return take(bool(&scanner), &settings.updateArtwork)
                case "syncProgress" where seen.first(2): return take(bool(&scanner), &settings.syncProgress)
                case "syncFolder" where seen.first(3): return take(scanner.string(), &settings.syncFolder)
                case "color" where seen.first(4):
                    return take(scanner.string().flatMap { ColorMode($0) }, &settings.color)
                case "lockTimeout" where seen.first(5): return take(double(&scanner), &settings.lockTimeout)
                case "hookTimeout" where seen.first(6): return take(double(&scanner), &settings.hookTimeout)
                case "yearlyGoal" where seen.first(7): return take(int(&scanner), &settings.yearlyGoal)
                case "contact" where seen.first(8): return take(scanner.string(), &settings.contact)
                case "networkTimeout" where seen.first(9): return take(double(&scanner), &settings.networkTimeout)
                case "coverSizeLimit" where seen.first(10): return take(int(&scanner), &settings.coverSizeLimit)
                case "answerSizeLimit" where seen.first(11): return take(int(&scanner), &settings.answerSizeLimit)
                case "clubProgress" where seen.first(12):
                    return take(scanner.string().flatMap { ClubProgress($0) }, &settings.clubProgress)
                case "clubKey" where seen.first(13): return take(scanner.string(), &settings.clubKey)
                // A key given twice, or one no setting has.
                default: return false
                }
            }
            return complete && scanner.atEnd ? settings : nil
        }
    }
}
