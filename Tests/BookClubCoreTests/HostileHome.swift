import Foundation
import Testing

@testable import bookclub

/// A home whose every text came from outside with terminal escapes in it: a Kindle clippings file
/// (Dune), a KOReader sidecar (Ulysses), the log of another machine in the shared sync folder (Left
/// Hand, Kindred from its Goodreads import, the club scifi and its meeting, the machine's name), and
/// the command line (Emma). Each value begins with a word its reference finds (`dune`, `scifi`) and
/// goes on with `HostileHome.controls`, and NUL where the format can carry one.
struct HostileHome {
    /// What each value carries: OSC (a window title), BEL, CSI (clear the screen), C1's CSI, DEL, a
    /// right-to-left override, a tab.
    static let controls = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{7F}\u{202E}\t"

    /// `text` followed by the controls.
    static func evil(_ text: String) -> String { text + controls }

    /// The books and clubs the references of commands find here.
    static let references = ["dune", "ulysses", "left hand", "kindred", "emma", "scifi"]

    let laptop: BookClubRunner
    let desk: BookClubRunner
    var folder: String { laptop.home + "/shared" }

    init() throws {
        laptop = try BookClubRunner()
        desk = try BookClubRunner()
        try expectDone(laptop, ["sync", "init", folder, "--name", "laptop"])
        try expectDone(desk, ["sync", "init", folder, "--name", Self.evil("desk") + "@NUL@"])
        try fromAnotherMachine()
        try fromKindle()
        try fromKOReader()
        try fromTheCommandLine()
    }

    func cleanUp() {
        laptop.cleanUp()
        desk.cleanUp()
    }

    private func expectDone(_ home: BookClubRunner, _ arguments: [String], input: String? = nil) throws {
        let result = try home.run(arguments, input: input)
        try #require(result.exitCode == 0, "\(arguments): \(result)")
    }

