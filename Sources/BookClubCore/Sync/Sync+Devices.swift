#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Sync {
    /// A device as `sync status` shows it.
    public struct Device: Equatable, Sendable {
        public var id: String
        public var name: String?
        public var operations: Int
        /// When its latest operation was made, by its own clock.
        public var latest: Date?
    }

    /// The devices whose logs are in the folder, by name, and the lines that could not be read.
    public static func devices(in folder: SyncFolder) throws -> (devices: [Device], problems: [SyncReport.Problem]) {
        var devices: [String: Device] = [:]
        let (logs, unopened) = folder.contents()
        var problems = unopened
        var everything: [SyncOperation] = []
        for log in logs {
            let read = try folder.read(log)
            everything += read.operations
            if let problem = read.problem {
                problems.append(
                    .init(file: folder.devicesPath + "/" + log.name, line: problem.line, detail: problem.detail))
            }
            var device = devices[log.device] ?? Device(id: log.device, operations: 0)
            device.operations = max(device.operations, read.operations.last?.sequence ?? 0)
            if let clock = read.operations.last?.clock {
                let date = Date(timeIntervalSince1970: Double(clock.milliseconds) / 1000)
                device.latest = max(device.latest ?? date, date)
            }
            devices[log.device] = device
        }
        let names = names(everything)
        return (
            devices.values.map {
                var device = $0
                device.name = names[$0.id]
                return device
            }
            .sorted { ($0.name ?? $0.id, $0.id) < ($1.name ?? $1.id, $1.id) },
            problems
        )
    }
}
