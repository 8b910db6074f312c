import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Open Library on 127.0.0.1: `Fixtures/openlibrary/server.py` answers as openlibrary.org and its
/// cover server do, and logs every request, which the tests check (count, path, User-Agent, spacing).
final class OpenLibraryServer {
    struct Request: Decodable {
        var path: String
        var agent: String
        var time: Double
    }

    let process = Process()
    let log: String
    let url: String

    init(folder: String) throws {
        log = folder + "/requests.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let portFile = folder + "/server.port"
        process.arguments = ["python3", Fixture.folder.path + "/openlibrary/server.py", log, portFile]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // It writes the port it listens on once it listens.
        var port = ""
        for _ in 0..<500 where port.isEmpty {
            usleep(10_000)
            port =
                (try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines) ?? ""
        }
        url = "http://127.0.0.1:" + port
    }

    deinit {
        // SIGKILL: a test runner may hand its children SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var requests: [Request] {
        (FileManager.default.contents(atPath: log).map { String(decoding: $0, as: UTF8.self) } ?? "")
            .split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// The least time between two requests in a row, in seconds.
    var leastSpacing: Double {
        let times = requests.map(\.time).sorted()
        return zip(times, times.dropFirst()).map { $1 - $0 }.min() ?? .infinity
    }
}

@Suite(.serialized) struct OpenLibraryEndToEndTests {
    let bookclub: BookClubRunner
    let server: OpenLibraryServer

    init() throws {
        var runner = try BookClubRunner()
        server = try OpenLibraryServer(folder: runner.home)
        runner.environment["BOOKCLUB_OPENLIBRARY_URL"] = server.url
        runner.environment["BOOKCLUB_COVERS_URL"] = server.url
        bookclub = runner
    }

    var covers: String { bookclub.home + "/.cache/bookclub/covers" }

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func addByISBNFillsTheBookAndCachesItsCover() throws {
        defer { bookclub.cleanUp() }
        let added = try bookclub.run("add", "--isbn", "978-0-441-01359-3")
        #expect(added.exitCode == 0, "\(added.stderr)")
        #expect(added.stderr == "From Open Library: title, author, pages.\nAdded 'Dune' by Frank Herbert.\n")
        let book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(book["title"] as? String == "Dune")
        #expect(book["author"] as? String == "Frank Herbert")
        #expect(book["pages"] as? Int == 617)
        #expect(book["isbn"] as? String == "9780441013593")
        #expect(book["coverName"] as? String == "9780441013593.jpg")
        let cover = try #require(FileManager.default.contents(atPath: covers + "/9780441013593.jpg"))
        #expect(cover.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(files(in: covers) == ["9780441013593.jpg", "thumbnails"])
        // The thumbnail goes into the year's page, the cover itself never.
        let thumbnail = try #require(FileManager.default.contents(atPath: covers + "/thumbnails/9780441013593.jpg"))
        #expect(thumbnail != cover)

        // The redirect is a request of its own; each names bookclub and its version (no contact was
        // given, so none is made up), a second apart.
        let requests = server.requests
        #expect(
            requests.map(\.path) == [
                "/isbn/9780441013593.json", "/books/OL26242482M.json", "/authors/OL79034A.json", "/b/id/11481354-L.jpg",
                "/b/id/11481354-M.jpg",
            ])
        #expect(requests.allSatisfy { $0.agent == "bookclub/0.1.0" })
        #expect(server.leastSpacing >= 0.9)

        // The answer is kept: a look-up asks nothing more, and shows what came.
        let lookup = try bookclub.run("lookup", "0441013597")
        #expect(lookup.exitCode == 0)
        #expect(
            lookup.stdout == "Dune\nby Frank Herbert\n617 pages · 2005 · Ace Books\nISBN 0441013597 · has a cover\n")
        #expect(server.requests.count == 5)

        // In a pipe the cover is its path; on iTerm2's terminal, the image itself.
        let piped = try bookclub.run(["cover", "dune"], environment: ["TERM_PROGRAM": "iTerm.app"])
        #expect(piped.stdout == covers + "/9780441013593.jpg\n")
        let drawn = InProcess.run(
            ["cover", "dune"], home: bookclub.home, variables: ["TERM_PROGRAM": "iTerm.app"], onTerminal: true)
        #expect(drawn.code == 0)
        #expect(drawn.stdout.hasPrefix("\u{1B}]1337;File=name=" + Data("9780441013593.jpg".utf8).base64EncodedString()))
        #expect(drawn.stdout.hasSuffix(cover.base64EncodedString() + "\u{07}\n"))
        let plain = InProcess.run(["cover", "dune"], home: bookclub.home, onTerminal: true)
        #expect(plain.stdout == covers + "/9780441013593.jpg\n")
        let asked = InProcess.run(
            ["cover", "dune", "--path"], home: bookclub.home, variables: ["LC_TERMINAL": "iTerm2"], onTerminal: true)
        #expect(asked.stdout == covers + "/9780441013593.jpg\n")

