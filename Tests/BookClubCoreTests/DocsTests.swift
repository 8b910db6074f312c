import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// The documents a newcomer reads, README.md and docs/*.md, checked the way a newcomer uses them.
//
// Links. Every relative link and image must name a file that exists, and every `#anchor` (in the
// same document or another) the GitHub slug of one of that document's headings.
//
// Examples. Every `bookclub` command shown in a code block runs, in the order the documents show
// them, against temporary homes, and must exit as the document says. The conventions (which
// docs/development.md repeats for whoever writes an example):
// - Only ```sh and ```console blocks hold examples. In ```sh every line that is not blank or a
//   comment is a command; in ```console a command follows a `$ ` prompt and the other lines are its
//   output, which is not compared (it holds ids and dates). A command goes on over the next lines
//   while a quote is open or its line ends in `\`, `|` or `&&`. ```cron, ```json, ```text and
//   unmarked blocks are crontab lines, batch lines and output: none is run.
// - A command that starts with `bookclub` is an example. It runs through `bash -o pipefail -c`, so that
//   its redirections, pipes and comments work, with the built binary first on PATH as `bookclub`
//   (`BookClubRunner.executable`: `BOOKCLUB_TEST_BINARY`, else the debug build). `swift run bookclub …`
//   runs that binary too. It must exit 0, unless its comment says `exit N`.
// - Of the other commands, `mkdir` runs, and `export NAME=VALUE` sets the variable for the rest of its
//   block. The rest (make, swift, python3, a hook shown as a file, with its `curl`) are not run. A
//   command that is not run but calls bookclub after `;`, `&&`, `|` or `(` fails the test: no
//   bookclub example is left out unseen.
// - A program piped into that is not installed (jq, say) is left out and the bookclub side runs
//   alone, saying so; jq is run where it is installed.
// - Homes: the documents run one after another, README.md first, then `documents` in order below, in
//   one home, the reader's (`laptop`): the guide goes on from the tour's books. A prompt with a name
//   (`desk$ `) runs on that machine, in a home of its own whose `~/Sync` is the reader's `~/Sync`, as
//   Syncthing or a shared folder would make it. `laptop$ ` is the reader's home.
// - Inputs: a file an example reads is made in the home before the first example that names it,
//   from `../shared/fixtures` beside the package (real exports and e-reader files), else, in a clone
//   without that folder, from the package's own fixtures; `library.json` is a bookclub export made in
//   a scratch home. Paths under `/media/` (an e-reader's mount point) are read under the home's
//   `media/`. An input no example names any more fails the test.
// - Open Library is served on 127.0.0.1 by `Fixtures/openlibrary/server.py`, as in
//   OpenLibraryEndToEndTests; nothing reaches the internet.
// - `unrunnable` lists the examples that can only fail here, with the reason; it is empty, and an
//   entry that names no example in the documents fails the test.
// - HOME is a temporary folder and TZ the suite's own (`BookClubRunner.timeZoneName`, UTC when
//   unset); CI runs this suite under UTC, America/New_York and Asia/Kolkata, as the examples use
//   relative dates.

/// The documents and where they are.
enum Docs {
    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every document, in the order its examples run.
    static let documents = [
        "README.md", "docs/guide.md", "docs/design.md", "docs/performance.md", "docs/development.md",
    ]

    /// Examples that can only fail in a sandbox, each by its command as the document writes it, with
    /// the reason. None, as Open Library is served here.
    static let unrunnable: [(example: String, reason: String)] = []

    /// The files examples read, by how the examples name them.
    static let inputs = [
        "goodreads_library_export.csv", "storygraph_export.csv", "library.json",
        "/media/Kindle/documents/My Clippings.txt", "/media/KOBOeReader",
    ]

    /// `../shared/fixtures`, when it is beside the package.
    static let shared: URL? = {
        let folder = root.appendingPathComponent("../shared/fixtures").standardized
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("imports/README.md").path)
            ? folder : nil
    }()
}

/// A Markdown file, split into its prose and its fenced code blocks.
struct MarkdownDocument {
    struct CodeBlock {
        var language: String
        /// The 1-based line of the first line inside the fence.
        var firstLine: Int
        var lines: [String]
    }

    let path: String
    var blocks: [CodeBlock] = []
    /// The lines outside code blocks, with their 1-based numbers.
    var prose: [(number: Int, text: String)] = []

