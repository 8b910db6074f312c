import Foundation
import Testing

/// 50 processes running 20 mixed commands each against one store: every command that exited 0 has
/// its effect in the final store, and the only exit codes are 0 and 75 (busy).
@Suite struct StressTests {
    @Test func fiftyWritersOfTwentyMixedCommandsLoseNothing() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("Shared", "--pages", "100000")
        try bookclub.run("settings", "set", "lockTimeout", "120")

        let workers = 50
        let steps = 20
        // Each worker is a shell loop so that the 50 run at once; it prints "step code" lines.
        let processes = try (0..<workers).map { worker -> (Process, Pipe) in
            var script = "b=\"$1\"\n"
            for step in 0..<steps {
                let own = "w\(worker)s\(step - step % 5)"
                let command: String
                switch step % 5 {
                case 0: command = "\"$b\" add \(own) --pages 300"
                case 1: command = "\"$b\" progress shared +1 --note 'w\(worker)s\(step)'"
                case 2: command = "\"$b\" edit \(own) --add-tag 'tag\(worker)'"
                case 3: command = "BOOKCLUB_SCENE=w\(worker) \"$b\" select \(own) && \"$b\" notes \(own) >/dev/null"
                default:
                    command =
                        step % 10 == 4
                        ? "\"$b\" finish \(own) --note done" : "\"$b\" settings set syncProgress \(worker % 2 == 0)"
                }
                script += "( \(command) ) >/dev/null 2>&1; echo \"\(step) $?\"\n"
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, "sh", BookClubRunner.executable.path]
            process.environment = bookclub.environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        var succeeded: [Int: Set<Int>] = [:]
        for (worker, (process, output)) in processes.enumerated() {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ").compactMap { Int($0) }
                #expect(parts.count == 2 && [0, 75].contains(parts[1]), "worker \(worker): \(line)")
                if parts.count == 2 && parts[1] == 0 { succeeded[worker, default: []].insert(parts[0]) }
            }
        }

        let books = try #require(try bookclub.json("list", "--all", "--json") as? [[String: Any]])
        let byTitle = Dictionary(uniqueKeysWithValues: books.map { ($0["title"] as! String, $0) })
        let shared = try #require(try bookclub.json("show", "shared", "--json") as? [String: Any])
        let entries = (shared["readings"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]] ?? []
        let notes = Set(entries.compactMap { $0["note"] as? String })
        var progressed = 0
        for worker in 0..<workers {
            for step in succeeded[worker] ?? [] {
                let own = "w\(worker)s\(step - step % 5)"
                switch step % 5 {
                case 0: #expect(byTitle[own] != nil, "\(own) was added")
                case 1:
                    #expect(notes.contains("w\(worker)s\(step)"), "w\(worker)s\(step) was logged")
                    progressed += 1
                case 2:
                    #expect((byTitle[own]?["tags"] as? [String])?.contains("tag\(worker)") == true, "\(own) was tagged")
                case 4 where step % 10 == 4:
                    #expect(byTitle[own]?["status"] as? String == "finished", "\(own) was finished")
                default: break
                }
            }
            let selected = try bookclub.run("select", environment: ["BOOKCLUB_SCENE": "w\(worker)"])
            if let last = (succeeded[worker] ?? []).filter({ $0 % 5 == 3 }).max() {
                #expect(selected.stdout.hasSuffix("  w\(worker)s\(last - 3)\n"))
            }
        }
        #expect(shared["page"] as? Int == progressed, "every +1 that exited 0 counted, and no other")
        #expect(try bookclub.run("settings", "list").exitCode == 0, "the settings file is whole")
    }
}
