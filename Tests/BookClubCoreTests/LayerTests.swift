import Foundation
import Testing

/// The core's folders depend one way, as docs/design.md draws them: a file may name the types of its
/// own folder and of the folders before it in `LayerTests.order`, never those after it. Read from the
/// sources: each file's words that name a type declared at the top level of another folder, outside
/// comments and string literals (an interpolation in a string counts).
@Suite struct LayerTests {
    /// Lowest first. `.` is the folder itself: `BookClubError`.
    static let order = [
        "Time", "Text", ".", "JSON", "Model", "System", "Store", "Storage", "Settings", "Scenes", "Sync", "Clubs",
        "Reports",
        "Interchange", "Operations",
    ]

    static let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/BookClubCore")

    /// Each Swift file of the core, by its folder.
    static func files() throws -> [(folder: String, name: String, text: String)] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: core.path).sorted()
        return try paths.filter { $0.hasSuffix(".swift") }.map { path in
            let parts = path.split(separator: "/")
            let text = try String(contentsOf: core.appendingPathComponent(path), encoding: .utf8)
            return (parts.count > 1 ? String(parts[0]) : ".", String(parts.last!), text)
        }
    }

    /// The code of a file without its comments and the text of its string literals (`\(…)` kept).
    static func code(_ text: String) -> String {
        var out = ""
        var chars = Array(text.unicodeScalars)[...]
        var inString = false
        var depth = 0  // parentheses open in the current interpolation
        var stack: [Int] = []  // interpolation depths of the strings that hold the current one
        while let c = chars.popFirst() {
            if inString {
                if c == "\\", chars.first == "(" {
                    chars.removeFirst()
                    stack.append(depth)
                    depth = 1
                    inString = false
                    out += " "
                } else if c == "\\" {
                    _ = chars.popFirst()
                } else if c == "\"" {
                    inString = false
                }
                continue
            }
            if c == "/", chars.first == "/" {
                while let next = chars.first, next != "\n" { chars.removeFirst() }
                continue
            }
            if c == "/", chars.first == "*" {
                while !chars.isEmpty, !(chars.first == "*" && chars.dropFirst().first == "/") { chars.removeFirst() }
                chars = chars.dropFirst(2)
                continue
            }
            if c == "\"" {
                inString = true
                continue
            }
            if !stack.isEmpty {
                if c == "(" { depth += 1 }
                if c == ")" {
                    depth -= 1
                    if depth == 0 {
                        depth = stack.removeLast()
                        inString = true
                        continue
                    }
                }
            }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// The types a file names: capitalised words not after a `.` (a member of another type).
    static func names(in code: String) -> Set<String> {
        var names = Set<String>()
        var word = ""
        var previous: Character = " "
        var wordFollowsDot = false
        for c in code + " " {
            if c.isLetter || c.isNumber || c == "_" {
                if word.isEmpty { wordFollowsDot = previous == "." }
                word.append(c)
            } else {
                if let first = word.first, first.isUppercase, !wordFollowsDot { names.insert(word) }
                word = ""
            }
            previous = c
        }
        return names
    }

    @Test func everyFolderNamesOnlyItsOwnTypesAndThoseOfTheFoldersBeforeIt() throws {
        let files = try Self.files()
        #expect(Set(files.map(\.folder)) == Set(Self.order), "a folder of the core is missing from the order")
        var owner: [String: String] = [:]
        let declaration =
            #/^(?:public |internal |private |fileprivate )?(?:final )?(?:struct|enum|class|protocol|typealias|actor) ([A-Z][A-Za-z0-9_]*)/#
            .anchorsMatchLineEndings()
        for file in files {
            for match in file.text.matches(of: declaration) { owner[String(match.1)] = file.folder }
        }
        var wrongWay: [String] = []
        for file in files {
            let rank = try #require(Self.order.firstIndex(of: file.folder))
            for name in Self.names(in: Self.code(file.text)).sorted() {
                guard let folder = owner[name], let other = Self.order.firstIndex(of: folder), other > rank else {
                    continue
                }
                wrongWay.append("\(file.folder)/\(file.name) names \(name) of \(folder)")
            }
        }
        #expect(wrongWay == [])
    }

    @Test func theReadingOfSourcesSeesThroughCommentsAndStrings() {
        let code = Self.code(#"let a = "Library \(DateText.day(x)) and \("Zone")" // Store"#)
        #expect(Self.names(in: code) == ["DateText"])
        #expect(Self.names(in: "x.Change + Revert") == ["Revert"])
    }
}
