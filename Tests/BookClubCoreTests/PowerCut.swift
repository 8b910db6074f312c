import Foundation

@testable import BookClubCore

#if canImport(Glibc)
    import Glibc
#endif

/// A crash-state explorer after "All File Systems Are Not Created Equal" (Pillai et al., OSDI 2014):
/// it records the file operations a command makes, through the `Syscalls` seam, and builds every disk
/// a power cut during them may leave.
///
/// The model is ALICE's default, the weakest a POSIX file system allows: a file's bytes are durable once
/// the file is fsynced, a name (a created file, a rename, a new folder) once its folder is. Anything
/// not yet durable may persist or not, in any combination, and a write may persist in pieces (cut at
/// page boundaries, or in two), each piece whole, lost, zeroed or garbage.
enum PowerCut {
    /// One operation, as the disk sees it. Files are inodes, so that a rename moves the bytes.
    enum Operation {
        case makeFolder(String)
        case create(String, inode: Int)
        case write(inode: Int, offset: Int, bytes: Data)
        case truncate(inode: Int, length: Int)
        case rename(from: String, to: String)
        case syncFile(inode: Int)
        case syncFolder(String)

        /// The folder whose fsync makes a name operation durable.
        var folder: String? {
            switch self {
            case .makeFolder(let path), .create(let path, _), .rename(_, let path): path.parentPath
            default: nil
            }
        }

        var inode: Int? {
            switch self {
            case .write(let inode, _, _), .truncate(let inode, _): inode
            default: nil
            }
        }
    }

    /// The files and folders under a root, as a power cut leaves them (or as they were at the start).
    struct Disk: Hashable {
        var folders: Set<String> = []
        var files: [String: Data] = [:]

        /// What is under `root` now.
        static func read(_ root: String) -> Disk {
            var disk = Disk(folders: [root])
            let manager = FileManager.default
            for relative in (try? manager.subpathsOfDirectory(atPath: root)) ?? [] {
                let path = root + "/" + relative
                var isFolder: ObjCBool = false
                guard manager.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue {
                    disk.folders.insert(path)
                } else if !path.hasSuffix(".lock") {
                    disk.files[path] = manager.contents(atPath: path)
                }
            }
            return disk
        }

        /// Replaces what is under `root` with this disk.
        func write(to root: String) throws {
            try? FileManager.default.removeItem(atPath: root)
            for folder in folders.sorted() {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            for (path, data) in files { try data.write(to: URL(fileURLWithPath: path)) }
        }
    }

    /// Records the operations of the commands run with its `fileSystem`, on a real folder.
    final class Recorder {
        let initial: Disk
        private(set) var operations: [Operation] = []
        /// How many operations the command made before each acknowledgement (a command that returned).
        private(set) var acknowledged: [Int] = []
        private var inodes: [String: Int] = [:]
        private var descriptors: [Int32: (inode: Int?, folder: String?)] = [:]
        private var nextInode = 0
        /// Kills the process right after the operation for which it says `true`: from then on every
        /// call fails and does nothing, as if it never ran.
        var kill: ((Operation) -> Bool)?
        private(set) var isKilled = false

        /// The inode of each file at the start.
        let initialInodes: [String: Int]

        init(root: String) {
            let initial = Disk.read(root)
            let inodes = Dictionary(uniqueKeysWithValues: initial.files.keys.sorted().enumerated().map { ($1, $0 + 1) })
            (self.initial, self.initialInodes, self.inodes, nextInode) = (initial, inodes, inodes, inodes.count)
        }

        private func newInode() -> Int {
            nextInode += 1
            return nextInode
        }

        private func record(_ operation: Operation) {
            operations.append(operation)
            if kill?(operation) == true { isKilled = true }
        }

        /// A new process after a killed one.
        func restart() {
            (kill, isKilled, descriptors) = (nil, false, [:])
        }

        /// Marks the end of a command that finished (it said what it did).
        func acknowledge() { acknowledged.append(operations.count) }