    init(_ path: String) throws {
        self.path = path
        let text = try String(contentsOf: Docs.root.appendingPathComponent(path), encoding: .utf8)
        var open: (fence: Int, block: CodeBlock)?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.drop { $0 == " " }
            let ticks = trimmed.prefix { $0 == "`" }.count
            if var current = open {
                if ticks >= current.fence && trimmed.allSatisfy({ $0 == "`" }) {
                    blocks.append(current.block)
                    open = nil
                } else {
                    current.block.lines.append(String(line.dropFirst(line.count - trimmed.count)))
                    open = current
                }
            } else if ticks >= 3 {
                let language = trimmed.dropFirst(ticks).split(separator: " ").first.map(String.init) ?? ""
                open = (ticks, CodeBlock(language: language, firstLine: index + 2, lines: []))
            } else {
                prose.append((index + 1, line))
            }
        }
    }

    /// The GitHub anchors of the headings, a repeated one with `-1`, `-2`… after it.
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for (_, line) in prose {
            guard let match = line.wholeMatch(of: /#{1,6} +(.+?) *#* */) else { continue }
            let slug = Self.slug(String(match.1))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// GitHub's anchor for a heading: its text in lower case, links and code marks taken off, every
    /// character but letters, digits, `_`, `-` and spaces dropped, and each space a `-`.
    static func slug(_ heading: String) -> String {
        let text = heading.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.1) }.lowercased()
        var slug = ""
        for character in text {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }

    /// Each link's target, with its line: `[text](target)` and `![alt](target)`, outside code.
    var links: [(line: Int, target: String)] {
        prose.flatMap { number, text in
            text.replacing(/`+[^`]*`+/, with: "").matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/).map {
                (number, String($0.1))
            }
        }
    }
}

/// One command shown in a code block.
struct DocExample {
    var file: String
    var line: Int
    /// The machine its prompt names (`desk$ `), or nil for the reader's own.
    var machine: String?
    /// The command as the document writes it, without its prompt.
    var text: String
    /// Which block of the file it is in, for `export`.
    var block: Int

    var location: String { "\(file):\(line)" }

    /// The command for the shell: `swift run bookclub` is the built `bookclub`.
    var command: String {
        text.hasPrefix("swift run bookclub") ? String(text.dropFirst("swift run ".count)) : text
    }

    var isBookclub: Bool { command == "bookclub" || command.hasPrefix("bookclub ") }

    /// The exit status its comment gives (`# exit 1: no such book`), else 0.
    var expectedExit: Int32 {
        guard let comment = Shell.comment(of: text), let match = comment.firstMatch(of: /\bexit (\d+)\b/) else {
            return 0
        }
        return Int32(match.1)!
    }

    /// Every command of the documents' ```sh and ```console blocks, in document order.
    static func all(in documents: [MarkdownDocument]) -> [DocExample] {
        var examples: [DocExample] = []
        for document in documents {
            for (blockIndex, block) in document.blocks.enumerated() where ["sh", "console"].contains(block.language) {
                var index = 0
                while index < block.lines.count {
                    let line = block.lines[index]
                    var machine: String?
                    var text: String
                    if block.language == "console" {
                        guard let prompt = line.wholeMatch(of: /([A-Za-z][A-Za-z0-9_-]*)?\$ (.*)/) else {
                            index += 1
                            continue
                        }
                        machine = prompt.1.map(String.init)
                        text = String(prompt.2)
                    } else {
                        let trimmed = line.trimmingCharacters(in: .whitespaces)
                        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else {
                            index += 1
                            continue
                        }
                        text = trimmed
                    }
                    let first = index
                    while Shell.continues(text), index + 1 < block.lines.count {
                        index += 1
                        text += "\n" + block.lines[index]
                    }
                    examples.append(
                        DocExample(
                            file: document.path, line: block.firstLine + first, machine: machine,
                            text: text.trimmingCharacters(in: .whitespaces), block: blockIndex))
                    index += 1
                }
            }
        }
        return examples
    }
}

/// Just enough of the shell's grammar to find a command's end, its comment and its pipes.
enum Shell {
    /// Walks `text`, calling `visit` with each character outside quotes and its offset; stops at a
    /// comment. Returns whether a quote is still open, and where the comment starts.
    @discardableResult
    static func walk(_ text: String, _ visit: (Int, Character) -> Void = { _, _ in }) -> (
        openQuote: Bool, comment: String.Index?
    ) {
        var quote: Character?
        var escaped = false
        var previous: Character = " "
        var offset = 0
        for index in text.indices {
            let character = text[index]
            defer {
                previous = character
                offset += 1
            }
            if escaped {
                escaped = false
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                }
                continue
            }
            switch character {
            case "\\": escaped = true
            case "'", "\"": quote = character
            case "#" where previous == " " || previous == "\n" || index == text.startIndex:
                return (false, index)
            default: visit(offset, character)
            }
        }
        return (quote != nil, nil)
    }

    /// Whether the command goes on over the next line.
    static func continues(_ text: String) -> Bool {
        let (openQuote, comment) = walk(text)
        if openQuote { return true }
        let code = comment.map { String(text[..<$0]) } ?? text
        let end = code.trimmingCharacters(in: .whitespaces)
        return end.hasSuffix("\\") || end.hasSuffix("|") || end.hasSuffix("&&")
    }

    /// The comment at the end of a command, without its `#`.
    static func comment(of text: String) -> String? {
        walk(text).comment.map { String(text[text.index(after: $0)...]) }
    }

    /// The command's parts between pipes (`|` but not `||`), outside quotes and comments.
    static func pipeline(_ text: String) -> [String] {
        let characters = Array(text)
        var cuts: [Int] = []
        var end = characters.count
        let (_, comment) = walk(text) { offset, character in
            if character == "|" && characters[safe: offset + 1] != "|" && characters[safe: offset - 1] != "|" {
                cuts.append(offset)
            }
        }
        if let comment { end = text.distance(from: text.startIndex, to: comment) }
        var parts: [String] = []
        var start = 0
        for cut in cuts + [end] {
            parts.append(String(characters[start..<cut]).trimmingCharacters(in: .whitespacesAndNewlines))
            start = cut + 1
        }
        return parts
    }

    /// Whether `program` is found on PATH.
    static func isInstalled(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}

/// The homes the examples run in, the binary on their PATH, and Open Library on 127.0.0.1.
final class DocsSession {
    let scratch: String
    let bin: String
    let server: OpenLibraryServer
    var homes: [String: BookClubRunner] = [:]
    var prepared: Set<String> = []

    init() throws {
        scratch =
            FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-docs-\(UUID().uuidString)")
            .path
        bin = scratch + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/bookclub", withDestinationPath: BookClubRunner.executable.path)
        server = try OpenLibraryServer(folder: scratch)
        let reader = try home(nil)
        // The folder Syncthing (or a share) keeps the same on every machine.
        try FileManager.default.createDirectory(atPath: reader.home + "/Sync", withIntermediateDirectories: true)
    }

    func cleanUp() {
        for runner in homes.values { runner.cleanUp() }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// The home of a machine: the reader's (`laptop`) for nil.
    func home(_ machine: String?) throws -> BookClubRunner {
        let name = machine ?? "laptop"
        if let runner = homes[name] { return runner }
        var runner = try BookClubRunner()
        runner.environment["BOOKCLUB_OPENLIBRARY_URL"] = server.url
        runner.environment["BOOKCLUB_COVERS_URL"] = server.url
        runner.environment["PATH"] = bin + ":" + (runner.environment["PATH"] ?? "/usr/bin:/bin")
        if let reader = homes["laptop"] {
            try FileManager.default.createSymbolicLink(
                atPath: runner.home + "/Sync", withDestinationPath: reader.home + "/Sync")
        }
        homes[name] = runner
        return runner
    }

    /// Makes the input an example names, once per home.
    func prepare(_ input: String, in home: String) throws {
        guard prepared.insert(home + "\n" + input).inserted else { return }
        let files = FileManager.default
        func copy(_ shared: String, else own: String, to path: String) throws {
            let source =
                Docs.shared.map { $0.appendingPathComponent(shared).path }
                ?? Fixture.folder.appendingPathComponent(own).path
            try files.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try files.copyItem(atPath: source, toPath: path)
        }
        switch input {
        case "goodreads_library_export.csv":
            try copy("imports/goodreads-2024-24col.csv", else: "imports/goodreads-24.csv", to: home + "/" + input)
        case "storygraph_export.csv":
            try copy("imports/storygraph.csv", else: "imports/storygraph.csv", to: home + "/" + input)
        case "library.json":
            // A bookclub export of another library: a book with a reading and a note, and a club.
            let other = try BookClubRunner()
            defer { other.cleanUp() }
            for arguments in [
                ["add", "Kindred", "--author", "Octavia E. Butler", "--pages", "264"],
                ["progress", "kindred", "80", "--note", "the first journey"], ["club", "add", "Tuesday Readers"],
                ["export", "--output", home + "/library.json"],
            ] {
                let result = try other.run(arguments)
                #expect(result.exitCode == 0, "making library.json: \(arguments): \(result.stderr)")
            }
        case "/media/Kindle/documents/My Clippings.txt":
            let path = home + input
            if Docs.shared != nil {
                try copy("ereaders/kindle-2012-my-clippings.txt", else: "", to: path)
            } else {
                try files.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                let clippings =
                    "Dune (Frank Herbert)\r\n- Your Highlight on page 8 | location 120-121 | "
                    + "Added on Monday, 2 November 2026 21:10:00\r\n\r\nFear is the mind-killer.\r\n==========\r\n"
                try Data(clippings.utf8).write(to: URL(fileURLWithPath: path))
            }
        case "/media/KOBOeReader":
            let books = home + input + "/Books"
            try files.createDirectory(atPath: books, withIntermediateDirectories: true)
            if let shared = Docs.shared {
                let sidecars = shared.appendingPathComponent("ereaders/koreader-sidecars")
                for name in try files.contentsOfDirectory(atPath: sidecars.path) where name.hasSuffix(".lua") {
                    let book = books + "/" + name.replacingOccurrences(of: ".metadata.epub.lua", with: "") + ".sdr"
                    try files.createDirectory(atPath: book, withIntermediateDirectories: true)
                    try files.copyItem(
                        atPath: sidecars.appendingPathComponent(name).path, toPath: book + "/metadata.epub.lua")
                }
            } else {
                for name in try files.contentsOfDirectory(atPath: Fixture.folder.path + "/koreader/Books") {
                    try files.copyItem(
                        atPath: Fixture.folder.path + "/koreader/Books/" + name, toPath: books + "/" + name)
                }
            }
        default:
            Issue.record("no way to make the input \(input)")
        }
    }

    struct Outcome {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a command through bash in a home, with the block's exported variables.
    func run(_ script: String, in runner: BookClubRunner, variables: [String: String]) throws -> Outcome {
        let out = scratch + "/stdout"
        let err = scratch + "/stderr"
        for path in [out, err] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "120", "/bin/bash", "-o", "pipefail", "-c", script]
        process.environment = runner.environment.merging(variables) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: runner.home)
        process.standardInput = FileHandle.nullDevice
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        let read = { (path: String) in
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return Outcome(code: process.terminationStatus, stdout: read(out), stderr: read(err))
    }
}

@Suite(.serialized) struct DocsTests {
    let documents: [MarkdownDocument]

    init() throws {
        documents = try Docs.documents.map(MarkdownDocument.init)
    }

    /// Every Markdown file of docs/ is read here, so that none is left out of the checks.
    @Test func everyDocumentIsChecked() throws {
        let folder = Docs.root.appendingPathComponent("docs").path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".md") }
        for file in files.sorted() {
            #expect(Docs.documents.contains("docs/" + file), "docs/\(file) is not in DocsTests' documents")
        }
    }

    @Test func everyLinkAndAnchorLeadsSomewhere() throws {
        var anchors: [String: Set<String>] = [:]
        for document in documents { anchors[document.path] = document.anchors }
        var checked = 0
        for document in documents {
            for (line, target) in document.links where target.firstMatch(of: /^[a-zA-Z][a-zA-Z0-9+.-]*:/) == nil {
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let anchor = parts.count > 1 ? String(parts[1]) : nil
                let folder = (document.path as NSString).deletingLastPathComponent
                let root = Docs.root.standardized.path + "/"
                let path =
                    file.isEmpty
                    ? document.path
                    : URL(fileURLWithPath: root + (folder.isEmpty ? file : folder + "/" + file)).standardized.path
                        .replacingOccurrences(of: root, with: "")
                let here = "\(document.path):\(line): \(target)"
                guard FileManager.default.fileExists(atPath: Docs.root.appendingPathComponent(path).path) else {
                    Issue.record("\(here): no file \(path)")
                    continue
                }
                guard let anchor else { continue }
                let known = try anchors[path] ?? MarkdownDocument(path).anchors
                if !known.contains(anchor) { Issue.record("\(here): no heading in \(path) has the anchor #\(anchor)") }
            }
        }
        #expect(checked > 20, "the links were not found: \(checked)")
    }

    @Test func headingsHaveGitHubsAnchors() {
        #expect(MarkdownDocument.slug("jq over `--json`") == "jq-over---json")
        #expect(MarkdownDocument.slug("Editing `store.json` by hand") == "editing-storejson-by-hand")
        #expect(MarkdownDocument.slug("Naming books, dates and time") == "naming-books-dates-and-time")
        #expect(MarkdownDocument.slug("Set-up") == "set-up")
    }

    @Test func commandsAreReadAsTheShellReadsThem() {
        #expect(Shell.continues("bookclub export | jq -r '.books[] | select(.x)\n"))
        #expect(!Shell.continues("bookclub finish dune --note \"what an ending\"    # the talk's \"I'm Done\" toggle"))
        #expect(
            Shell.pipeline("bookclub list --json | jq -r '.[] | .title'   # a | b") == [
                "bookclub list --json", "jq -r '.[] | .title'",
            ])
        #expect(Shell.pipeline("bookclub list || true") == ["bookclub list || true"])
        #expect(Shell.comment(of: "bookclub progress x 1   # exit 1: no such book") == " exit 1: no such book")
        let example = DocExample(
            file: "", line: 1, machine: nil, text: "bookclub progress x 1   # exit 64: a usage error", block: 0)
        #expect(example.expectedExit == 64)
    }

    @Test func everyBookclubExampleRunsAsTheDocsSay() throws {
        let session = try DocsSession()
        defer { session.cleanUp() }
        let examples = DocExample.all(in: documents)
        let started = Date()
        var ran = 0
        var variables: [String: String] = [:]
        var block = (file: "", index: -1)

        for (example, reason) in Docs.unrunnable where !examples.contains(where: { $0.text == example }) {
            Issue.record("DocsTests.unrunnable names '\(example)' (\(reason)), which no document shows any more")
        }
        for input in Docs.inputs where !examples.contains(where: { $0.isBookclub && $0.text.contains(input) }) {
            Issue.record("DocsTests makes the input \(input), which no example reads any more")
        }

        for example in examples {
            if (example.file, example.block) != block {
                block = (example.file, example.block)
                variables = [:]
            }
            if let export = example.text.wholeMatch(of: /export ([A-Za-z_][A-Za-z0-9_]*)=(\S*)/) {
                variables[String(export.1)] = String(export.2)
                continue
            }
            if Docs.unrunnable.contains(where: { $0.example == example.text }) { continue }
            guard example.isBookclub || example.text.hasPrefix("mkdir ") else {
                if example.text.firstMatch(of: /(^|[;&|(]\s*)(swift run )?bookclub(\s|$)/) != nil {
                    Issue.record(
                        "\(example.location): '\(example.text)' calls bookclub but is not run: give it a line of its own"
                    )
                }
                continue
            }
            let runner = try session.home(example.machine)
            var script = example.command
            for input in Docs.inputs where script.contains(input) {
                try session.prepare(input, in: runner.home)
            }
            script = script.replacingOccurrences(of: "/media/", with: runner.home + "/media/")
            let parts = Shell.pipeline(script)
            if let missing = parts.dropFirst().compactMap({ $0.split(separator: " ").first.map(String.init) })
                .first(where: { !Shell.isInstalled($0) })
            {
                print("\(example.location): \(missing) is not installed: the bookclub side alone runs")
                script = parts[0]
            }
            let outcome = try session.run(script, in: runner, variables: variables)
            ran += 1
            #expect(
                outcome.code == example.expectedExit,
                """
                \(example.location): '\(example.text)' exited \(outcome.code), not \(example.expectedExit)
                stdout: \(outcome.stdout.suffix(600))
                stderr: \(outcome.stderr.suffix(600))
                """)
        }
        #expect(ran > 50, "the examples were not found: \(ran) ran")
        print("DocsTests: \(ran) examples ran in \(Int(Date().timeIntervalSince(started))) s")
    }
}
