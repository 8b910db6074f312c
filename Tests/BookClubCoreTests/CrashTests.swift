import BookClubCore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// bookclub killed with SIGKILL at random moments while it writes to a store of 5,000 entries: after
/// every kill the store opens, holds the change of every command that exited 0, and nothing partial.
@Suite struct CrashTests {
    /// 200 trials take about 10 s with a debug build; `BOOKCLUB_CRASH_TRIALS` asks for more.
    static var trials: Int { ProcessInfo.processInfo.environment["BOOKCLUB_CRASH_TRIALS"].flatMap(Int.init) ?? 200 }

    @Test func killedWritersLoseNothingAndLeaveNothingPartial() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let path = bookclub.home + "/store.json"
        let storage = LibraryStorage(path: path, fileSystem: .live)
        let bookID = "c0ffee00c0ffee00c0ffee00c0ffee00"
        do {
            let store = try Store(persistence: storage.persistence(lockTimeout: 1))
            try store.update { library in
                library.addBook(Book(id: bookID, title: "Dune", pages: 100_000, added: Fixture.now))
                for minute in 0..<5_000 {
                    _ = try library.logProgress(
                        .page(minute + 1), note: minute % 10 == 0 ? "seed \(minute)" : nil,
                        at: Fixture.now.addingTimeInterval(Double(minute - 10_000) * 60), bookID: bookID,
                        reference: "dune")
                }
            }
            try store.save()
        }

        var acknowledged = Set<String>()
        var launched = Set<String>()
        var kills = 0
        for trial in 0..<Self.trials {
            let note = "trial \(trial)"
            launched.insert(note)
            let process = try bookclub.start(["--store", path, "progress", "dune", "+1", "--note", note])
            usleep(UInt32.random(in: 0...25_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .exit {
                #expect(process.terminationStatus == 0, "trial \(trial) failed on its own")
                if process.terminationStatus == 0 { acknowledged.insert(note) }
            } else {
                kills += 1
            }

            let reopened = try Store(
                persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory { _ in [bookID] }))
            let entries = try #require(reopened.state[id: bookID]?.currentReading?.progress.entries)
            let notes = entries.compactMap(\.note).filter { $0.hasPrefix("trial ") }
            #expect(acknowledged.isSubset(of: Set(notes)), "trial \(trial): an acknowledged entry is missing")
            #expect(Set(notes).isSubset(of: launched))
            #expect(Set(notes).count == notes.count, "trial \(trial): an entry is there twice")
            #expect(entries.count == 5_000 + notes.count)
            #expect(reopened.state[id: bookID]?.currentPage == 5_000 + notes.count, "each +1 counted once")
        }
        print("crash trials: \(Self.trials), killed mid-command: \(kills), completed: \(acknowledged.count)")
        #expect(kills > Self.trials / 10, "the kills should land during commands, not only after them")

        // The next write sweeps what killed writers left.
        #expect(try bookclub.run("--store", path, "progress", "dune", "+1").exitCode == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: bookclub.home).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers == [])
    }
}