        var fileSystem: FileSystem {
            let real = Syscalls.real
            var sys = real
            sys.open = { path, flags, mode in
                if self.isKilled { return self.fail() }
                let existed = access(path, F_OK) == 0
                let fd = real.open(path, flags, mode)
                guard fd >= 0 else { return fd }
                if flags & O_DIRECTORY != 0 {
                    self.descriptors[fd] = (nil, path)
                } else {
                    if !existed || self.inodes[path] == nil {
                        self.inodes[path] = self.newInode()
                        if !existed { self.record(.create(path, inode: self.inodes[path]!)) }
                    }
                    self.descriptors[fd] = (self.inodes[path], nil)
                }
                return fd
            }
            sys.write = { fd, buffer, count in
                if self.isKilled { return self.fail() }
                let offset = Int(lseek(fd, 0, SEEK_CUR))
                let written = real.write(fd, buffer, count)
                if written > 0, let inode = self.descriptors[fd]?.inode {
                    self.record(.write(inode: inode, offset: offset, bytes: Data(bytes: buffer, count: written)))
                }
                return written
            }
            sys.fsync = { fd in
                if self.isKilled { return self.fail() }
                let result = real.fsync(fd)
                if result == 0, let descriptor = self.descriptors[fd] {
                    if let inode = descriptor.inode { self.record(.syncFile(inode: inode)) }
                    if let folder = descriptor.folder { self.record(.syncFolder(folder)) }
                }
                return result
            }
            sys.ftruncate = { fd, length in
                if self.isKilled { return self.fail() }
                let result = real.ftruncate(fd, length)
                if result == 0, let inode = self.descriptors[fd]?.inode {
                    self.record(.truncate(inode: inode, length: Int(length)))
                }
                return result
            }
            sys.rename = { from, to in
                if self.isKilled { return self.fail() }
                let result = real.rename(from, to)
                if result == 0 {
                    self.inodes[to] = self.inodes.removeValue(forKey: from)
                    self.record(.rename(from: from, to: to))
                }
                return result
            }
            sys.mkdir = { path, mode in
                if self.isKilled { return self.fail() }
                let result = real.mkdir(path, mode)
                if result == 0 { self.record(.makeFolder(path)) }
                return result
            }
            return FileSystem.live(sys)
        }

        private func fail<T: BinaryInteger>() -> T {
            errno = EIO
            return -1
        }
    }

    /// How one operation that is not yet durable fares in a crash state.
    enum Fate: Hashable {
        case persisted
        case lost
        /// A write in pieces, each `.persisted`, `.lost`, `.zeroed` or `.garbage`.
        case pieces([Piece])
    }

    enum Piece: CaseIterable, Hashable {
        case persisted, lost, zeroed, garbage
    }

    /// A crash: the first `prefix` operations were issued; `fates` says how each that was not durable fared.
    struct Crash {
        var prefix: Int
        var fates: [Int: Fate]
    }

    /// The crash states of a recorded run, by crash point.
    struct Space {
        let initial: Disk
        let operations: [Operation]
        let initialInodes: [String: Int]

        init(_ recorder: Recorder) {
            (initial, operations, initialInodes) = (recorder.initial, recorder.operations, recorder.initialInodes)
        }

        /// The operations of the first `prefix` that a later fsync in the prefix has not made durable.
        func volatile(prefix: Int) -> [Int] {
            var syncedFiles: Set<Int> = []
            var syncedFolders: Set<String> = []
            var result: [Int] = []
            for index in stride(from: prefix - 1, through: 0, by: -1) {
                let operation = operations[index]
                switch operation {
                case .syncFile(let inode): syncedFiles.insert(inode)
                case .syncFolder(let folder): syncedFolders.insert(folder)
                default:
                    if let inode = operation.inode, !syncedFiles.contains(inode) { result.append(index) }
                    if let folder = operation.folder, !syncedFolders.contains(folder) { result.append(index) }
                }
            }
            return result.reversed()
        }

        /// The ways an operation that is not durable may fare.
        func fates(of index: Int) -> [Fate] {
            guard case .write(_, let offset, let bytes) = operations[index] else { return [.persisted, .lost] }
            let count = Self.pieces(offset: offset, count: bytes.count).count
            var result: [Fate] = []
            var combination = [Piece](repeating: .persisted, count: count)
            func fill(_ at: Int) {
                if at == count { return result.append(.pieces(combination)) }
                for piece in Piece.allCases {
                    combination[at] = piece
                    fill(at + 1)
                }
            }
            fill(0)
            return result
        }

