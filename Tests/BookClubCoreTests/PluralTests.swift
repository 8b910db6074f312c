import Foundation
import Testing

/// "1 books" never reaches a reader: the sources are read for a count put straight before a plural,
/// and for "(s)"; a count that is never 1 there says why on its line.
@Suite struct PluralTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    @Test func noCountMeetsABarePlural() throws {
        let plurals =
            "books|entries|pages|days|highlights|notes|clubs|meetings|readings|minutes|lines|changes|hours|weeks"
        let bare = try Regex(#"\\\([^()]*(\([^()]*\))?[^()]*\) ("# + plurals + #")\b"#)
        let files =
            FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 50)
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                // Counts that are never 1 where they stand (more than three, two or more, a part of a
                // whole), one already told apart (`== 1 ?`), and rates (`18.5 pages a day`).
                if ["> 3", "candidates.count", "/\\(", "== 1 ?", "NumberText.short("].contains(where: line.contains) {
                    continue
                }
                if line.contains("(s)") || line.contains(bare) {
                    found.append(
                        "\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