    /// The desk's commands, with NUL (which no argument can hold) written into its log afterwards.
    private func fromAnotherMachine() throws {
        let evil = { Self.evil($0) + "@NUL@" }
        for arguments in [
            ["add", evil("Left Hand"), "--author", evil("Ursula"), "--pages", "300", "--tag", evil("sf")],
            ["progress", "left hand", "50", "--note", evil("a note") + "\n" + evil("its second line")],
            ["highlight", "left hand", evil("a passage"), "--page", "40", "--note", evil("on the passage")],
            ["club", "add", evil("scifi"), "--description", evil("we read")],
            [
                "club", "meeting", "scifi", "--date", "2099-01-10 19:00", "--book", "left hand", "--target", "200",
                "--label", evil("part one"), "--where", evil("the library"),
            ],
        ] {
            try expectDone(desk, arguments)
        }
        let csv = """
            Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies
            840,"\(evil("Kindred"))","\(evil("Octavia"))",,,,,4,4.2,"\(evil("Beacon"))",Paperback,264,1979,1979,2025/01/10,2025/01/02,"\(evil("shelf"))",,read,"\(evil("a review"))",,"\(evil("private"))",1,0

            """
        try csv.write(toFile: desk.home + "/goodreads.csv", atomically: true, encoding: .utf8)
        try expectDone(desk, ["import", "goodreads", "goodreads.csv"])
        let devices = folder + "/devices"
        for name in try FileManager.default.contentsOfDirectory(atPath: devices) {
            let path = devices + "/" + name
            let log = try String(contentsOfFile: path, encoding: .utf8)
            try log.replacing("@NUL@", with: "\\u0000").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// A clippings file: a highlight and a note on Dune, escapes and NUL in the title, the author, the passage and the note.
    private func fromKindle() throws {
        let evil = { Self.evil($0) + "\u{0}" }
        let clippings = """
            \u{FEFF}\(evil("Dune")) (\(evil("Frank")) Herbert)\r
            - Your Highlight on page 12 | location 123-124 | Added on Monday, January 6, 2020 1:05:09 PM\r
            \r
            \(evil("Fear is the mind-killer."))\r
            ==========\r
            \(evil("Dune")) (\(evil("Frank")) Herbert)\r
            - Your Note on page 12 | location 124 | Added on Monday, January 6, 2020 1:06:09 PM\r
            \r
            \(evil("ask the club"))\r
            ==========\r

            """
        try clippings.write(toFile: laptop.home + "/My Clippings.txt", atomically: true, encoding: .utf8)
        try expectDone(laptop, ["import", "kindle", "My Clippings.txt"])
    }

    /// A sidecar of Ulysses, with escapes in every string, written as Lua's escapes.
    private func fromKOReader() throws {
        func lua(_ text: String) -> String {
            var out = "\""
            for scalar in (Self.evil(text) + "\u{0}").unicodeScalars {
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\" {
                    out += "\\\(scalar.value)"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let sidecar = """
            return {
                ["annotations"] = {
                    [1] = {
                        ["chapter"] = \(lua("Telemachus")),
                        ["datetime"] = "2024-08-01 19:05:33",
                        ["drawer"] = "lighten",
                        ["note"] = \(lua("a note on it")),
                        ["pageno"] = 8,
                        ["pos0"] = \(lua("/body/p[1]")),
                        ["text"] = \(lua("Stately, plump Buck Mulligan")),
                    },
                },
                ["doc_pages"] = 730,
                ["doc_path"] = \(lua("/mnt/onboard/Ulysses.epub")),
                ["doc_props"] = {
                    ["authors"] = \(lua("James Joyce")),
                    ["identifiers"] = \(lua("uuid:x")),
                    ["title"] = \(lua("Ulysses")),
                },
                ["percent_finished"] = 0.25,
                ["summary"] = {
                    ["modified"] = "2024-08-02",
                    ["status"] = "reading",
                },
            }

            """
        let folder = laptop.home + "/reader/Ulysses.sdr"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try sidecar.write(toFile: folder + "/metadata.epub.lua", atomically: true, encoding: .utf8)
        try expectDone(laptop, ["import", "koreader", "reader"])
    }

    private func fromTheCommandLine() throws {
        let evil = Self.evil
        for arguments in [
            ["add", evil("Emma"), "--author", evil("Jane"), "--pages", "474", "--tag", evil("classic")],
            ["progress", "emma", "100", "--note", evil("first") + "\n" + evil("second")],
            ["progress", "dune", "30%", "--note", evil("spice")],
            ["progress", "ulysses", "40%", "--note", evil("bloom")],
            ["finish", "kindred", "--note", evil("done"), "--review", evil("kept")],
            ["settings", "set", "yearlyGoal", "12"],
        ] {
            try expectDone(laptop, arguments)
        }
    }

    // MARK: Checking what came out

    /// Whether `text` holds a control character other than a line break, DEL, or a mark that reorders text.
    static func rawControls(in text: String, allowing allowed: Set<Unicode.Scalar> = ["\n"]) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            !allowed.contains(scalar)
                && (scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value) || [0x200E, 0x200F, 0x061C].contains(scalar.value))
        }
    }

    /// Output kept exact, as its format escapes it (`export` as JSON or CSV, a calendar), rather than
    /// text for people.
    static func isLossless(_ arguments: [String]) -> Bool {
        let words = arguments.filter { !$0.hasPrefix("-") }
        if words.first == "export" {
            return !arguments.contains("markdown") && !arguments.contains("--format=markdown")
        }
        return arguments.contains("--ical")
    }

    /// What is wrong with what a command printed: a control character of the data sent raw.
    static func problems(_ result: BookClubRunner.Result, _ arguments: [String]) -> [String] {
        func problem(_ text: String, _ stream: String) -> String? {
            let raw = rawControls(in: text)
            guard !raw.isEmpty else { return nil }
            let kinds = Set(raw).sorted { $0.value < $1.value }.map {
                "U+" + String($0.value, radix: 16, uppercase: true)
            }
            return
                "\(arguments): raw \(kinds.joined(separator: " ")) on \(stream): \(text.prefix(300).debugDescription)"
        }
        return [
            problem(result.stderr, "standard error"),
            isLossless(arguments) ? nil : problem(result.stdout, "standard output"),
        ]
        .compactMap { $0 }
    }
}
