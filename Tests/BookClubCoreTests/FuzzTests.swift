import Foundation
import Testing

@testable import BookClubCore
@testable import bookclub

/// Hostile input from a seeded generator: the argument parser, the store decoder and the settings
/// decoder, the CSV reader and the importers never crash, hang or trap; whatever they accept renders.
/// `swift test` runs 20,000 inputs a target and CI 10,000;
/// `BOOKCLUB_FUZZ_COUNT=1000000 swift test -c release -Xswiftc -enable-testing --filter FuzzTests`
/// runs a million (`BOOKCLUB_FUZZ_SEED` picks another sequence).
@Suite struct FuzzTests {
    static var count: Int { ProcessInfo.processInfo.environment["BOOKCLUB_FUZZ_COUNT"].flatMap(Int.init) ?? 20_000 }
    static var seed: UInt64 { ProcessInfo.processInfo.environment["BOOKCLUB_FUZZ_SEED"].flatMap(UInt64.init) ?? 2026 }

    static let hostile = [
        "", " ", "--", "-", "-x", "--=", "=", "99999999999999999999", "-99999999999999999999", "1e308", "nan", "NaN%",
        "inf", "+inf", "-0", "+", "%", "100.0000001%", "0x10", "١٢٣", "9223372036854775807", "+9223372036854775807",
        "\u{1B}[31m", "\u{0}", "\n", "\t", "\u{7F}", "\u{202E}", "🦄", "é\u{301}", "0000-01-01", "9999-12-31T23:59",
        "2026-02-30", "yesterday", "thursday 25:61", "today 19:00", "'; rm -rf /", String(repeating: "a", count: 5_000),
    ]

    static func token(_ random: inout SeededGenerator, words: [String]) -> String {
        switch random.next() % 4 {
        case 0: return words.randomElement(using: &random)!
        case 1: return hostile.randomElement(using: &random)!
        case 2:
            return "--" + words.randomElement(using: &random)!
                + (Bool.random(using: &random) ? "=" + hostile.randomElement(using: &random)! : "")
        default:
            let scalars = (0..<Int(random.next() % 12)).compactMap { _ in Unicode.Scalar(UInt32(random.next() % 0x2FF))
            }
            return String(String.UnicodeScalarView(scalars))
        }
    }

    @Test func theArgumentParserTakesAnything() throws {
        var random = SeededGenerator(state: Self.seed)
        let root = CLI.root
        let words =
            CLI.commands.flatMap { $0.path.split(separator: " ").map(String.init) }
            + CLI.commands.flatMap { $0.type.configuration.options.map(\.long) } + [
                "help", "settings", "club", "-h", "--version",
            ]
        var outcomes = [String: Int]()
        for _ in 0..<Self.count {
            let arguments = (0..<Int(random.next() % 8)).map { _ in Self.token(&random, words: words) }
            let outcome = CommandParser.parse(arguments, root: root, environment: [:])
            switch outcome {
            case .run(let path, let parsed):
                let names = path.dropFirst().map(\.name).joined(separator: " ")
                if let type = CLI.commands.first(where: { $0.path == names })?.type {
                    do {
                        _ = try type.init(parsed)
                        outcomes["run", default: 0] += 1
                    } catch is ParseError {
                        outcomes["refused", default: 0] += 1
                    }
                }
            case .failure(let error, let path):
                #expect(UsageGenerator.errorReport(error, path: path).hasPrefix("Error: "))
                outcomes["failure", default: 0] += 1
            case .help(let path):
                #expect(!HelpGenerator.render(path: path, width: 80).isEmpty)
                outcomes["help", default: 0] += 1
            case .version, .completionScript:
                outcomes["other", default: 0] += 1
            }
        }
        print("fuzz parser: \(Self.count) inputs, seed \(Self.seed): \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["run", default: 0] > 0 && outcomes["failure", default: 0] > 0)
    }

    static let validStore = """
        {"schemaVersion": 2, "historyLength": 0, "clubs": [{"id": "c1", "name": "Sci-Fi", "meetings": [{"id": "m1", "date": "2026-12-03T19:00:00Z", "bookID": "b1", "target": {"page": 250, "label": "ch. 1-12"}}]}],
         "books": [{"id": "b1", "title": "Dune", "author": "Frank Herbert", "pages": 412, "tags": ["sf"], "added": "2026-11-01T10:00:00Z",
           "readings": [{"id": "A927048D-5152-4AFA-A50C-3EB6FB0B2191", "started": "2026-11-01T10:00:00Z",
             "ending": {"outcome": "finished", "date": "2026-11-20T10:00:00Z", "note": "done"},
             "latest": {"id": "331A4423-874C-4398-81F7-4A6CFEDDCB11", "page": 150, "progress": 0.36, "time": "2026-11-10T10:00:00Z", "note": "the spice"}}]}]}
        """

    static let snippets = [
        "null", "-1", "1e999", "-1e999", "0.5", "18446744073709551616", "\"\"", "\"\\u0000\"", "\"\\u001b[2J\"", "[]",
        "{}", "true",
        "\"9999-99-99T99:99:99Z\"", "\"0001-01-01T00:00:00Z\"", String(repeating: "[", count: 2_000), "\"\\ud800\"",
        ",", "}", "\"", "\"\\b\\f\u{7F}\\u2028/\"", "100.0", "1e-07",
    ]

    /// A valid document, mutated: bytes flipped, cut, or a value replaced by a hostile one.
    static func mutate(_ text: String, _ random: inout SeededGenerator, snippets: [String] = snippets) -> Data {
        var bytes = Array(text.utf8)
        for _ in 0..<(1 + Int(random.next() % 3)) {
            guard !bytes.isEmpty else { break }
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 5 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.removeSubrange(at...)
            case 2: bytes.insert(contentsOf: Array(snippets.randomElement(using: &random)!.utf8), at: at)
            case 3:
                // Replace the value after a colon with a hostile one.
                if let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")), colon + 1 < bytes.count {
                    let end =
                        bytes[(colon + 1)...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") }
                        ?? bytes.count
                    bytes.replaceSubrange((colon + 1)..<end, with: Array(snippets.randomElement(using: &random)!.utf8))
                }
            default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            }
        }
        return Data(bytes)
    }

