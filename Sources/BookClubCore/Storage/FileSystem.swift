#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations the core performs, as a value of closures (like swift-sharing's `FileStorage`),
/// so that tests can run in memory or inject a failure at any step.
///
/// Every error thrown is a `BookClubError.io` that names the path and the cause.
public struct FileSystem {
    /// The whole file, or `nil` when there is none.
    public var read: (_ path: String) throws -> Data?
    /// As `read`, but a large file is mapped into memory rather than copied (copying costs a page
    /// fault a page). Only for files that bookclub replaces by a rename, or cuts in place only under
    /// the store's lock, read by a holder of that lock (the undo log, counted by a save): a mapped
    /// file cut short under its reader would stop the reader with SIGBUS.
    public var map: (_ path: String) throws -> Data?
    /// The size of a file in bytes, or `nil` when there is none.
    public var size: (_ path: String) throws -> Int?
    /// Hands the bytes of `range` of a file (fewer if it is shorter) to `body` in chunks of about
    /// 1 MiB, each ending at a line break where there is one; nothing when there is no file.
    public var readLines: (_ path: String, _ range: Range<Int>, _ body: (Data) throws -> Void) throws -> Void
    /// At most `count` bytes of a file from `offset` (`pread(2)`); fewer at its end, `nil` when there
    /// is no file.
    public var readRange: (_ path: String, _ offset: Int, _ count: Int) throws -> Data?
    /// Opens a plain file once (a link followed) and hands `body` a way to read at most `count` bytes
    /// of it from `offset`: a file renamed over or removed meanwhile is read as it was opened, and one
    /// changed in place fails. `false` when there is no file.
    public var readOpened:
        (_ path: String, _ body: (_ read: @escaping (Int, Int) throws -> Data) throws -> Void) throws -> Bool
    /// Replaces a file atomically, created readable by its owner only; parent folders are created.
    public var writeAtomically: (_ path: String, _ data: Data) throws -> Void
    /// Writes a file a person named (`--output`), its bytes handed over a part at a time by `produce` (a
    /// document too large to hold whole): through a symbolic link to the file it names, straight into a
    /// device or a named pipe (`/dev/stdout`, a FIFO) as a shell's `>` would, else as `writeAtomically`
    /// writes, the file replaced only once `produce` returns.
    public var writeOutput: (_ path: String, _ produce: ((Data) throws -> Void) throws -> Void) throws -> Void
    /// As `writeAtomically`, but the folder is not synced: after a power cut the file is whole, either
    /// as it was or as written. For a file that may be found as it was (the sync state), at one `fsync`
    /// less.
    public var replace: (_ path: String, _ data: Data) throws -> Void
    /// Cuts a file to `offset` bytes (dropping what an interrupted write left), appends `data`, syncs it.
    /// A file shorter than `offset` is refused (`BookClubError.corruptFile`) and left as it is.
    public var append: (_ path: String, _ data: Data, _ offset: Int) throws -> Void
    /// As `append`, without the sync: the bytes are durable once `sync` (or another `append`) syncs
    /// the file. For what the journal's commit also carries.
    public var write: (_ path: String, _ data: Data, _ offset: Int) throws -> Void
    /// Makes a file's bytes durable (`fsync`); nothing when there is no file.
    public var sync: (_ path: String) throws -> Void
    /// Takes an exclusive lock on `path`, waiting at most `timeout` seconds; returns the unlock.
    public var lock: (_ path: String, _ timeout: Double) throws -> () -> Void
    /// The names in a folder; empty when there is none.
    public var list: (_ folder: String) -> [String]
    /// When a file was last changed, or `nil` when there is none.
    public var modified: (_ path: String) -> Date?
    /// Removes a file, or an empty folder; `false` when it could not.
    public var remove: (_ path: String) -> Bool
    /// Renames a file over another (`rename(2)`: atomic, the target replaced if there is one).
    public var rename: (_ from: String, _ to: String) throws -> Void
    /// Removes the temporary files that interrupted atomic writes of `path` left; call it only while
    /// no other process can be writing `path` (under its lock).
    public var sweep: (_ path: String) -> Void
    /// What a path is when it is there but is not a plain file; `nil` for a plain file or nothing.
    /// The link itself is looked at, not what it points to.
    public var kind: (_ path: String) -> OtherFileKind?
    /// Syncs the folder that holds `path`, so that a file created in it survives a power cut: a file's
    /// own fsync makes its bytes durable, not its name.
    public var syncFolder: (_ path: String) throws -> Void
    /// The absolute path with symbolic links and `..` resolved (`realpath(3)`), or `nil` when the
    /// file is not there.
    public var realPath: (_ path: String) -> String?
    /// Creates a folder and those missing above it, readable by their owner only, each synced in its
    /// parent; nothing when it is there.
    public var makeFolder: (_ path: String) throws -> Void

