import BookClubCore

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

/// What `main` (or a test) gives the CLI: the process's variables, streams, terminal, file system,
/// clock, ids, programs and signals. A value: a test builds one with fakes.
struct Services {
    var variables: [String: String]
    var terminal: Terminal
    var fileSystem = FileSystem.live
    var now: () -> Date = { Date() }
    /// Waits that many seconds (between requests to Open Library).
    var sleep: (Double) -> Void = { seconds in usleep(UInt32(min(max(seconds, 0), 60) * 1_000_000)) }
    /// The reader's time zone, found from `TZ` as the C library finds it.
    var timeZone: (zone: Zone, problem: String?) {
        Zone.resolve(
            tz: variables["TZ"], zoneinfo: variables["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        ) {
            path in try? fileSystem.read(path)
        }
    }
    /// Makes the ids of readings, entries and saved states.
    var ids = Services.randomIDs
    /// Entries and readings get time-ordered ids (`TimeOrderedIDs`), the rest random ones from the
    /// system's generator: Foundation's `UUID()` opens, reads and closes /dev/urandom for each one.
    static let randomIDs = IDSource(
        ordered: TimeOrderedIDs.shared.next,
        random: {
            var generator = SystemRandomNumberGenerator()
            return UUID(random: &generator)
        })
    /// Makes the id of a new book, club or meeting.
    var makeID: () -> String = { UUID().uuidString.replacing("-", with: "").lowercased() }
    /// Starts the programs bookclub runs: curl, git, sqlite3, the editor, the pager, hooks.
    var runner = ProgramRunner.live
    var readLine: () -> String? = { Swift.readLine() }
    /// While `true`, SIGINT and SIGTERM are recorded (see `receivedSignal`) rather than fatal; each
    /// call forgets what was recorded before.
    var catchSignals: (Bool) -> Void = { _ in }
    /// The SIGINT or SIGTERM recorded while signals were caught, or 0.
    var receivedSignal: () -> Int32 = { 0 }
    /// Called once the library's save has committed: a signal no longer stops the rest.
    var didCommit: () -> Void = {}
    /// Writes raw text to standard output (`true`) or standard error.
    var write: (String, Bool) -> Void
    /// Writes UTF-8 text to standard output as it is, without making a string of it first; `nil`
    /// sends it through `write`.
    var writeBytes: ((UnsafeRawBufferPointer) -> Void)?
    /// Sends standard output's `text` through the pager when it is bound for a terminal it is taller
    /// than and a pager is set; `false` when it was not sent (the caller then writes it).
    func paged(_ text: String) -> Bool {
        guard terminal.standardOutputIsTerminal, let height = terminal.height,
            text.utf8.count(where: { $0 == 0x0A }) >= height, let command = Pager.command(variables)
        else { return false }
        return Pager.page(text, command: command, variables: variables, runner: runner)
    }
    var workingDirectory = Services.systemWorkingDirectory()
    /// The home folder the system gives the user, for when `HOME` is unset (asked only then: the
    /// password database costs a lookup through NSS).
    var userHome: () -> String = Services.systemUserHome

    static func systemWorkingDirectory() -> String {
        guard let folder = getcwd(nil, 0) else { return "/" }
        defer { free(folder) }
        return String(cString: folder)
    }

    static func systemUserHome() -> String { FileSystem.userHome() }
}

/// The options every command takes, read once.
struct GlobalOptions {
    var store: String?
    var settings: String?
    var quiet: Bool
    /// `nil`: as the settings say.
    var color: ColorMode?
    var hooksEnabled: Bool
    var pagerEnabled: Bool

    init(_ parsed: ParsedArguments) throws {
        store = try parsed[CLI.store]
        settings = try parsed[CLI.settings]
        quiet = parsed[CLI.quiet]
        color = parsed[CLI.noColor] ? .never : try parsed[CLI.color]
        hooksEnabled = !parsed[CLI.noHooks]
        pagerEnabled = !parsed[CLI.noPager]
    }
}

extension UUID {
    /// A random (version 4) UUID, as `UUID()` makes one, from `generator`'s bits.
    init(random generator: inout some RandomNumberGenerator) {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: 8, as: UInt64.self)
            bytes[6] = bytes[6] & 0x0F | 0x40  // version 4: random
            bytes[8] = bytes[8] & 0x3F | 0x80  // the variant of RFC 9562
        }
        self.init(uuid: uuid)
    }
}