    @Test func theStoreDecoderRefusesOrAcceptsAndWhatItAcceptsRenders() throws {
        var random = SeededGenerator(state: Self.seed &+ 1)
        var accepted = 0
        let path = "/fuzz/store.json"
        for _ in 0..<Self.count {
            let storage = LibraryStorage(
                path: path, fileSystem: .inMemory([path: Self.mutate(Self.validStore, &random)]))
            do {
                // With the histories (none here), as the reports read them.
                let library = try Store(
                    persistence: storage.persistence(lockTimeout: nil, scope: .everything.withHistory)
                )
                .state
                accepted += 1
                BookTable.render(
                    library.books.map(BookRow.init), width: 80, style: Style(isEnabled: true), timeZone: Fixture.utc,
                    emit: { _ in })
                _ = try library.books.map { try NotesReport.markdown(for: $0, timeZone: Fixture.utc) }
                _ = try Agenda.items(in: library, now: Fixture.now, days: 3650)
                _ = library.clubs.map { ICalendar.render(club: $0, books: library, now: Fixture.now) }
            } catch let error as BookClubError {
                #expect(error.kind == .dataFile, "\(error)")
            }
        }
        print("fuzz store decoder: \(Self.count) inputs, seed \(Self.seed), \(accepted) accepted")
        #expect(accepted > 0)
    }

    /// A history line as `JSONDecoder` reads it, to hold the history reader's shortcut to.
    struct DecodedHistoryLine: Decodable, Equatable {
        var book: String
        var reading: UUID
        var entry: ReadingProgress.Entry
    }