    // For files someone else may have put in place (the sync folder's logs): a symbolic link, a folder,
    // a named pipe, a socket or a device where a plain file belongs is refused, never followed nor
    // opened (a pipe would hang the reader, a link would read or write a file of the reader's own),
    // with a `BookClubError.io` that says what it is (`plainFileRefusal`).

    /// As `size`, of a plain file only.
    public var plainSize: (_ path: String) throws -> Int?
    /// As `readRange`, from a plain file only.
    public var readPlainRange: (_ path: String, _ offset: Int, _ count: Int) throws -> Data?
    /// As `append`, to a plain file only: a link is not written through, nor created through when it
    /// points nowhere.
    public var appendPlain: (_ path: String, _ data: Data, _ offset: Int) throws -> Void

    public init(
        read: @escaping (String) throws -> Data?,
        size: @escaping (String) throws -> Int?,
        readLines: @escaping (String, Range<Int>, (Data) throws -> Void) throws -> Void,
        readRange: @escaping (String, Int, Int) throws -> Data?,
        writeAtomically: @escaping (String, Data) throws -> Void,
        append: @escaping (String, Data, Int) throws -> Void,
        lock: @escaping (String, Double) throws -> () -> Void,
        sweep: @escaping (String) -> Void,
        list: @escaping (String) -> [String],
        modified: @escaping (String) -> Date? = { _ in nil },
        remove: @escaping (String) -> Bool,
        rename: @escaping (String, String) throws -> Void,
        map: ((String) throws -> Data?)? = nil,
        syncFolder: @escaping (String) throws -> Void = { _ in },
        kind: @escaping (String) -> OtherFileKind? = { _ in nil },
        replace: ((String, Data) throws -> Void)? = nil,
        realPath: @escaping (String) -> String? = { _ in nil },
        makeFolder: @escaping (String) throws -> Void = { _ in },
        plainSize: ((String) throws -> Int?)? = nil,
        readPlainRange: ((String, Int, Int) throws -> Data?)? = nil,
        appendPlain: ((String, Data, Int) throws -> Void)? = nil,
        write: ((String, Data, Int) throws -> Void)? = nil,
        sync: @escaping (String) throws -> Void = { _ in },
        writeOutput: ((String, ((Data) throws -> Void) throws -> Void) throws -> Void)? = nil,
        readOpened: ((String, (@escaping (Int, Int) throws -> Data) throws -> Void) throws -> Bool)? = nil
    ) {
        // Of a file held in memory, as it was when opened.
        self.readOpened =
            readOpened ?? { path, body in
                guard let whole = try read(path) else { return false }
                try body { offset, count in Data(whole.dropFirst(offset).prefix(count)) }
                return true
            }
        self.write = write ?? append
        self.writeOutput =
            writeOutput ?? { path, produce in
                var whole = Data()
                try produce { whole.append($0) }
                try writeAtomically(path, whole)
            }
        self.sync = sync
        // Without calls of their own: `size`, `readRange` and `append`, where `kind` says a plain file
        // or nothing is there (right where nothing can change between the two, as in memory).
        func refusingOther(_ path: String) throws {
            if let other = kind(path) { throw Self.plainFileRefusal(path, other) }
        }
        self.plainSize =
            plainSize ?? { path in
                try refusingOther(path)
                return try size(path)
            }
        self.readPlainRange =
            readPlainRange ?? { path, offset, count in
                try refusingOther(path)
                return try readRange(path, offset, count)
            }
        self.appendPlain =
            appendPlain ?? { path, data, offset in
                try refusingOther(path)
                try append(path, data, offset)
            }
        self.realPath = realPath
        self.makeFolder = makeFolder
        self.replace = replace ?? writeAtomically
        self.read = read
        self.map = map ?? read
        self.size = size
        self.readLines = readLines
        self.readRange = readRange
        self.writeAtomically = writeAtomically
        self.append = append
        self.lock = lock
        self.sweep = sweep
        self.list = list
        self.modified = modified
        self.remove = remove
        self.rename = rename
        self.syncFolder = syncFolder
        self.kind = kind
    }

