import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM: a command stopped by one has saved nothing; an editor draft is kept.
@Suite struct SignalTests {
    /// Two hundred kills: a handler that did anything unsafe in a signal handler (such as allocating)
    /// once aborted in glibc's malloc or hung about once in a thousand.
    @Test func aSignaledCommandSavedNothingAndACompletedOneSavedAll() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "100000")
        var completed = 0
        var stopped = 0
        for trial in 0..<200 {
            let process = try bookclub.start(["progress", "dune", "+1", "--note", "trial \(trial)"])
            usleep(UInt32.random(in: 0...15_000))
            kill(process.processIdentifier, trial % 2 == 0 ? SIGINT : SIGTERM)
            BookClubRunner.waitForExit(process, seconds: 30)
            switch (process.terminationReason, process.terminationStatus) {
            case (.exit, 0): completed += 1
            case (.exit, 130), (.exit, 143): stopped += 1
            default: Issue.record("trial \(trial) ended by \(process.terminationReason) \(process.terminationStatus)")
            }
        }
        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        let entries = (book["readings"] as? [[String: Any]])?.first?["entries"] as? [Any] ?? []
        #expect(entries.count == completed, "exactly the commands that exited 0 were saved")
        #expect((book["page"] as? Int ?? 0) == entries.count)
        #expect(stopped > 0)
    }

    /// SIGTERM while the editor is open keeps the draft; a Ctrl-C that the editor survives (vim uses
    /// it) is the editor's, as in git.
    @Test func aSignalInTheEditorKeepsTheDraft() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Dune", "--pages", "412")
        let store = FileManager.default.contents(atPath: bookclub.storePath)
        let process = Process()
        process.executableURL = BookClubRunner.executable
        process.arguments = ["progress", "dune", "--edit"]
        process.environment = bookclub.environment.merging(["EDITOR": "f() { sleep 1; }; f"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        usleep(300_000)
        kill(process.processIdentifier, SIGTERM)
        BookClubRunner.waitForExit(process, seconds: 30)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 143)
        let draft = try #require(
            stderr.firstRange(of: #/kept at (.+)\.\n/#).map { String(stderr[$0]).dropFirst(8).dropLast(2) })
        #expect(stderr.hasPrefix("Error: Interrupted; your draft is kept at "))
        #expect(FileManager.default.fileExists(atPath: String(draft)))
        #expect(FileManager.default.contents(atPath: bookclub.storePath) == store)

        let writer = #"f() { sleep 1; printf '42\nafter a Ctrl-C\n' > "$1"; }; f"#
        let ctrlC = try bookclub.start(["progress", "dune", "--edit"], environment: ["EDITOR": writer])
        usleep(300_000)
        kill(ctrlC.processIdentifier, SIGINT)
        BookClubRunner.waitForExit(ctrlC, seconds: 30)
        #expect(ctrlC.terminationStatus == 0)
        #expect((try bookclub.json("show", "dune", "--json") as? [String: Any])?["page"] as? Int == 42)
    }
}