    @Test func historyLinesReadAsTheDecoderReadsThem() throws {
        var random = SeededGenerator(state: Self.seed &+ 5)
        let reading = "A927048D-5152-4AFA-A50C-3EB6FB0B2191"
        let lines = [
            #"{"book":"b1","entry":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11","note":"the spice","page":150,"progress":0.36407766990291263,"time":"2026-11-10T10:00:00Z"},"reading":"\#(reading)"}"#,
            #"{"book":"b1","entry":{"id":"331a4423-874c-4398-81f7-4a6cfeddcb12","progress":1e-05,"time":"1870-02-28T23:59:59Z"},"reading":"\#(reading)"}"#,
            #"{"book":"b1","entry":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB13","note":"é \"quoted\"\n","page":0,"progress":1,"time":"2024-02-29T00:00:00Z"},"reading":"\#(reading)"}"#,
        ]
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let path = "/fuzz/store.json"
        var accepted = 0
        for _ in 0..<Self.count {
            let line = Data(Self.mutate(lines.randomElement(using: &random)!, &random).map { $0 == 0x0A ? 0x20 : $0 })
            let history = line + Data([0x0A])
            let state = Data(#"{"schemaVersion": 2, "historyLength": \#(history.count), "books": []}"#.utf8)
            let storage = LibraryStorage(path: path, fileSystem: .inMemory([path: state, path + ".history": history]))
            let read = try? storage.history(of: nil)
            // An entry out of bounds (a fraction past 1, a negative page) is refused, however it is read.
            let inBounds = { (entry: ReadingProgress.Entry) in
                entry.progress.isFinite && (0...1).contains(entry.progress)
                    && (entry.page.map { (0...100_000).contains($0) } ?? true)
            }
            if let expected = try? decoder.decode(DecodedHistoryLine.self, from: line), inBounds(expected.entry) {
                #expect(read == [expected.reading: [expected.entry]], "\(String(decoding: line, as: UTF8.self))")
                // Written again by hand, as a save writes it, it reads back the same (a save writes whole
                // seconds, as JSONEncoder's .iso8601 does).
                if expected.entry.time == expected.entry.time.wholeSeconds {
                    var writer = JSONWriter(compact: true)
                    writer.historyLine(book: "b1", reading: expected.reading, entry: expected.entry, previous: 42)
                    let written = writer.take()
                    let again = try? decoder.decode(DecodedHistoryLine.self, from: written.dropLast())
                    #expect(again?.entry == expected.entry, "\(String(decoding: written, as: UTF8.self))")
                    #expect(again?.reading == expected.reading)
                    // And the reader of lines as bookclub lays them out reads it, front to back, at a
                    // time from 1583 to 9999 (any other is left to the decoder).
                    let inOrder = written.dropLast().withUnsafeBytes { HistoryLine.written($0, ofBook: "b1") }
                    let isFourDigitGregorian = (-12_212_553_600..<253_402_300_800).contains(
                        expected.entry.time.timeIntervalSince1970)
                    #expect(
                        inOrder == nil && !isFourDigitGregorian
                            || inOrder?.entry == expected.entry && inOrder?.previous == 42,
                        "\(String(decoding: written, as: UTF8.self))")
                }
                accepted += 1
            } else {
                #expect(read == nil || (line.isEmpty && read == [:]), "\(String(decoding: line, as: UTF8.self))")
            }
        }
        print("fuzz history lines: \(Self.count) inputs, seed \(Self.seed), \(accepted) accepted")
        #expect(accepted > 0)
    }