    /// What the plain-file calls throw where something else stands: `is a symbolic link, not a plain
    /// file: left unopened`.
    static func plainFileRefusal(_ path: String, _ kind: OtherFileKind) -> BookClubError {
        .io(path: path, cause: "is \(kind.rawValue), not a plain file: left unopened")
    }
}

extension FileSystem {
    /// The real file system, with POSIX calls: fsync before and after the rename, `flock(2)` for locks.
    public static var live: FileSystem { live(Syscalls.real) }

    /// The user's home folder as the system gives it, for when `HOME` is unset or empty: Foundation's
    /// lookup (the password database, then `HOME`) rather than a `getpwuid` of our own, which in a
    /// static executable warns at link time, as Foundation's own lookup already does.
    public static func userHome() -> String { FileManager.default.homeDirectoryForCurrentUser.path }

    /// The real file system, checking `interrupted` (the signal that came, or 0) before each step that
    /// commits something, so that a Ctrl-C or SIGTERM during a save leaves the files as they were.
    public static func live(interrupted: @escaping () -> Int32) -> FileSystem {
        var sys = Syscalls.real
        sys.interrupted = interrupted
        return live(sys)
    }

    /// The real file system, with one system call of the writes made to fail, for tests: the
    /// `occurrence`th call of `call` fails with `code` (`ENOSPC` for a full disk, say).
    public static func live(injecting call: InjectedFault.Call, occurrence: Int, code: Int32) -> FileSystem {
        live(Syscalls.real.failing(call, occurrence: occurrence, code: code))
    }

    static func live(_ sys: Syscalls) -> FileSystem {
        FileSystem(
            read: { path in
                guard POSIXFile.exists(path) else { return nil }
                return try POSIXFile.readAll(path)
            },
            size: POSIXFile.size,
            readLines: POSIXFile.readLines,
            readRange: POSIXFile.readRange,
            writeAtomically: { try POSIXFile.writeAtomically($0, $1, sys: sys) },
            append: { try POSIXFile.append($0, $1, at: $2, sys: sys) },
            lock: { try POSIXFile.lock($0, timeout: $1, sys: sys) },
            sweep: POSIXFile.sweep,
            list: POSIXFile.list,
            modified: { path in
                var status = stat()
                guard stat(path, &status) == 0 else { return nil }
                return Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec))
            },
            remove: { unlink($0) == 0 || rmdir($0) == 0 },
            rename: { from, to in
                guard sys.rename(from, to) == 0 else { throw POSIXFile.failure(from, "cannot rename it") }
            },
            map: { path in
                guard POSIXFile.exists(path) else { return nil }
                return try POSIXFile.readAll(path, mapping: true)
            },
            syncFolder: { try POSIXFile.syncDirectory(of: $0, sys: sys) },
            kind: POSIXFile.kind,
            replace: { try POSIXFile.writeAtomically($0, $1, sys: sys, syncingFolder: false) },
            realPath: { path in
                guard let real = realpath(path, nil) else { return nil }
                defer { free(real) }
                return String(cString: real)
            },
            makeFolder: { try POSIXFile.makeParent(of: $0 + "/.", sys: sys) },
            plainSize: POSIXFile.plainSize,
            readPlainRange: POSIXFile.readPlainRange,
            appendPlain: { try POSIXFile.append($0, $1, at: $2, plainOnly: true, sys: sys) },
            write: { try POSIXFile.append($0, $1, at: $2, syncing: false, sys: sys) },
            sync: { try POSIXFile.sync($0, sys: sys) },
            writeOutput: { try POSIXFile.writeOutput($0, sys: sys, parts: $1) },
            readOpened: POSIXFile.readOpened)
    }

    /// Files kept in memory, for tests; locks always succeed. `others` are paths where something other
    /// than a plain file stands: `kind` and `list` show them, the plain-file calls refuse them, and the
    /// other calls find nothing there.
    public static func inMemory(_ files: [String: Data] = [:], others: [String: OtherFileKind] = [:]) -> FileSystem {
        let box = MemoryFiles(files)
        return FileSystem(
            read: { box.files[$0] },
            size: { box.files[$0]?.count },
            readLines: { path, range, body in
                if let data = box.files[path] {
                    try body(Data(data.dropFirst(range.lowerBound).prefix(range.count)))
                }
            },
            readRange: { path, offset, count in
                box.files[path].map { Data($0.dropFirst(offset).prefix(count)) }
            },
            writeAtomically: { box.files[$0] = $1 },
            append: { path, data, offset in
                let existing = box.files[path] ?? Data()
                guard existing.count >= offset else { throw POSIXFile.tooShort(path, existing.count, offset) }
                box.files[path] = Data(existing.prefix(offset)) + data
            },
            lock: { _, _ in {} },
            sweep: { path in
                let prefix = POSIXFile.temporaryPrefix(for: path)
                for name in box.files.keys where name.hasPrefix(prefix) { box.files[name] = nil }
            },
            list: { folder in
                (Array(box.files.keys) + others.keys).filter { $0.parentPath == folder }.map(\.lastPathComponent)
            },
            remove: { box.files.removeValue(forKey: $0) != nil },
            rename: { from, to in
                guard let data = box.files.removeValue(forKey: from) else {
                    throw BookClubError.io(path: from, cause: "No such file or directory")
                }
                box.files[to] = data
            },
            kind: { others[$0] })
    }
}