        /// A write cut where pages end, and in thirds within a page: four pieces at most (the last
        /// holds the rest), so that a torn line, a torn commit line and a torn page all occur.
        static func pieces(offset: Int, count: Int) -> [Range<Int>] {
            guard count > 2 else { return [0..<count] }
            let pageCuts = stride(from: (offset / 4096 + 1) * 4096 - offset, to: count, by: 4096).map { $0 }
            let thirds = [count / 3, 2 * count / 3].filter { third in third > 0 && third < (pageCuts.first ?? count) }
            let cuts = Array((thirds + pageCuts).prefix(3))
            let bounds = [0] + cuts + [count]
            return (0..<(bounds.count - 1)).map { bounds[$0]..<bounds[$0 + 1] }
        }

        /// The disk this crash leaves.
        func disk(after crash: Crash) -> Disk {
            var folders = initial.folders
            var names = initialInodes
            var contents: [Int: Data] = [:]
            for (path, inode) in initialInodes { contents[inode] = initial.files[path] }
            for index in 0..<crash.prefix {
                let fate = crash.fates[index] ?? .persisted
                if fate == .lost { continue }
                switch operations[index] {
                case .makeFolder(let path): folders.insert(path)
                case .create(let path, let inode):
                    names[path] = inode
                    contents[inode] = contents[inode] ?? Data()
                case .rename(let from, let to):
                    if let inode = names.removeValue(forKey: from) { names[to] = inode }
                case .truncate(let inode, let length):
                    var data = contents[inode] ?? Data()
                    if data.count > length {
                        data = data.prefix(length)
                    } else {
                        data.append(Data(count: length - data.count))
                    }
                    contents[inode] = data
                case .write(let inode, let offset, let bytes):
                    var data = contents[inode] ?? Data()
                    let pieces = Self.pieces(offset: offset, count: bytes.count)
                    let kinds: [Piece] =
                        if case .pieces(let kinds) = fate { kinds } else {
                            Array(repeating: .persisted, count: pieces.count)
                        }
                    for (range, kind) in zip(pieces, kinds) where kind != .lost {
                        let piece: Data =
                            switch kind {
                            case .persisted:
                                bytes[bytes.startIndex + range.lowerBound..<bytes.startIndex + range.upperBound]
                            case .zeroed: Data(count: range.count)
                            default: Data((0..<range.count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 0x5A) })
                            }
                        let start = offset + range.lowerBound
                        if data.count < start { data.append(Data(count: start - data.count)) }
                        let end = min(data.count, start + piece.count)
                        data.replaceSubrange(start..<end, with: piece)
                    }
                    contents[inode] = data
                case .syncFile, .syncFolder: break
                }
            }
            // A file or folder whose folder is gone is gone with it.
            var disk = Disk()
            let root = initial.folders.min { $0.count < $1.count } ?? ""
            func isUnderLiveFolders(_ path: String) -> Bool {
                var parent = path.parentPath
                while parent.count > root.count {
                    guard folders.contains(parent) else { return false }
                    parent = parent.parentPath
                }
                return true
            }
            disk.folders = folders.filter { isUnderLiveFolders($0) }
            for (path, inode) in names where isUnderLiveFolders(path) { disk.files[path] = contents[inode] ?? Data() }
            return disk
        }

        /// Every crash, crash point by crash point: how many there are at each point.
        func counts() -> [Int] {
            (0...operations.count).map { prefix in
                volatile(prefix: prefix).reduce(1) { $0 * fates(of: $1).count }
            }
        }

        /// The `number`th crash at a crash point, counting the combinations of fates in order.
        func crash(prefix: Int, number: Int) -> Crash {
            var crash = Crash(prefix: prefix, fates: [:])
            var rest = number
            for index in volatile(prefix: prefix) {
                let fates = fates(of: index)
                crash.fates[index] = fates[rest % fates.count]
                rest /= fates.count
            }
            return crash
        }
    }
}

/// SplitMix64: a seeded generator, so that a sample of crash states is the same run after run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
