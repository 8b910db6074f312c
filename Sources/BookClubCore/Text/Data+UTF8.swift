#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Data {
    /// The UTF-8 bytes of `text`, copied from the string's own storage. `Data(text.utf8)` asks the
    /// runtime whether a UTF-8 view is contiguous bytes, and the runtime answers the first time a
    /// process asks by a search of every protocol conformance in the binary (60 µs of each command).
    init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }

    /// Appends the UTF-8 bytes of `text`, without the runtime's question (see `init(utf8:)`).
    mutating func append(utf8 text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }
}