/// What stands at a path where a plain file was expected, said as in a message.
public enum OtherFileKind: String, Sendable {
    case symbolicLink = "a symbolic link"
    case folder = "a folder"
    case namedPipe = "a named pipe"
    case socket = "a socket"
    case device = "a device"
}

/// A system call a test can make fail.
public enum InjectedFault {
    public enum Call: String, CaseIterable, Sendable {
        case open, write, fsync, rename, truncate
    }
}

/// The system calls behind the writes, as values, so that a test can make any one of them fail.
struct Syscalls {
    var open: (String, Int32, mode_t) -> Int32
    var write: (Int32, UnsafeRawPointer, Int) -> Int
    var fsync: (Int32) -> Int32
    var rename: (String, String) -> Int32
    var ftruncate: (Int32, off_t) -> Int32
    var mkdir: (String, mode_t) -> Int32
    /// The signal that asked the process to stop, or 0.
    var interrupted: () -> Int32 = { 0 }

    /// Throws when a signal asked the process to stop: called before each step that commits.
    func checkInterrupted() throws {
        let signal = interrupted()
        if signal != 0 { throw BookClubError.interrupted(signal: signal, detail: "nothing was saved.") }
    }

    static var real: Syscalls {
        Syscalls(
            open: { Glibc.open($0, $1, $2) }, write: { Glibc.write($0, $1, $2) }, fsync: { Glibc.fsync($0) },
            rename: { Glibc.rename($0, $1) }, ftruncate: { Glibc.ftruncate($0, $1) }, mkdir: { Glibc.mkdir($0, $1) })
    }

    /// These calls, but the `occurrence`th call of `call` fails with `code`.
    func failing(_ call: InjectedFault.Call, occurrence: Int, code: Int32) -> Syscalls {
        let counter = CallCounter()
        func fails(_ which: InjectedFault.Call) -> Bool {
            guard which == call else { return false }
            counter.calls += 1
            if counter.calls == occurrence {
                errno = code
                return true
            }
            return false
        }
        let real = self
        return Syscalls(
            open: { fails(.open) ? -1 : real.open($0, $1, $2) },
            write: { fails(.write) ? -1 : real.write($0, $1, $2) },
            fsync: { fails(.fsync) ? -1 : real.fsync($0) },
            rename: { fails(.rename) ? -1 : real.rename($0, $1) },
            ftruncate: { fails(.truncate) ? -1 : real.ftruncate($0, $1) },
            mkdir: real.mkdir, interrupted: real.interrupted)
    }
}

private final class CallCounter {
    var calls = 0
}