    @Test func numbersReadAsStrtodReadsThem() {
        var random = SeededGenerator(state: Self.seed &+ 6)
        let fixed = [
            "0", "-0", "1", "0.5", "0.0001", "1e-05", "1E+22", "9e-22", "123456789012345", "0.1234567890123456",
        ]
        var shortOnes = 0
        for index in 0..<Self.count {
            var text = fixed.indices.contains(index) ? fixed[index] : ""
            if text.isEmpty {
                let digits = (0..<Int(1 + random.next() % 19)).map { _ in String(random.next() % 10) }.joined()
                let whole = digits.count > 1 && digits.first == "0" ? "0" : digits
                let point = Int(random.next() % UInt64(whole.count + 1))
                text = random.next() % 2 == 0 ? "-" : ""
                text += point == 0 || point == whole.count ? whole : whole.prefix(point) + "." + whole.dropFirst(point)
                if random.next() % 3 == 0 {
                    text += "e" + ["", "+", "-"].randomElement(using: &random)! + String(random.next() % 40)
                }
            }
            var value: Double?
            let read = Array(text.utf8).withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes: bytes)
                return scanner.read(&value) && scanner.atEnd
            }
            let expected = Double(text)
            #expect(read == (expected?.isFinite == true), "\(text)")
            if read { #expect(value?.bitPattern == expected?.bitPattern, "\(text)") }
            if text.count < 12 { shortOnes += 1 }
        }
        #expect(shortOnes > 0)
    }

    @Test func theSettingsDecoderRefusesOrAccepts() throws {
        var random = SeededGenerator(state: Self.seed &+ 2)
        let path = "/fuzz/settings.json"
        let valid =
            #"{"schemaVersion": 1, "color": "never", "lockTimeout": 2.5, "syncProgress": false, "updateArtwork": true}"#
        var accepted = 0
        for _ in 0..<Self.count {
            let files = FileSystem.inMemory([path: Self.mutate(valid, &random)])
            do {
                let settings = try Store(persistence: Settings.persistence(path: path, fileSystem: files)).state
                #expect(settings.lockTimeout.isFinite && settings.lockTimeout >= 0)
                accepted += 1
            } catch let error as BookClubError {
                #expect(error.kind == .dataFile, "\(error)")
            }
        }
        print("fuzz settings decoder: \(Self.count) inputs, seed \(Self.seed), \(accepted) accepted")
        #expect(accepted > 0)
    }

    /// The settings file's scanner says what the decoder says, or leaves the file to it: over the
    /// files bookclub writes (every key set, one at a time and all at once, each of which it must
    /// read) and the same files mutated (other spacing, keys twice, unknown keys, values of other
    /// types or out of bounds, a newer schema, cut short).
    @Test func theSettingsScannerReadsAsTheDecoder() throws {
        var random = SeededGenerator(state: Self.seed &+ 21)
        let path = "/fuzz/settings.json"
        func decoded(_ data: Data) -> Settings? {
            guard let header = try? JSONCoding.decode(SchemaHeader.self, from: data, path: path),
                (header.schemaVersion ?? 0) <= Settings.schemaVersion
            else { return nil }
            return try? JSONCoding.decode(Settings.self, from: data, path: path)
        }
        let values = [
            "updateArtwork": "false", "syncProgress": "false", "syncFolder": "/Users/あや/Dropbox/本 📚",
            "color": "Always", "lockTimeout": "2.5", "hookTimeout": "3600", "yearlyGoal": "24",
            "contact": #"me@example.com "quoted" \ back"#, "networkTimeout": "0.001", "coverSizeLimit": "100000",
            "answerSizeLimit": "0", "clubProgress": "target", "clubKey": "~/.ssh/id_ed25519",
        ]
        var every = Settings()
        var written: [String] = []
        for key in Settings.keys {
            var one = Settings()
            let value = try #require(values[key.name], "\(key.name) has a value to try")
            try key.set(&one, value)
            try key.set(&every, value)
            written.append(String(decoding: try JSONCoding.encoder().encode(one), as: UTF8.self) + "\n")
        }
        written.append(String(decoding: try JSONCoding.encoder().encode(every), as: UTF8.self) + "\n")
        written.append(String(decoding: try JSONCoding.encoder().encode(Settings()), as: UTF8.self) + "\n")
        for text in written {
            let scanned = Settings.scan(Data(text.utf8))
            #expect(scanned != nil, "\(text)")
            #expect(scanned == decoded(Data(text.utf8)), "\(text)")
        }
        #expect(Settings.scan(Data(written[written.count - 2].utf8)) == every)
        let snippets =
            Self.snippets + [
                #","yearlyGoal":7"#, #","color":"never""#, "null", "100001", "-1", "1e3", "true", #""2""#,
                #","schemaVersion":2"#, #","unknown":1"#, "\\u0041", " ", "\n", "\t", "\r", "\u{FEFF}",
                #","\u0063olor":"never""#, #","yearly\u0047oal":3"#,
            ]
        var scannedCount = 0
        for _ in 0..<Self.count {
            let data = Self.mutate(written.randomElement(using: &random)!, &random, snippets: snippets)
            guard let scanned = Settings.scan(data) else { continue }
            scannedCount += 1
            #expect(scanned == decoded(data), "\(String(decoding: data, as: UTF8.self))")
        }
        print("fuzz settings scanner: \(Self.count) inputs, seed \(Self.seed), \(scannedCount) read by the scanner")
        #expect(scannedCount > 0)
    }

    static let historyLines = [
        #"{"book":"b2","entry":{"id":"4C3E6153-86D4-8700-8267-489A94C82D76","minutes":3,"progress":0.041,"time":"2025-02-15T12:00:00Z"},"previous":12,"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191"}"#,
        #"{"book":"b1","entry":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11","note":"the spice","page":150,"progress":0.36,"time":"2026-11-10T10:00:00Z"},"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191"}"#,
        #"{"book":"0123abcd","entry":{"id":"331a4423-874c-4398-81f7-4a6cfeddcb11","progress":1,"time":"1969-12-31T23:59:59Z"},"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191"}"#,
        #"{"book":"b1","entry":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11","note":"a \\"quote\\" and é","progress":1e-07,"time":"2000-02-29T23:59:59Z"},"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191"}"#,
        #"{"book":"b1","entry":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11","listened":60,"minutes":45,"note":"ノルウェイの森","page":7,"progress":0.5,"time":"2026-11-10T10:00:00Z"},"previous":0,"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191"}"#,
        // Keys in another order than bookclub writes them.
        #"{"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191","previous":3,"entry":{"time":"2026-11-10T10:00:00Z","progress":0.5,"page":7,"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11"},"book":"b1"}"#,
        // Keys written with escapes: the fast reader must not take them for others, or miss them.
        #"{"b\u006Fok":"b1","entry":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11","p\u0061ge":3,"progress":0.5,"time":"2026-11-10T10:00:00Z"},"previous":-1,"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191"}"#,
        #"{"book":"b1","entry":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11","page\"":3,"progress":0.5,"time":"2026-11-10T10:00:00Z"},"previous":812,"reading":"A927048D-5152-4AFA-A50C-3EB6FB0B2191"}"#,
    ]

    /// The fast history reader against Foundation's decoder: whatever the fast one reads, the decoder
    /// reads the same; it may decline a line, never misread one.
    @Test func theFastHistoryReaderNeverDisagreesWithTheDecoder() throws {
        var random = SeededGenerator(state: Self.seed &+ 3)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var fast = 0
        for _ in 0..<Self.count {
            let line = Self.mutate(Self.historyLines.randomElement(using: &random)!, &random)
            guard let record = line.withUnsafeBytes({ HistoryLine.record($0) }) else { continue }
            fast += 1
            // Read with the book's id compared in place, or with another's, the line reads the same.
            for book in ["b1", "b2", record.book] {
                let ofBook = line.withUnsafeBytes { HistoryLine.record($0, ofBook: book) }
                #expect(
                    ofBook?.book == record.book && ofBook?.reading == record.reading && ofBook?.entry == record.entry
                        && ofBook?.previous == record.previous,
                    "\(String(decoding: line, as: UTF8.self))")
            }
            guard let decoded = try? decoder.decode(HistoryRecord.self, from: line) else {
                Issue.record("only the fast reader read: \(String(decoding: line, as: UTF8.self)) \(Array(line))")
                continue
            }
            #expect(
                decoded.book == record.book && decoded.reading == record.reading && decoded.previous == record.previous,
                "\(String(decoding: line, as: UTF8.self))")
            #expect(decoded.entry == record.entry, "\(String(decoding: line, as: UTF8.self))")
        }
        print("fuzz history lines: \(Self.count) inputs, seed \(Self.seed), \(fast) read by the fast reader")
        #expect(fast > 0)
    }

    static let bookLines = [
        #"{"added":"2026-11-01T10:00:00Z","author":"Frank Herbert","id":"aaaa1111","pages":412,"readings":[{"id":"A927048D-5152-4AFA-A50C-3EB6FB0B2191","latest":{"id":"331A4423-874C-4398-81F7-4A6CFEDDCB11","note":"a \"quote\", {braces} and [brackets]","page":150,"progress":0.36,"time":"2026-11-10T19:00:00Z"},"started":"2026-11-02T19:00:00Z"}],"tags":["sf"],"title":"Dune"}"#,
        #"{"added":"2026-11-01T10:00:00Z","id":"bbbb2222","readings":[],"tags":[],"title":"Tab\there \u00e9 \\ \/ 📚"}"#,
        #"{ "title" : "Kindred", "id" : "cccc3333", "added" : "2026-11-01T10:00:00Z", "tags" : [ ], "readings" : [ ] }"#,
    ]

    /// The store's reader of whole books against Foundation's: whatever the fast one reads, the
    /// decoder reads the same; anything else is left to the decoder.
    @Test func theBookReaderNeverDisagreesWithTheDecoder() throws {
        var random = SeededGenerator(state: Self.seed &+ 8)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let lines =
            Self.bookLines + [
                #"{"added":"2026-11-01T10:00:00Z","contributors":[{"name":"Ann","role":"Translator"},{"name":"Bo"}],"details":{"goodreads:Book Id":["12"],"x":[],"storygraph:Moods":["dark \"tense\"","ノルウェイ"],"é":["a\u00e9"]},"id":"dddd4444","isbn":"9780441013593","rating":4.5,"readings":[{"ending":{"date":"2026-11-20T10:00:00Z","note":"done\n\"really\"","outcome":"finished","rating":4},"id":"A927048D-5152-4AFA-A50C-3EB6FB0B2192","resumed":[{"outcome":"abandoned"}],"started":"2026-11-02T19:00:00Z"}],"review":"\ud83d\udcda good","tags":["sf","ノルウェイ"],"title":"كتب"}"#,
                #"{"added":"2026-11-01T10:00:00Z","id":"eeee5555","readings":[{"highlights":[{"chapter":"Book One","id":"kindle-1a2b","location":"1300-1301","note":"for Tuesday","page":112,"source":"kindle","text":"The \"spice\" 🐛 ノルウェイ","time":"2026-11-03T19:00:00Z"},{"id":"B927048D-5152-4AFA-A50C-3EB6FB0B2191","source":"typed","text":"مرحبا"}],"id":"A927048D-5152-4AFA-A50C-3EB6FB0B2193","started":"2026-11-02T19:00:00Z"}],"tags":[],"title":"Dune"}"#,
            ]
        var (fast, listed) = (0, 0)
        for _ in 0..<Self.count {
            let line = Self.mutate(lines.randomElement(using: &random)!, &random)
            // Read for a listing, its details passed over, a book reads the same but for them, and
            // only where the decoder reads it.
            if let light = StoredBook(scanning: line, leavingDetails: true) {
                listed += 1
                var decoded = try? decoder.decode(StoredBook.self, from: line)
                decoded?.details = nil
                #expect(light == decoded, "\(String(decoding: line, as: UTF8.self))")
            }
            guard let read = StoredBook(scanning: line) else { continue }
            fast += 1
            #expect(
                read == (try? decoder.decode(StoredBook.self, from: line)), "\(String(decoding: line, as: UTF8.self))")
            // Written again as a save writes it, both readers read it back the same.
            let written = LibraryFiles.line(for: read)
            #expect(
                try StoredBook.decode(written, path: "/fuzz") == read, "\(String(decoding: written, as: UTF8.self))")
            #expect((try? decoder.decode(StoredBook.self, from: written)) == read)
            // And in a snapshot, byte for byte as JSONEncoder writes it.
            let document = LibraryFiles.Document(
                books: [read], clubs: [], generation: "g", previousGeneration: "", historyLength: 0, schemaVersion: 3,
                state: "s")
            let expected = try JSONCoding.encoder().encode(document) + Data("\n".utf8)
            let snapshot = try LibraryFiles.snapshot(document)
            let at =
                zip(snapshot, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(snapshot.count, expected.count)
            #expect(
                snapshot == expected,
                "at \(at): \(String(decoding: expected.dropFirst(max(0, at - 30)).prefix(60), as: UTF8.self).debugDescription) written \(String(decoding: snapshot.dropFirst(max(0, at - 30)).prefix(60), as: UTF8.self).debugDescription)"
            )
        }
        for line in lines { #expect(StoredBook(scanning: Data(line.utf8)) != nil, "\(line)") }
        print(
            "fuzz stored books: \(Self.count) inputs, seed \(Self.seed), \(fast) read by the fast reader, \(listed) for a listing"
        )
        #expect(fast > 0 && listed >= fast)
    }

    /// The readers of the snapshot's header and the journal's commit lines against Foundation's:
    /// whatever the fast ones read, the decoder reads the same.
    @Test func theHeaderAndCommitReadersNeverDisagreeWithTheDecoder() throws {
        var random = SeededGenerator(state: Self.seed &+ 9)
        let headers = [
            #"{"clubs" : [\#n\#n  ],\#n  "generation" : "9f0c", "historyLength" : 1234,\#n  "previousGeneration" : "",\#n  "schemaVersion" : 3,\#n  "state" : "5e1a"\#n}"#,
            #"{"clubs":[{"name":"Tuesday","meetings":[{"date":"2026-11-20T19:00:00Z","x":[true,false,null,1.5e3]}]}],"historyLength":0,"schemaVersion":2}"#,
        ]
        let commits = [
            #"{"commit":{"historyLength":1234,"state":"5e1a","undoLength":88},"length":512,"crc":"0a1b2c3d"}"#,
            #"{"commit":{"historyLength":0,"state":"ノルウェイ\u00e9"},"crc":"00000000"}"#,
        ]
        var fast = 0
        for _ in 0..<Self.count {
            let header = Self.mutate(headers.randomElement(using: &random)!, &random)
            if let read = LibraryFiles.Header.scan(header) {
                fast += 1
                #expect(
                    read == (try? JSONDecoder().decode(LibraryFiles.Header.self, from: header)),
                    "\(String(decoding: header, as: UTF8.self))")
            }
            let commit = Self.mutate(commits.randomElement(using: &random)!, &random)
            if let read = LibraryFiles.CommitLine.scan(commit) {
                fast += 1
                #expect(
                    read == (try? JSONDecoder().decode(LibraryFiles.CommitLine.self, from: commit)),
                    "\(String(decoding: commit, as: UTF8.self))")
            }
        }
        for text in headers { #expect(LibraryFiles.Header.scan(Data(text.utf8)) != nil, "\(text)") }
        for text in commits { #expect(LibraryFiles.CommitLine.scan(Data(text.utf8)) != nil, "\(text)") }
        print(
            "fuzz headers and commit lines: \(Self.count) inputs each, seed \(Self.seed), \(fast) read by the fast readers"
        )
        #expect(fast > 0)
    }

    /// The store's reader of ids and titles against Foundation's: whatever the fast one reads from a
    /// line the decoder takes for an object, the decoder reads the same.
    @Test func theBookLineReaderNeverDisagreesWithTheDecoder() throws {
        var random = SeededGenerator(state: Self.seed &+ 7)
        var fast = 0
        for _ in 0..<Self.count {
            let line = Self.mutate(Self.bookLines.randomElement(using: &random)!, &random)
            for key in ["id", "title"] {
                let read = line.withUnsafeBytes {
                    key == "id" ? JSONLine.string("id", in: $0) : JSONLine.string("title", in: $0)
                }
                guard let read, let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else {
                    continue
                }
                fast += 1
                #expect(object[key] as? String == read, "\(key) of \(String(decoding: line, as: UTF8.self))")
            }
        }
        print("fuzz book lines: \(Self.count) inputs, seed \(Self.seed), \(fast) values read by the fast reader")
        #expect(fast > 0)
    }

    /// `log --stdin` lines: an event or a problem, never a trap.
    @Test func batchLinesAreEventsOrProblems() {
        var random = SeededGenerator(state: Self.seed &+ 4)
        let valid =
            #"{"book": "dune", "page": 120, "note": "the spice", "time": "2026-11-17T19:00:00Z", "action": "finish"}"#
        var accepted = 0
        for _ in 0..<Self.count {
            let line = String(decoding: Self.mutate(valid, &random), as: UTF8.self)
            if (try? ReadingEvent(line: line, now: Fixture.now, timeZone: Fixture.utc)) != nil { accepted += 1 }
            // What the fast scanner reads, Foundation's decoder reads the same.
            if let scanned = ReadingEvent.Fields(scanning: line) {
                #expect(
                    scanned == (try? JSONDecoder().decode(ReadingEvent.Fields.self, from: Data(line.utf8))), "\(line)")
            }
        }
        print("fuzz batch lines: \(Self.count) inputs, seed \(Self.seed), \(accepted) accepted")
        #expect(accepted > 0)
    }

    static let csvSnippets = [
        "\"", "\"\"", ",", "\r\n", "\n", "\r", "=\"\"", "=\"0140236666\"", "\u{FEFF}", "\u{0}", "\u{1B}[2J",
        "2024/02/30", "0000/01/01",
        "2024/1/1-", "-", "-1", "99999999999999999999", "nan", "inf", "4.25", "1e308", "read", "dnf", "did-not-finish",
        "currently-reading", "paused", "B07MNWKF2M", "é\u{301}", "🦄", String(repeating: ",", count: 40),
    ]

    @Test func theCSVReaderAndTheImportersRefuseOrAcceptAndWhatTheyAcceptMerges() throws {
        var random = SeededGenerator(state: Self.seed &+ 3)
        let exports: [(String, ImportFormat)] = [
            (try String(decoding: Fixture.export("goodreads-23.csv"), as: UTF8.self), .goodreads),
            (try String(decoding: Fixture.export("storygraph.csv"), as: UTF8.self), .storygraph),
            (String(decoding: try LibraryExport(ImportMergeTests.exportedLibrary).encoded(), as: UTF8.self), .json),
        ]
        var outcomes = [String: Int]()
        for _ in 0..<Self.count {
            let (text, format) = exports.randomElement(using: &random)!
            let data = Self.mutate(text, &random, snippets: format == .json ? Self.snippets : Self.csvSnippets)
            do {
                let file = try Fixture.importFile(data, format, path: "fuzz")
                var library = Fixture.shelf
                let result = library.merge(file)
                #expect(result.added.count + result.merged.count == file.items.count)
                // What an import adds is a library the store accepts, and it renders.
                _ = try LibraryExport.decode(try LibraryExport(library).encoded(), path: "fuzz")
                BookTable.render(
                    library.books.map(BookRow.init), width: 80, style: Style(isEnabled: true), timeZone: Fixture.utc,
                    emit: { _ in })
                _ = ImportText.plan(result) + [ImportText.summary(result, dryRun: false)]
                outcomes["accepted", default: 0] += 1
            } catch let error as BookClubError {
                #expect(error.kind == .dataFile, "\(error)")
                outcomes["refused", default: 0] += 1
            }
        }
        print("fuzz importers: \(Self.count) inputs, seed \(Self.seed): \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["accepted", default: 0] > 0 && outcomes["refused", default: 0] > 0)
    }

    @Test func theImportsSearchesOfBytesAgreeWithCharacters() {
        // Titles and shelves as imports meet them, ASCII or not, with every kind of white space.
        let pieces = [
            "a", "Dune", "ISBN", "isbn13", "e-book", "Hardcover", " ", "  ", "\t", "\n", "\r\n", "\r", "\u{0B}",
            "\u{0C}", "\u{85}", "\u{A0}", "é", "e\u{301}", "ノルウェイの森", "🦄", "كتاب", "İ", "K", "\u{212A}",
        ]
        var random = SeededGenerator(state: Self.seed &+ 21)
        for _ in 0..<Self.count {
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            for word in ["isbn", "e-book", "dune", "print", "a"] {
                // The standard library's search by characters, which the importers used (not Foundation's).
                #expect(
                    text.lowercased().contains(word: word) == (text.lowercased().firstRange(of: word) != nil), "\(text)"
                )
            }
            let book = Book(id: "x", title: text, author: text.isEmpty ? nil : text, added: Fixture.now)
            let expected = [text, text].map {
                $0.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            #expect(BookMatcher.titleKey(book) == expected[0] + "\n" + (text.isEmpty ? "" : expected[1]), "\(text)")
        }
    }

    @Test func theSearchesOfBytesFindWhatANaiveSearchFinds() {
        // Bytes as a snapshot holds them: hex, digits, tabs, line breaks, letters, UTF-8.
        let alphabet = Array("0123456789abcdef\t\n \"kozé".utf8) + Array("ノ".utf8)
        var random = SeededGenerator(state: Self.seed &+ 22)
        for _ in 0..<Self.count {
            let text = (0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            var needle = (0..<Int.random(in: 1...5, using: &random)).map { _ in alphabet.randomElement(using: &random)!
            }
            if !text.isEmpty, Bool.random(using: &random) {
                let start = Int.random(in: 0..<text.count, using: &random)
                needle = Array(text[start..<min(text.count, start + Int.random(in: 1...8, using: &random))])
            }
            let start = Int.random(in: 0...max(0, text.count), using: &random)
            let naive =
                text.count < needle.count || start > text.count - needle.count
                ? nil
                : (start...(text.count - needle.count)).first { text[$0..<($0 + needle.count)].elementsEqual(needle) }
            text.withUnsafeBytes { bytes in
                #expect(JSONLine.search(needle, in: bytes, from: start) == naive, "\(text) \(needle) \(start)")
            }
        }
    }

    @Test func hostileValuesThroughTheWholeCommandLine() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bookclub-hostile-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(InProcess.run(["add", "Evil\u{1B}[2J\u{0}Title\u{202E}", "--pages", "412"], home: home).code == 0)
        let hugeNote = String(repeating: "the spice must flow ", count: 500_000)  // 10 MB
        #expect(InProcess.run(["progress", "evil", "10", "--note", hugeNote], home: home).code == 0)
        let notes = InProcess.run(["notes", "evil", "--json"], home: home)
        #expect(notes.code == 0)
        #expect(notes.stdout.count > 10_000_000)
        let list = InProcess.run(["list", "--color", "always"], home: home)
        #expect(
            !list.stdout.contains("\u{1B}[2J") && !list.stdout.contains("\u{0}"), "control characters are shown escaped"
        )
        #expect(list.stdout.contains("Evil\\u{1B}[2J\\u{0}Title\\u{202E}"))
        for value in ["99999999999999999999", "nan%", "inf%", "-0%", "1e3"] {
            #expect(InProcess.run(["progress", "evil", value], home: home).code == 64, "\(value)")
        }
        #expect(InProcess.run(["progress", "evil", "20", "--date", "0000-01-01"], home: home).code == 64)
        #expect(InProcess.run(["settings", "set", "lockTimeout", "inf"], home: home).code == 64)
    }
}
