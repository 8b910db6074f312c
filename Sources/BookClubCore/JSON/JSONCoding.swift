#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON conventions of every file bookclub writes: pretty-printed, sorted keys, ISO 8601 dates.
public enum JSONCoding {
    /// The one encoder set-up of every JSON bookclub writes, in files and on standard output.
    public static func encoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// How deep bookclub's own files nest (they need 6 levels). Foundation's decoder traps on some
    /// inputs nested past its own limit of 512, so deeper documents are refused before it sees them.
    static let maximumDepth = 64

    /// Whether `data` nests arrays and objects no deeper than `maximumDepth`.
    static func isShallow(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var nesting = JSONNesting()
            for byte in bytes {
                nesting.take(byte)
                if nesting.depth > maximumDepth { return false }
            }
            return true
        }
    }

    /// One line of a JSON Lines file, or `nil` when it cannot be read.
    static func decodeLine<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        guard isShallow(data) else { return nil }
        return try? decoder().decode(type, from: data)
    }

    /// Decodes a data file, turning any failure into `BookClubError.corruptFile` with the path and where it failed.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws -> T {
        guard isShallow(data) else {
            throw BookClubError.corruptFile(path: path, detail: "nested more than \(maximumDepth) levels deep")
        }
        do {
            return try decoder().decode(type, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw BookClubError.corruptFile(path: path, detail: notJSON(data))
            }
            throw BookClubError.corruptFile(path: path, detail: describe(error))
        } catch let error as BookClubError {
            throw error
        } catch {
            throw BookClubError.corruptFile(path: path, detail: notJSON(data))
        }
    }

    /// "not valid JSON at line 4, column 3: expected a value", when the syntax is where it fails.
    private static func notJSON(_ data: Data) -> String {
        "not valid JSON" + (JSONSyntax.error(in: data).map { " at \($0)" } ?? "")
    }

    /// "at `books[2].title`: expected a String", as swift-format renders configuration errors.
    static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "" : "at `\(text)`: "
        }
        switch error {
        case .typeMismatch(let type, let context):
            return at(context.codingPath) + "expected \(article(type))"
        case .valueNotFound(let type, let context):
            return at(context.codingPath) + "expected \(article(type)), found null"
        case .keyNotFound(let key, let context):
            return at(context.codingPath) + "missing key `\(key.stringValue)`"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return at(context.codingPath) + context.debugDescription.prefix(1).lowercased()
                + context.debugDescription.dropFirst()
        @unknown default:
            return "cannot be read"
        }
    }

    private static func article(_ type: Any.Type) -> String {
        var name = String(describing: type)
        if name.hasPrefix("Dictionary<") { return "an object" }
        if name.hasPrefix("Array<") { return "a list" }
        if name == "Double" || name == "Int" { name = "number" }
        return ("AEIOU".contains(name.prefix(1)) ? "an " : "a ") + name
    }
}

/// Follows how deep JSON text nests, a byte at a time, passing over strings.
struct JSONNesting {
    /// The arrays and objects open.
    private(set) var depth = 0
    private(set) var inString = false
    private var escaped = false

    mutating func take(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        default: break
        }
    }
}

/// Reads only `schemaVersion`, so that a newer file is refused before its contents are decoded.
struct SchemaHeader: Decodable {
    var schemaVersion: Int?
}