private final class MemoryFiles {
    var files: [String: Data]
    init(_ files: [String: Data]) { self.files = files }
}

/// The POSIX calls behind `FileSystem.live`.
enum POSIXFile {
    static func failure(_ path: String, _ what: String, _ code: Int32 = errno) -> BookClubError {
        .io(path: path, cause: "\(what): \(String(cString: strerror(code)))")
    }

    static func size(_ path: String) throws -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw failure(path, "cannot read the size")
        }
        return Int(status.st_size)
    }

    static func kind(_ path: String) -> OtherFileKind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return kind(mode: status.st_mode)
    }

    /// What a file of this mode is, `nil` for a plain file.
    static func kind(mode: mode_t) -> OtherFileKind? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFLNK: .symbolicLink
        case S_IFDIR: .folder
        case S_IFIFO: .namedPipe
        case S_IFSOCK: .socket
        default: .device
        }
    }

    /// The size of a plain file, as `lstat(2)` gives it: a link is not followed, nothing is opened.
    static func plainSize(_ path: String) throws -> Int? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw failure(path, "cannot read the size")
        }
        if let other = kind(mode: status.st_mode) { throw FileSystem.plainFileRefusal(path, other) }
        return Int(status.st_size)
    }

    /// Opens `path` only when it is a plain file: what stands there is looked at first (`lstat(2)`, so
    /// that a pipe or a device is never opened), then opened following no link (`O_NOFOLLOW`), waiting
    /// for no writer (`O_NONBLOCK`, which a plain file ignores) and taking no terminal (`O_NOCTTY`),
    /// and what was opened looked at again (`fstat(2)`): something put in place between the two is
    /// refused as well. `nil` when there is no file and `flags` do not create one.
    static func openPlain(_ path: String, _ flags: Int32, mode: mode_t = 0, sys: Syscalls) throws -> Int32? {
        var status = stat()
        if lstat(path, &status) == 0, let other = kind(mode: status.st_mode) {
            throw FileSystem.plainFileRefusal(path, other)
        }
        let fd = sys.open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode)
        guard fd >= 0 else {
            let code = errno
            // A link put in place meanwhile (ELOOP), a folder (EISDIR), a pipe opened to write (ENXIO).
            if let other = kind(path) { throw FileSystem.plainFileRefusal(path, other) }
            if code == ENOENT { return nil }
            throw failure(path, "cannot open", code)
        }
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw failure(path, "cannot read the size", code)
        }
        if let other = kind(mode: status.st_mode) {
            close(fd)
            throw FileSystem.plainFileRefusal(path, other)
        }
        return fd
    }

    /// `FileSystem.readOpened`: opened without waiting (a named pipe put there is refused, not waited
    /// on), and its size and time of change asked again once `body` is done.
    static func readOpened(_ path: String, _ body: (_ read: @escaping (Int, Int) throws -> Data) throws -> Void)
        throws -> Bool
    {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return false }
            throw failure(path, "cannot open")
        }
        defer { close(fd) }
        func identity() throws -> [Int] {
            var status = stat()
            guard fstat(fd, &status) == 0 else { throw failure(path, "cannot read the size") }
            if let other = kind(mode: status.st_mode) { throw FileSystem.plainFileRefusal(path, other) }
            return [Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
        }
        let opened = try identity()
        try body { offset, count in try readRange(fd, path: path, offset: offset, count: count) }
        guard try identity() == opened else {
            throw BookClubError.corruptFile(path: path, detail: "changed while it was read; run the command again")
        }
        return true
    }

    static func tooShort(_ path: String, _ size: Int, _ expected: Int) -> BookClubError {
        .corruptFile(
            path: path, detail: "holds \(size) bytes where the store expects \(expected); it was cut short or replaced")
    }

    static func readRange(_ path: String, offset: Int, count: Int) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure(path, "cannot open")
        }
        defer { close(fd) }
        return try readRange(fd, path: path, offset: offset, count: count)
    }

    /// As `readRange`, from a plain file only (`openPlain`). Reads are not among the calls a test makes
    /// fail, so the real `open` is used.
    static func readPlainRange(_ path: String, offset: Int, count: Int) throws -> Data? {
        guard let fd = try openPlain(path, O_RDONLY, sys: .real) else { return nil }
        defer { close(fd) }
        return try readRange(fd, path: path, offset: offset, count: count)
    }

    /// At most `count` bytes from `offset` of the file open as `fd`.
    static func readRange(_ fd: Int32, path: String, offset: Int, count: Int) throws -> Data {
        var data = Data(count: max(count, 0))
        var read = 0
        while read < count {
            let got = data.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + read, count - read, off_t(offset + read))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw failure(path, "cannot read") }
            if got == 0 { break }
            read += got
        }
        return data.prefix(read)
    }

    static func readAll(_ path: String, mapping: Bool = false) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot open") }
        defer { close(fd) }
        var status = stat()
        let size = fstat(fd, &status) == 0 ? max(Int(status.st_size), 0) : 0
        // Mapped: reading it into fresh memory costs a page fault a page, which a command about one
        // book of thousands would pay for nothing; its pages are mapped as they are touched (filling
        // them all at once cost a `progress` 0.25 ms on a snapshot of 4 MB).
        if mapping, size >= 1 << 16, let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
            mapped != MAP_FAILED
        {
            return Data(
                bytesNoCopy: mapped, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
        }
        // Read into a buffer of the file's size (and a byte more, to meet the end in the same read).
        var data = Data(count: size + 1)
        var filled = 0
        while true {
            if filled == data.count { data.count += max(1 << 16, data.count) }  // it grew meanwhile
            let count = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "cannot read")
            }
            if count == 0 { break }
            filled += count
        }
        data.count = filled
        return data
    }

    /// Reads the bytes of `range` in chunks of 1 MiB, each cut after its last line break (the rest is
    /// carried into the next chunk), so that memory stays flat however long the file is.
    static func readLines(_ path: String, range: Range<Int>, body: (Data) throws -> Void) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT { return }
        guard fd >= 0 else { throw failure(path, "cannot open") }
        defer { close(fd) }
        // Read into one buffer, its whole lines handed over in place; only a line cut by the end of a
        // read is moved, to the front.
        var buffer = Data(count: max(min(1 << 20, range.count), 1))
        var filled = 0
        var offset = range.lowerBound
        while offset < range.upperBound {
            if filled == buffer.count { buffer.count *= 2 }  // a line longer than the buffer
            let count = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + filled, min($0.count - filled, range.upperBound - offset), off_t(offset))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "cannot read")
            }
            if count == 0 { break }
            offset += count
            filled += count
            // Found on the raw bytes: Data's own `lastIndex` took 5 ns a byte, which a record of
            // megabytes in the undo log paid on every read.
            let lastBreak = buffer.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int? in
                var at = filled - 1
                while at >= 0, bytes[at] != 0x0A { at -= 1 }
                return at >= 0 ? at : nil
            }
            guard let lastBreak else { continue }
            try body(buffer[...lastBreak])
            filled -= lastBreak + 1
            if filled > 0 {
                buffer.withUnsafeMutableBytes { _ = memmove($0.baseAddress!, $0.baseAddress! + lastBreak + 1, filled) }
            }
        }
        if filled > 0 { try body(buffer[..<filled]) }
    }

    static func writeAll(_ fd: Int32, _ data: Data, path: String, sys: Syscalls) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = sys.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(path, "cannot write")
                }
                offset += written
            }
        }
    }

    /// Creates the folders missing above `path`, each synced in its parent, so that a new store's
    /// folder survives a power cut as its files do.
    static func makeParent(of path: String, sys: Syscalls) throws {
        let parent = path.parentPath
        guard !parent.isEmpty, !exists(parent) else { return }
        try makeParent(of: parent, sys: sys)
        guard sys.mkdir(parent, 0o700) == 0 || errno == EEXIST else {
            throw failure(parent, "cannot create the folder")
        }
        try syncDirectory(of: parent, sys: sys)
    }

    static func syncDirectory(of path: String, sys: Syscalls) throws {
        let parent = path.parentPath
        let fd = sys.open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw failure(parent, "cannot open the folder") }
        defer { close(fd) }
        guard sys.fsync(fd) == 0 else { throw failure(parent, "cannot sync the folder") }
    }

    /// Temporary file in the same folder, fsync, rename over the target, fsync of the folder.
    /// Skipped when the file already holds these bytes.
    static func writeAtomically(_ path: String, _ data: Data, sys: Syscalls, syncingFolder: Bool = true) throws {
        if holds(path, data) { return }
        try writeAtomically(path, sys: sys, syncingFolder: syncingFolder) { write in try write(data) }
    }

    /// Whether the file at `path` holds these bytes and no others, compared a part of 1 MiB at a time:
    /// a new snapshot of 4 MB compared with the old one held 5 MB more at a batch's busiest moment.
    static func holds(_ path: String, _ data: Data) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, Int(status.st_size) == data.count else { return false }
        var part = Data(count: min(max(data.count, 1), 1 << 20))
        var offset = 0
        return data.withUnsafeBytes { expected in
            part.withUnsafeMutableBytes { part in
                while offset < expected.count {
                    let got = pread(fd, part.baseAddress!, min(part.count, expected.count - offset), off_t(offset))
                    if got < 0 && errno == EINTR { continue }
                    guard got > 0, sameBytes(part.baseAddress!, expected.baseAddress! + offset, count: got) else {
                        return false
                    }
                    offset += got
                }
                // Nothing past the end: the file did not grow meanwhile.
                var byte: UInt8 = 0
                return pread(fd, &byte, 1, off_t(offset)) == 0
            }
        }
    }

    /// The same, the bytes written to the temporary file a part at a time as `produce` hands them over;
    /// a `produce` that throws, or a signal recorded (`Syscalls.interrupted`) after a part, leaves the
    /// file as it was and takes the temporary file away.
    static func writeAtomically(
        _ path: String, sys: Syscalls, syncingFolder: Bool = true, parts produce: ((Data) throws -> Void) throws -> Void
    ) throws {
        try makeParent(of: path, sys: sys)
        let temporary = temporaryPrefix(for: path) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = sys.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, "cannot create a temporary file") }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            try writeParts(fd, path: path, sys: sys, produce)
            guard sys.fsync(fd) == 0 else { throw failure(path, "cannot sync") }
        }
        try sys.checkInterrupted()
        guard sys.rename(temporary, path) == 0 else { throw failure(path, "cannot replace the file") }
        renamed = true
        guard syncingFolder else { return }
        do {
            try syncDirectory(of: path, sys: sys)
        } catch BookClubError.io(let folder, let cause) {
            throw BookClubError.io(
                path: folder,
                cause: cause
                    + " after replacing \(path.lastPathComponent); the change is made but may not survive a crash")
        }
    }

    /// As `FileSystem.writeOutput` says: a link followed to the file it names (one that names nothing is
    /// refused: the file it should name is not guessed), a device or a named pipe written into, a
    /// plain file (or none) replaced atomically.
    static func writeOutput(_ path: String, sys: Syscalls, parts produce: ((Data) throws -> Void) throws -> Void) throws
    {
        var target = path
        if kind(path) == .symbolicLink {
            guard let real = realpath(path, nil) else {
                throw BookClubError.io(path: path, cause: "is a symbolic link to nothing; name the file itself")
            }
            defer { free(real) }
            target = String(cString: real)
        }
        switch kind(target) {
        case .folder?: throw BookClubError.io(path: path, cause: "is a folder; name a file in it")
        case .device?, .namedPipe?, .socket?:
            let fd = sys.open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC, 0)
            guard fd >= 0 else { throw failure(path, "cannot open it") }
            defer { close(fd) }
            try writeParts(fd, path: path, sys: sys, produce)
        case .symbolicLink?, nil: try writeAtomically(target, sys: sys, parts: produce)
        }
    }

    /// Writes to `fd` each part `produce` hands over. A Ctrl-C recorded (while the caller catches
    /// signals) stops a long write between parts.
    private static func writeParts(
        _ fd: Int32, path: String, sys: Syscalls, _ produce: ((Data) throws -> Void) throws -> Void
    ) throws {
        try produce { part in
            try writeAll(fd, part, path: path, sys: sys)
            try sys.checkInterrupted()
        }
    }

    /// `/dir/.store.json.tmp-`: what every temporary file of an atomic write of `path` starts with.
    static func temporaryPrefix(for path: String) -> String {
        let directory = path.parentPath
        return (directory.isEmpty ? "" : directory + "/") + ".\(path.lastPathComponent).tmp-"
    }

    /// Whether anything is at `path` (a link is followed). Asked of `stat(2)` rather than
    /// `FileManager`, whose first use costs a command 90 µs.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// The names in the folder at `path` (without `.` and `..`); none when it cannot be read.
    static func list(_ path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func sweep(_ path: String) {
        let directory = path.parentPath.isEmpty ? "." : path.parentPath
        let prefix = temporaryPrefix(for: path).lastPathComponent
        for name in list(directory) where name.hasPrefix(prefix) {
            unlink(directory + "/" + name)
        }
    }

    /// - Parameter plainOnly: a link, a folder, a pipe, a socket or a device at `path` is refused
    ///   unopened (`openPlain`).
    static func append(
        _ path: String, _ data: Data, at offset: Int, plainOnly: Bool = false, syncing: Bool = true, sys: Syscalls
    ) throws {
        try makeParent(of: path, sys: sys)
        let existed = exists(path)
        // Created only to be written from its start: a file that should hold bytes and is gone is not
        // replaced by an empty one.
        let flags = O_WRONLY | (offset == 0 ? O_CREAT : 0)
        let fd: Int32
        if plainOnly {
            guard let opened = try openPlain(path, flags, mode: 0o600, sys: sys) else {
                throw tooShort(path, 0, offset)
            }
            fd = opened
        } else {
            fd = sys.open(path, flags | O_CLOEXEC, 0o600)
            if fd < 0, errno == ENOENT { throw tooShort(path, 0, offset) }
            guard fd >= 0 else { throw failure(path, "cannot open") }
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(path, "cannot read the size") }
        guard Int(status.st_size) >= offset else { throw tooShort(path, Int(status.st_size), offset) }
        // A cut alone puts back what a failed command wrote: it is made after a Ctrl-C too.
        if !data.isEmpty { try sys.checkInterrupted() }
        // Cut only when an interrupted write left something: the call costs a tenth of a millisecond.
        if Int(status.st_size) > offset, sys.ftruncate(fd, off_t(offset)) != 0 {
            throw failure(path, "cannot truncate")
        }
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw failure(path, "cannot seek") }
        try writeAll(fd, data, path: path, sys: sys)
        guard syncing else { return }
        guard sys.fsync(fd) == 0 else { throw failure(path, "cannot sync") }
        if !existed { try syncDirectory(of: path, sys: sys) }
    }

    /// Only a plain file is synced: a pipe is not waited on, nor a link followed (bookclub writes
    /// neither, and refuses them where it writes).
    static func sync(_ path: String, sys: Syscalls) throws {
        let fd = sys.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0)
        if fd < 0, errno == ENOENT || errno == ELOOP { return }
        guard fd >= 0 else { throw failure(path, "cannot open") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        guard sys.fsync(fd) == 0 else { throw failure(path, "cannot sync") }
    }

    /// `flock(2)` on a lock file of its own, polled until `timeout`; the returned closure unlocks.
    static func lock(_ path: String, timeout: Double, sys: Syscalls) throws -> () -> Void {
        try makeParent(of: path, sys: sys)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, "cannot open the lock file") }
        // A monotonic clock: a wall clock set back while waiting would stretch the wait.
        let deadline = ContinuousClock.now.advanced(
            by: .milliseconds(Int64((min(max(timeout, 0), 86_400) * 1_000).rounded())))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw failure(path, "cannot lock", code)
            }
            guard ContinuousClock.now < deadline else {
                close(fd)
                throw BookClubError.storeBusy(lockPath: path, seconds: timeout)
            }
            usleep(5_000)
        }
        return {
            flock(fd, LOCK_UN)
            close(fd)
        }
    }
}

/// Where `byte` first occurs among the `count` bytes at `start` (`memchr(3)`): the JSON readers' search,
/// here so that every call to the C library is in this one file.
func firstByte(_ byte: UInt8, at start: UnsafeRawPointer, count: Int) -> UnsafeRawPointer? {
    memchr(start, Int32(byte), count).map { UnsafeRawPointer($0) }
}

/// Whether the `count` bytes at `a` and at `b` are the same (`memcmp(3)`).
func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    memcmp(a, b, count) == 0
}
