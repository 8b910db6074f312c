import BookClubCore

/// A setting as `settings list --json`, `get`, `set` and `reset` print it: its value and default of
/// their own JSON types (`true`, `10`, `"auto"`).
struct SettingJSON: Encodable {
    var key: String
    var value: any Encodable
    var defaultValue: any Encodable
    var description: String

    init(_ key: AnySettingKey, in settings: Settings) {
        (self.key, value, defaultValue, description) = (
            key.name, key.typedValue(settings), key.typedValue(Settings()), key.summary
        )
    }

    private enum CodingKeys: String, CodingKey {
        case key, value, defaultValue, description
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(value, forKey: .value)
        try container.encode(defaultValue, forKey: .defaultValue)
        try container.encode(description, forKey: .description)
    }
}
