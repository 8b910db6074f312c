import BookClubCore
import Foundation
import Testing

@testable import bookclub

#if canImport(Glibc)
    import Glibc
#endif

/// Every system call of a save made to fail in turn (a full disk, a denied permission, a read-only
/// folder, a failed fsync or rename): the command exits 74 naming the path and the cause, prints no
/// success, and the store is as it was.
@Suite struct FaultInjectionTests {
    /// (A journal append renames nothing: the rename is tried where a new snapshot is written, below.)
    @Test(arguments: [
        (InjectedFault.Call.open, EACCES, "Permission denied"), (.open, EROFS, "Read-only file system"),
        (.write, ENOSPC, "No space left on device"), (.fsync, EIO, "Input/output error"),
        (.truncate, EIO, "Input/output error"),
    ])
    func aFailureAtAnyStepOfASaveLeavesTheStoreAsItWas(_ call: InjectedFault.Call, _ code: Int32, _ cause: String)
        throws
    {
        let (home, store) = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let files = [store, store + ".journal"]
        #expect(InProcess.run(["add", "Dune", "--pages", "412"], home: home).code == 0)
        #expect(InProcess.run(["progress", "dune", "100", "--note", "the spice"], home: home).code == 0)
        var page = 100
        let failures = try failEachCall(call, code, cause, home: home, files: files, page: &page) {
            // A file is cut only where an interrupted write left something to cut: a torn history line.
            guard call == .truncate, let history = FileHandle(forWritingAtPath: store + ".history") else { return }
            history.seekToEndOfFile()
            history.write(Data(#"{"torn"#.utf8))
            history.closeFile()
        }
        #expect(failures > 0, "the fault was reached at least once")
        #expect(
            InProcess.run(["show", "dune", "--json"], home: home).stdout.contains("\"page\" : \(page)"),
            "a later write works")
        #expect(
            InProcess.run(["undo"], home: home).stderr == "Undid `progress dune +1`: 'Dune': p. \(page).\n",
            "failed saves are passed over by undo")
    }

    /// The save that writes a new snapshot (here the first of a store of an earlier schema) fails as safely.
    @Test(arguments: [
        (InjectedFault.Call.open, EACCES, "Permission denied"), (.write, ENOSPC, "No space left on device"),
        (.fsync, EIO, "Input/output error"), (.rename, EXDEV, "Invalid cross-device link"),
    ])
    func aFailureAtAnyStepOfANewSnapshotLeavesTheStoreAsItWas(
        _ call: InjectedFault.Call, _ code: Int32, _ cause: String
    ) throws {
        let (home, store) = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(
            atPath: home + "/.local/share/bookclub", withIntermediateDirectories: true)
        var page = 150
        // The original is copied to STORE.v2 before anything else: not a change of the store.
        let failures = try failEachCall(call, code, cause, home: home, files: [store, store + ".journal"], page: &page)
        {
            for suffix in ["", ".history"] {
                try? FileManager.default.removeItem(atPath: store + suffix)
                try FileManager.default.copyItem(
                    atPath: fixtures.appendingPathComponent("store-v2.json" + suffix).path, toPath: store + suffix)
            }
            for suffix in [".journal", ".v2"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        }
        #expect(failures > 0, "the fault was reached at least once")
    }

    /// A batch whose history lines are more than a part (`StagedHistory.part`) is written a part at a
    /// time as its lines are made: a failure at any write or fsync, before or after the parts, cuts
    /// them back, and the store is as it was, its history to the byte.
    @Test(arguments: [
        (InjectedFault.Call.write, ENOSPC, "No space left on device"), (.fsync, EIO, "Input/output error"),
    ])
    func aFailureDuringALargeBatchLeavesTheStoreAsItWas(_ call: InjectedFault.Call, _ code: Int32, _ cause: String)
        throws
    {
        let (home, store) = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        for title in ["Dune", "ノルウェイの森", "מסע אל תום הלילה"] {
            #expect(InProcess.run(["add", title, "--pages", "9000"], home: home).code == 0)
        }
        #expect(InProcess.run(["progress", "dune", "100", "--note", "the spice"], home: home).code == 0)
        let lines = (0..<6_000).map { index in
            let book = ["dune", "ノルウェイ", "מסע"][index % 3]
            let time = Date(timeIntervalSince1970: 1_750_000_000 + Double(index) * 600).formatted(.iso8601)
            return #"{"book": "\#(book)", "page": \#(200 + index / 3), "time": "\#(time)", "note": "ノート \#(index)"}"#
        }
        let (failures, logged) = failEachCall(
            call, code, cause, home: home, files: [store, store + ".journal", store + ".history", store + ".undo"],
            logging: lines)
        #expect(logged == "Logged 6000 entries on 3 books.\n")
        // A part of the history and the rest of it, then the undo log and the journal.
        #expect(failures >= (call == .write ? 4 : 1), "\(failures)")
        let shown = InProcess.run(["show", "ノルウェイ", "--json"], home: home)
        #expect(shown.code == 0 && shown.stdout.contains("\"page\" : 2199"))
        #expect(InProcess.run(["doctor"], home: home).code == 0)
    }

    /// The same on a store of an earlier schema, whose first save keeps the original before it writes:
    /// a failure there, after the batch's parts are written, cuts them back too.
    @Test func aFailureDuringALargeBatchOnAnEarlierSchemaLeavesTheHistoryAsItWas() throws {
        let (home, store) = Self.newHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(
            atPath: home + "/.local/share/bookclub", withIntermediateDirectories: true)
        for suffix in ["", ".history"] {
            try FileManager.default.copyItem(
                atPath: fixtures.appendingPathComponent("store-v2.json" + suffix).path, toPath: store + suffix)
        }
        let lines = (0..<6_000).map { index in
            let time = Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 600).formatted(.iso8601)
            return
                #"{"book": "dune", "page": \#(1 + index * 400 / 6_000), "time": "\#(time)", "note": "ノート \#(index)"}"#
        }
        let (failures, logged) = failEachCall(
            .write, ENOSPC, "No space left on device", home: home,
            files: [store, store + ".journal", store + ".history"], logging: lines,
            before: { try? FileManager.default.removeItem(atPath: store + ".v2") })
        #expect(logged == "Logged 6000 entries on 1 book.\n")
        #expect(failures >= 3, "\(failures)")
        #expect(InProcess.run(["doctor"], home: home).code == 0)
    }