        // The year's page shows the thumbnail, as a data: URI; --no-covers leaves it out.
        try bookclub.run("finish", "dune")
        let page = try bookclub.run("stats", "--html").stdout
        #expect(page.contains("src=\"data:image/jpeg;base64," + thumbnail.base64EncodedString() + "\""))
        #expect(!page.contains(cover.base64EncodedString()))
        #expect(!(try bookclub.run("stats", "--html", "--no-covers").stdout.contains("data:image")))
        #expect(server.requests.count == 5, "the page asks nothing")
    }

    @Test func withATitleOnlyWhatIsMissingIsFilledAndEditRefreshFillsLater() throws {
        defer { bookclub.cleanUp() }
        _ = try bookclub.add("My Dune", "--pages", "412")
        let refreshed = try bookclub.run("edit", "my dune", "--isbn", "9780441013593", "--refresh")
        #expect(refreshed.exitCode == 0, "\(refreshed.stderr)")
        #expect(refreshed.stderr.contains("From Open Library: author."))
        // A contact the reader gave goes with every request.
        try bookclub.run("settings", "set", "contact", "reader@example.org")
        #expect(try bookclub.run("edit", "my dune", "--refresh").exitCode == 0)
        #expect(server.requests.first?.agent == "bookclub/0.1.0")
        #expect(server.requests.last?.agent == "bookclub/0.1.0 (reader@example.org)")
        var book = try #require(try bookclub.json("show", "my dune", "--json") as? [String: Any])
        #expect(book["title"] as? String == "My Dune")
        #expect(book["pages"] as? Int == 412)
        #expect(book["author"] as? String == "Frank Herbert")
        #expect(book["coverName"] as? String == "9780441013593.jpg")

        let replaced = try bookclub.run("edit", "my dune", "--refresh", "--replace")
        #expect(replaced.exitCode == 0, "\(replaced.stderr)")
        book = try #require(try bookclub.json("show", "dune", "--json") as? [String: Any])
        #expect(book["title"] as? String == "Dune")
        #expect(book["pages"] as? Int == 617)

        // --refresh asks again rather than reading the cache.
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0 == "/isbn/9780441013593.json" }.count == 3)

        let noISBN = try bookclub.run("edit", "dune", "--isbn", "", "--refresh")
        #expect(noISBN.exitCode == 1)
        #expect(noISBN.stderr == "Error: 'Dune' has no ISBN to look up; give one with --isbn.\n")
        #expect(try bookclub.run("edit", "dune", "--replace").exitCode == 64)
    }

    @Test func updateArtworkOffMakesNoRequestAtAll() throws {
        defer { bookclub.cleanUp() }
        try bookclub.run("settings", "set", "updateArtwork", "false")
        let added = try bookclub.run("add", "Dune", "--isbn", "9780441013593")
        #expect(added.exitCode == 0)
        #expect(added.stderr == "Added 'Dune'.\n")
        for arguments in [
            ["add", "--isbn", "9780306406157"], ["lookup", "9780441013593"], ["cover", "dune"], ["covers"],
            ["edit", "dune", "--refresh"],
        ] {
            let result = try bookclub.run(arguments)
            #expect(result.exitCode == 69, "\(arguments)")
            #expect(result.stderr.contains("updateArtwork is off"), "\(arguments): \(result.stderr)")
        }
        #expect(server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: bookclub.home + "/.cache/bookclub"))
    }

    @Test func coversAfterAnImportOfFiftyBooksComeOneASecondAndResume() throws {
        defer { bookclub.cleanUp() }
        // Fifty books with ISBNs (made-up editions, each with a cover), one without.
        let isbns = (1...50).map { number -> String in
            let twelve = "978" + String(format: "%09d", number * 7919)
            let sum = twelve.enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 0 ? 1 : 3) }
            return twelve + String((10 - sum % 10) % 10)
        }
        let rows = isbns.enumerated().map { "Book \($0.offset),Some Author,=\"\($0.element)\",to-read" }
        let csv = (["Title,Author,ISBN13,Exclusive Shelf"] + rows + ["No ISBN,Someone,,to-read"])
            .joined(separator: "\n")
        try csv.write(toFile: bookclub.home + "/goodreads.csv", atomically: true, encoding: .utf8)
        let imported = try bookclub.run("import", "goodreads", "goodreads.csv")
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(server.requests.isEmpty)  // an import never waits on the network

        let first = try bookclub.run("covers", "--limit", "3")
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stderr == "3 covers linked; 47 to fetch: run `bookclub covers` again.\n")
        #expect(server.requests.count == 9)  // an edition, a cover and its thumbnail a book

        let second = try bookclub.run("covers", "--limit", "2")
        #expect(second.stderr == "2 covers linked; 45 to fetch: run `bookclub covers` again.\n")
        let paths = server.requests.map(\.path)
        #expect(paths.count == 15)
        #expect(Set(paths).count == 15)  // nothing asked twice
        #expect(server.leastSpacing >= 0.9)
        let books = try #require(try bookclub.json("list", "--all", "--json") as? [[String: Any]])
        #expect(books.compactMap { $0["coverName"] as? String }.count == 5)
        #expect(files(in: covers).count == 6)  // and the thumbnails' folder

        // Two bookclubs at once still take turns.
        let before = server.requests.count
        let one = try bookclub.start(["lookup", isbns[10]])
        let two = try bookclub.start(["lookup", isbns[11]])
        one.waitUntilExit()
        two.waitUntilExit()
        let times = server.requests.dropFirst(before).map(\.time).sorted()
        #expect(times.count == 2)
        #expect(times.count == 2 && times[1] - times[0] >= 0.9)
    }

    @Test func whatOpenLibraryGetsWrongIsReportedAndNothingHalfWrittenIsKept() throws {
        defer { bookclub.cleanUp() }
        let cases: [(isbn: String, code: Int32, message: String)] = [
            ("9780000000002", 1, "Error: Open Library does not know ISBN 9780000000002.\n"),
            ("9782222222224", 69, "Error: Open Library refused the request (HTTP 403)"),
            ("9783333333335", 69, "Error: Open Library sent an answer larger than 1 MB; the answer was not used.\n"),
            ("9784444444446", 69, "Error: Open Library's answer is not an edition as it sends them"),
            ("9786666666668", 69, "Error: Open Library sent a key that is not one of its own"),
        ]
        for item in cases {
            let result = try bookclub.run("lookup", item.isbn)
            #expect(result.exitCode == item.code, "\(item.isbn): \(result.stderr)")
            #expect(result.stderr.hasPrefix(item.message), "\(item.isbn): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // "Not found" is kept too: asked once.
        #expect(try bookclub.run("lookup", "9780000000002").exitCode == 1)
        #expect(server.requests.filter { $0.path == "/isbn/9780000000002.json" }.count == 1)
        #expect(try bookclub.run("lookup", "9780441013594").exitCode == 64)  // a wrong check digit

        // A title with a terminal escape is shown with it made visible; a cover that is not an
        // image is refused, and the book added all the same.
        let odd = try bookclub.run("add", "--isbn", "9785555555557")
        #expect(odd.exitCode == 0)
        #expect(odd.stderr.contains("The cover server sent something that is not a JPEG or PNG image"))
        #expect(odd.stderr.contains("Added 'Escape \\u{1B}]0;owned\\u{7}'."))
        #expect(!odd.stderr.contains("\u{1B}]0"))
        #expect(files(in: covers).isEmpty)
        #expect(files(in: bookclub.home + "/.cache/bookclub").allSatisfy { !$0.hasPrefix(".download") })

        // Too slow an answer is given up on.
        try bookclub.run("settings", "set", "networkTimeout", "1")
        let started = Date()
        let slow = try bookclub.run("lookup", "9781111111113")
        #expect(slow.exitCode == 69)
        #expect(slow.stderr == "Error: Open Library did not answer within the networkTimeout of 1 s.\n")
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func withoutCurlOrANetworkWhatIsTypedStillWorks() throws {
        defer { bookclub.cleanUp() }
        let noCurl = ["PATH": bookclub.home + "/empty"]
        let added = try bookclub.run(["add", "Dune", "--isbn", "9780441013593"], environment: noCurl)
        #expect(added.exitCode == 0)
        #expect(
            added.stderr
                == "Warning: Open Library, about ISBN 9780441013593: bookclub needs the curl program to reach Open Library; install curl.\nAdded 'Dune'.\n"
        )
        #expect(try bookclub.run(["lookup", "9780441013593"], environment: noCurl).exitCode == 69)
        let untitled = try bookclub.run(["add", "--isbn", "9780441013593"], environment: noCurl)
        #expect(untitled.exitCode == 69)
        let offline = try bookclub.run(
            ["covers"],
            environment: [
                "BOOKCLUB_COVERS_URL": BookClubRunner.nowhere, "BOOKCLUB_OPENLIBRARY_URL": BookClubRunner.nowhere,
            ])
        #expect(offline.exitCode == 69)
        #expect(offline.stderr == "Error: Cannot reach Open Library: the connection was refused (no network?).\n")
        #expect(try bookclub.run("list").exitCode == 0)
        #expect(server.requests.isEmpty)
    }
}
