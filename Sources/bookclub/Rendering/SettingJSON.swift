/// A setting as `settings list --json` and `settings get --json` print it.
struct SettingJSON: Encodable {
    var key: String
    var value: String
    var defaultValue: String
    var description: String
}
