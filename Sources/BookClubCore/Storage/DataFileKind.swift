#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The kinds of file bookclub keeps, told apart by their first keys, so that a path that names one
/// kind where another is expected (the store where the settings belong) is refused rather than read
/// as, or rewritten into, the wrong thing.
enum DataFileKind: String, Sendable {
    case store = "a bookclub store"
    case journal = "a store's journal"
    case history = "a store's history"
    case undoLog = "a store's undo log"
    case settings = "bookclub settings"
    case scene = "a bookclub scene"

    /// The kind of a file from its first line, or `nil` when it is none of bookclub's (or too short
    /// to tell). A settings file and a scene are told apart only by a key that one of them has.
    public static func of(_ data: Data) -> DataFileKind? {
        let firstLine = data.prefix { $0 != 0x0A }
        // A snapshot as bookclub lays it out opens with its books.
        if data.starts(with: Data(utf8: "{\n  \"books\" : [")) { return .store }
        func has(_ key: StaticString, in line: Data) -> Bool {
            line.withUnsafeBytes { JSONLine.value(of: key, in: $0) != nil }
        }
        if has("generation", in: firstLine), firstLine.count < 100 { return .journal }
        if has("book", in: firstLine), has("entry", in: firstLine) { return .history }
        if has("after", in: firstLine), has("command", in: firstLine) { return .undoLog }
        // A document of several lines: its top-level keys.
        if has("books", in: data) { return .store }
        if has("selection", in: data) || has("club", in: data) { return .scene }
        if has("schemaVersion", in: data) { return .settings }
        return nil
    }
}
