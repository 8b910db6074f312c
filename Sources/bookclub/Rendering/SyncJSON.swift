import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `sync --json` and `sync init --json` print.
struct SyncJSON: Encodable {
    var device: String
    var folder: String
    var sent: Int
    var received: [Received]
    var newer: Int
    var problems: [ProblemJSON]

    struct Received: Encodable {
        var device: String
        var name: String?
        var counts: [String: Int]
    }

    init(_ report: SyncReport, device: String, folder: String) {
        (self.device, self.folder, sent, newer) = (device, folder, report.sent, report.newer)
        received = report.received.map { received in
            Received(
                device: received.device, name: received.name,
                counts: Dictionary(uniqueKeysWithValues: received.counts.map { ($0.key.rawValue, $0.value) }))
        }
        problems = report.problems.map(ProblemJSON.init)
    }
}

/// What `sync status --json` prints.
struct SyncStatusJSON: Encodable {
    var folder: String
    var device: String
    var devices: [Device]
    /// Whether this machine has changes in the git work tree not yet pushed.
    var unpushed: Bool
    var problems: [ProblemJSON]

    struct Device: Encodable {
        var id: String
        var name: String?
        var changes: Int
        var latest: Date?
        var this: Bool
    }

    init(folder: String, device: String, devices: [Sync.Device], unpushed: Bool, problems: [SyncReport.Problem]) {
        (self.folder, self.device, self.unpushed) = (folder, device, unpushed)
        self.devices = devices.map {
            Device(id: $0.id, name: $0.name, changes: $0.operations, latest: $0.latest, this: $0.id == device)
        }
        self.problems = problems.map(ProblemJSON.init)
    }
}

/// A log line that could not be read.
struct ProblemJSON: Encodable {
    var file: String
    var line: Int
    var detail: String

    init(_ problem: SyncReport.Problem) {
        (file, line, detail) = (problem.file, problem.line, problem.detail)
    }
}