    /// A home of a test's own, and where its store is.
    private static func newHome() -> (home: String, store: String) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-faults-\(UUID().uuidString)")
            .path
        return (home, home + "/.local/share/bookclub/store.json")
    }

    /// Runs `log --stdin` of `lines` with the nth call of a kind failing, for n = 1, 2, ... until it
    /// succeeds, checking that each failure exits 74 naming the cause and leaves `files` as they were
    /// to the byte; returns how many failures there were, and what the run that succeeded said.
    private func failEachCall(
        _ call: InjectedFault.Call, _ code: Int32, _ cause: String, home: String, files: [String],
        logging lines: [String], before prepare: () -> Void = {}
    ) -> (failures: Int, logged: String) {
        let before = files.map { FileManager.default.contents(atPath: $0) }
        for occurrence in 1...40 {
            prepare()
            let result = InProcess.run(
                ["log", "--stdin"], home: home, fileSystem: .live(injecting: call, occurrence: occurrence, code: code),
                stdin: lines)
            if result.code == 0 { return (occurrence - 1, result.stderr) }  // past the last call of that kind
            #expect(result.code == 74 && result.stderr.contains(cause), "\(call) #\(occurrence): \(result.stderr)")
            #expect(
                files.map { FileManager.default.contents(atPath: $0) } == before,
                "\(call) #\(occurrence): the store changed")
        }
        return (40, "")
    }

    /// Runs `progress dune +1` with the nth call of a kind failing, for n = 1, 2, ... until it succeeds,
    /// checking each failure; returns how many there were.
    private func failEachCall(
        _ call: InjectedFault.Call, _ code: Int32, _ cause: String, home: String, files: [String], page: inout Int,
        before prepare: () throws -> Void
    ) throws -> Int {
        var failures = 0
        for occurrence in 1...16 {
            try prepare()
            let before = files.map { FileManager.default.contents(atPath: $0) }
            let result = InProcess.run(
                ["progress", "dune", "+1"], home: home,
                fileSystem: .live(injecting: call, occurrence: occurrence, code: code))
            if result.code == 0 {  // past the last call of that kind
                page += 1
                break
            }
            failures += 1
            if result.stderr.contains("may not survive a crash"),
                files.map({ FileManager.default.contents(atPath: $0) }) != before
            {
                // The last step: the new snapshot is in place but its folder could not be synced, so the
                // change may not survive a crash. It is reported, and the store is whole either way.
                #expect(result.code == 74)
                #expect(
                    InProcess.run(["show", "dune", "--json"], home: home).stdout.contains("\"page\" : \(page + 1)"))
                continue
            }
            #expect(result.code == 74, "\(call) #\(occurrence): \(result.stderr)")
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("Error: \(home)/.local/share/bookclub"), "names the path")
            #expect(result.stderr.contains(cause), "names the cause: \(result.stderr)")
            #expect(!result.stderr.contains("p. \(page + 1)"), "no success was printed")
            #expect(
                files.map { FileManager.default.contents(atPath: $0) } == before,
                "\(call) #\(occurrence): the store changed")
            let show = InProcess.run(["show", "dune", "--json"], home: home)
            #expect(show.code == 0)
            #expect(show.stdout.contains("\"page\" : \(page)"))
        }
        return failures
    }
}
