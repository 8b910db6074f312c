#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A member device's log, read as batches that each end in a seal. A log is checked as it is read:
/// its first line is its `start`, naming its device and the member's key; its lines are numbered 1, 2,
/// 3… and their clocks only grow. What follows the last seal waits for the next one.
struct ClubLog: Sendable {
    /// A batch of lines and the seal that ends it.
    struct Batch: Sendable {
        /// The lines before the seal.
        var lines: [ClubLine]
        /// The bytes of those lines, as signed.
        var bytes: Data
        var seal: ClubLine
        /// The bytes of the batch with its seal: what a verified copy keeps.
        var whole: Data
        /// The line number, in the file, of the seal.
        var sealLine: Int
    }

    /// Where a log was read to before: its `start`, the last line and seal, the lines and bytes.
    struct Mark: Codable, Equatable, Sendable {
        var length = 0
        var lines = 0
        var sequence = 0
        var clock = HybridClock()
        /// The last seal's signature, which the next seal signs over.
        var seal: String?
        /// The log's `start`: the member's key, and the club.
        var key: String?
        var club: String?
        /// When the folder's file was last changed as read: a file of the same size changed since is
        /// read and compared again.
        var modified: Double?
    }

    var batches: [Batch] = []
    /// Lines after the last seal.
    var waiting = 0
    /// The first line that could not be read, and why: what follows it waits until it is mended.
    var problem: (line: Int, detail: String)?

    /// Reads `data` (the bytes of the log after `mark.length`) into sealed batches.
    init(_ data: Data, device: String, after mark: Mark) {
        var mark = mark
        var pending: [ClubLine] = []
        var pendingBytes = Data()
        var start = data.startIndex
        var line = mark.lines
        while start < data.endIndex {
            guard let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                if data.endIndex - start > ClubLine.maximumLength {
                    problem = (line + 1, "longer than \(ClubLine.maximumLength / 1024) KiB")
                }
                break
            }
            line += 1
            let bytes = data[start...end]
            start = end + 1
            do {
                let read = try ClubLine.decode(Data(bytes.dropLast()))
                try Self.check(read, device: device, after: mark)
                (mark.sequence, mark.clock) = (read.n, read.clock)
                if read.op == .start { (mark.key, mark.club) = (read.key, read.club) }
                if read.op == .seal {
                    batches.append(
                        Batch(
                            lines: pending, bytes: pendingBytes, seal: read, whole: pendingBytes + bytes,
                            sealLine: line))
                    (pending, pendingBytes) = ([], Data())
                } else {
                    pending.append(read)
                    pendingBytes += bytes
                }
            } catch let problem as ClubLine.Problem {
                self.problem = (line, problem.detail)
                break
            } catch {
                self.problem = (line, "could not be read")
                break
            }
        }
        waiting = pending.count
    }

    private static func check(_ line: ClubLine, device: String, after mark: Mark) throws {
        guard line.n == mark.sequence + 1 else {
            throw ClubLine.Problem("numbered \(line.n), after line \(mark.sequence): a line is missing or repeated")
        }
        guard mark.sequence == 0 || line.clock > mark.clock else {
            throw ClubLine.Problem("out of order (its clock is not after the line before)")
        }
        guard (line.op == .start) == (line.n == 1) else {
            throw ClubLine.Problem(line.n == 1 ? "the first line is not the log's start" : "a second start")
        }
        if line.op == .start, line.device != device {
            throw ClubLine.Problem("the start of another device's log")
        }
        if line.op == .seal, mark.sequence == 0 { throw ClubLine.Problem("a seal before the start") }
    }

    /// What a seal signs: the club, the member, the device, the seal before it (none for the first),
    /// then the batch's bytes. So a seal copied to another club, log or place in the log fails.
    static func message(club: String, member: String, device: String, previous: String?, batch: Data) -> Data {
        var header = "bookclub club seal 1\nclub \(club)\nmember \(member)\ndevice \(device)\n"
        if let previous {
            header += "previous \(previous.utf8.count)\n\(previous)\n"
        } else {
            header += "previous none\n"
        }
        return Data(utf8: header) + batch
    }

    /// The SSH signature namespace of a club: a signature made for one club is not one of another.
    static func namespace(club: String) -> String { "bookclub-club-" + club }
}

/// A shared club's folder: `members/<device>.jsonl`, one log per member device, which only that device
/// writes. Names that are not logs are left alone; a link, pipe or folder where a log belongs is
/// refused unopened.
public struct ClubFolder: Sendable {
    /// The most member devices a club reads.
    static let maximumLogs = 256
    /// The most bytes of one member device's log a club reads.
    static let maximumLogSize = 16 << 20

    public let path: String
    var membersPath: String { path + "/members" }

    public init(path: String) { self.path = path }

    public func logPath(of device: String) -> String { membersPath + "/" + device + ".jsonl" }

    /// The logs, named as a sync folder's are (`SyncFolder.log(named:)`), each device's own file first.
    func logs(_ fileSystem: FileSystem) -> [SyncFolder.Log] {
        fileSystem.list(membersPath).sorted().compactMap(SyncFolder.log(named:))
            .sorted { ($0.isCopy ? 1 : 0, $0.name) < ($1.isCopy ? 1 : 0, $1.name) }
    }
}
