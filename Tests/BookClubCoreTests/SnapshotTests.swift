import Foundation
import Testing

@testable import bookclub

/// The help of every command and the three completion scripts, as files under `Snapshots/`: a
/// change to any of them shows in review as a diff of what a reader sees. After an intended change,
/// regenerate them with
///
///     BOOKCLUB_UPDATE_SNAPSHOTS=1 swift test --filter SnapshotTests
@Suite struct SnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    static let updating = ProcessInfo.processInfo.environment["BOOKCLUB_UPDATE_SNAPSHOTS"] == "1"

    /// Every command path from the root, the root itself first (`[]`, `["add"]`, `["club", "add"]`, ...).
    static var paths: [[CommandConfiguration]] {
        func walk(_ path: [CommandConfiguration]) -> [[CommandConfiguration]] {
            [path] + path.last!.subcommands.flatMap { walk(path + [$0]) }
        }
        return walk([CLI.root])
    }

    func check(_ text: String, against name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        if Self.updating {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = try #require(
            try? String(contentsOf: url, encoding: .utf8), "\(name) is missing: BOOKCLUB_UPDATE_SNAPSHOTS=1 writes it")
        #expect(
            text == expected, "\(name) differs; after an intended change, BOOKCLUB_UPDATE_SNAPSHOTS=1 regenerates it")
    }

    @Test func helpTexts() throws {
        var names: Set<String> = []
        for path in Self.paths {
            let name = (["bookclub"] + path.dropFirst().map(\.name)).joined(separator: "-") + ".txt"
            names.insert(name)
            try check(HelpGenerator.render(path: path, width: 80), against: "help/" + name)
        }
        #expect(names.count == CLI.commands.count + 3, "every command, the two parents and the root")
        if !Self.updating {
            let files = Set(
                try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("help").path))
            #expect(files == names, "a snapshot of a command that is gone")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        try check(
            try #require(CompletionScript.script(for: shell, root: CLI.root)), against: "completions/bookclub.\(shell)")
    }
}
