#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An operation as a line of a device's log, and back. Another device's log is untrusted input: a
/// line is read only if every id in it is of the form bookclub writes and every value is one a
/// command could have made; anything else is refused with what was wrong.
///
/// ```json
/// {"book":"3f2a…","c":0,"device":"9b1e…","entry":{…},"n":14,"op":"entry.put","reading":"E621…","t":1764041427123,"v":1}
/// ```
enum SyncLine {
    /// What a line holds.
    enum Reading: Equatable {
        case operation(SyncOperation)
        /// A line of a later version of bookclub: kept in its log, passed over here.
        case newer
    }

    /// The longest line read; a longer one is refused rather than held.
    static let maximumLength = 1 << 20

    static func encode(_ operation: SyncOperation) -> Data {
        // The operation of nearly every command, `progress`, is written by hand, as JSONEncoder writes
        // it: the encoder's first use costs a command more than the rest of its sync.
        guard case .putEntry(let book, let reading, let entry) = operation.change else {
            return encodedByFoundation(operation)
        }
        var writer = JSONWriter(compact: true)
        writer.object { w in
            w.field("book", book)
            w.field("c", operation.clock.counter)
            w.field("device", operation.device)
            w.field("entry")
            w.entry(entry)
            w.field("n", operation.sequence)
            w.field("op", "entry.put")
            w.field("reading")
            w.uuid(reading)
            w.field("t", Int(operation.clock.milliseconds))
            w.field("v", SyncOperation.version)
        }
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.take()
    }

    /// The line as Foundation's encoder writes it, with its line break.
    static func encodedByFoundation(_ operation: SyncOperation) -> Data {
        var data = (try? encoder.encode(Line(operation))) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads one line (without its line break); throws a `SyncLine.Problem` saying what is wrong.
    static func decode(_ data: Data) throws -> Reading {
        guard data.count <= maximumLength else { throw Problem("longer than 1 MiB") }
        if let operation = data.withUnsafeBytes(entryPut) {
            try check(operation)
            return .operation(operation)
        }
        guard JSONCoding.isShallow(data) else { throw Problem("nested too deeply") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let line: Line
        do {
            line = try decoder.decode(Line.self, from: data)
        } catch let problem as Problem {
            throw problem
        } catch {
            if let version = try? decoder.decode(Version.self, from: data), version.v > SyncOperation.version {
                return .newer
            }
            let detail = (error as? DecodingError).map(JSONCoding.describe) ?? "not JSON"
            throw Problem("not an operation bookclub writes (\(detail))")
        }
        guard let operation = line.operation else { return .newer }
        return .operation(operation)
    }

    private static let entryKeys: [StaticString] = ["book", "c", "device", "entry", "n", "op", "reading", "t", "v"]

    /// A progress entry's line as bookclub writes it (most lines of a log), read in place: Foundation's
    /// decoder takes ten times as long. `nil` for a line of any other form, which the decoder reads.
    private static func entryPut(_ bytes: UnsafeRawBufferPointer) -> SyncOperation? {
        var scanner = JSONScanner(bytes: bytes)
        var (book, device, op): (String?, String?, String?)
        var (counter, sequence, milliseconds, version): (Int?, Int?, Int?, Int?)
        var entry: ReadingProgress.Entry?
        var reading: UUID?
        let complete = scanner.object(keys: entryKeys) { key, scanner in
            switch key {
            case 0 where book == nil: return scanner.read(&book)
            case 1 where counter == nil: return scanner.read(&counter)
            case 2 where device == nil: return scanner.read(&device)
            case 3 where entry == nil:
                entry = HistoryLine.entry(&scanner)
                return entry != nil
            case 4 where sequence == nil: return scanner.read(&sequence)
            case 5 where op == nil: return scanner.read(&op) && op == "entry.put"
            case 6 where reading == nil:
                reading = scanner.uuid()
                return reading != nil
            case 7 where milliseconds == nil: return scanner.read(&milliseconds)
            case 8 where version == nil: return scanner.read(&version) && version == SyncOperation.version
            default: return false
            }
        }
        guard complete, scanner.atEnd, version != nil, op != nil, let book, let device, let entry, let reading,
            let sequence, let milliseconds, let counter
        else { return nil }
        return SyncOperation(
            device: device, sequence: sequence, clock: HybridClock(milliseconds: Int64(milliseconds), counter: counter),
            change: .putEntry(book: book, reading: reading, entry))
    }

    /// The checks of the decoder, for an operation read in place.
    private static func check(_ operation: SyncOperation) throws {
        guard isDeviceID(operation.device) else { throw Problem("`device`: not an id bookclub makes") }
        guard operation.sequence > 0, operation.clock.milliseconds >= 0, operation.clock.counter >= 0 else {
            throw Problem("`n`, `t` and `c`: expected numbers from 0 (`n` from 1)")
        }
        if case .putEntry(let book, _, let entry) = operation.change {
            try checkID(book, "book")
            try check(entry)
        }
    }

    struct Problem: Error, Equatable {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }

    private static let encoder: JSONEncoder = JSONCoding.encoder(pretty: false)

    private struct Version: Decodable {
        var v: Int
    }

    // MARK: Checks

    /// A device's id: 32 lowercase hexadecimal digits.
    static func isDeviceID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { isHexDigit($0) }
    }

    /// An id of a book, club, meeting or highlight: bookclub makes them of hexadecimal digits, an
    /// import keeps its own (`kindle-…`, a UUID): letters, digits, `-`, `_`, `.` and `:`, up to 128.
    /// Never a `/`, a space or a control character: never a path or a terminal escape.
    static func isID(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":")].contains($0)
            }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    static func checkID(_ id: String, _ what: String) throws {
        guard isID(id) else { throw Problem("`\(what)`: not an id bookclub makes") }
    }

    static func check(_ field: BookField) throws {
        switch field {
        case .title(let title): if title.trimmed.isEmpty { throw Problem("`value`: expected a title") }
        case .pages(let pages?):
            if !Library.pageCounts.contains(pages) { throw Problem("`value`: expected a page count") }
        case .rating(let rating?):
            if !rating.isFinite || !Rating.range.contains(rating) { throw Problem("`value`: expected a rating") }
        case .length(let length?):
            if !Book.lengths.contains(length) { throw Problem("`value`: expected a length in minutes") }
        default: break
        }
    }

    static func check(_ core: BookCore) throws {
        try checkID(core.id, "book.id")
        try check(.title(core.title))
        try check(.pages(core.pages))
        try check(.rating(core.rating))
        try check(.length(core.length))
    }

    static func check(_ entry: ReadingProgress.Entry) throws {
        if let problem = Library.problem(with: entry) { throw Problem(problem) }
    }

    static func check(_ highlight: Highlight) throws {
        guard isID(highlight.id) else { throw Problem("`highlight.id`: not an id bookclub makes") }
        if highlight.text.trimmed.isEmpty, highlight.note?.trimmed.isEmpty ?? true {
            throw Problem("`highlight.text`: expected the passage, or a note")
        }
        if let page = highlight.page, !(0...Library.pageCounts.upperBound).contains(page) {
            throw Problem("`highlight.page`: expected a page")
        }
    }

    static func check(_ ending: Ending?) throws {
        if let rating = ending?.rating, !rating.isFinite || !Rating.range.contains(rating) {
            throw Problem("`reading.ending.rating`: expected a rating")
        }
    }
}

// MARK: - The line's JSON

extension SyncLine {
    private struct Line: Codable {
        var operation: SyncOperation?

        init(_ operation: SyncOperation) {
            self.operation = operation
        }

        enum Key: String, CodingKey {
            case v, device, n, t, c, op, book, field, value, tag, on, seen, reading, entry, highlight, club, meeting,
                name
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let version = try c.decode(Int.self, forKey: .v)
            guard version <= SyncOperation.version else {
                operation = nil
                return
            }
            let device = try c.decode(String.self, forKey: .device)
            guard SyncLine.isDeviceID(device) else { throw Problem("`device`: not an id bookclub makes") }
            let sequence = try c.decode(Int.self, forKey: .n)
            let milliseconds = try c.decode(Int64.self, forKey: .t)
            let counter = try c.decode(Int.self, forKey: .c)
            guard sequence > 0, milliseconds >= 0, counter >= 0 else {
                throw Problem("`n`, `t` and `c`: expected numbers from 0 (`n` from 1)")
            }
            let change: SyncOperation.Change
            func book() throws -> Book.ID {
                let id = try c.decode(String.self, forKey: .book)
                try SyncLine.checkID(id, "book")
                return id
            }
            func club() throws -> Club.ID {
                let id = try c.decode(String.self, forKey: .club)
                try SyncLine.checkID(id, "club")
                return id
            }
            switch try c.decode(String.self, forKey: .op) {
            case "book.add":
                let core = try c.decode(BookCore.self, forKey: .book)
                try SyncLine.check(core)
                change = .addBook(core)
            case "book.set":
                let id = try book()
                let field: BookField
                switch try c.decode(String.self, forKey: .field) {
                case "title": field = .title(try c.decode(String.self, forKey: .value))
                case "author": field = .author(try c.decodeIfPresent(String.self, forKey: .value))
                case "pages": field = .pages(try c.decodeIfPresent(Int.self, forKey: .value))
                case "isbn": field = .isbn(try c.decodeIfPresent(String.self, forKey: .value))
                case "coverName": field = .coverName(try c.decodeIfPresent(String.self, forKey: .value))
                case "rating": field = .rating(try c.decodeIfPresent(Double.self, forKey: .value))
                case "review": field = .review(try c.decodeIfPresent(String.self, forKey: .value))
                case "privateNotes": field = .privateNotes(try c.decodeIfPresent(String.self, forKey: .value))
                case "contributors":
                    field = .contributors(try c.decodeIfPresent([Contributor].self, forKey: .value))
                case "details": field = .details(try c.decodeIfPresent([String: [String]].self, forKey: .value))
                case "format": field = .format(try c.decodeIfPresent(Book.Format.self, forKey: .value))
                case "length": field = .length(try c.decodeIfPresent(Int.self, forKey: .value))
                default:
                    // A field of a later version.
                    operation = nil
                    return
                }
                try SyncLine.check(field)
                change = .setField(book: id, field)
            case "book.tag":
                let tag = try c.decode(String.self, forKey: .tag)
                guard tag.nonBlank == tag else { throw Problem("`tag`: expected a tag") }
                change = .tag(book: try book(), tag: tag, on: try c.decode(Bool.self, forKey: .on))
            case "book.remove":
                let seen = try c.decode([String: Int].self, forKey: .seen)
                guard seen.keys.allSatisfy(SyncLine.isDeviceID) else { throw Problem("`seen`: not device ids") }
                change = .removeBook(book: try book(), seen: seen)
            case "reading.put":
                let reading = try c.decode(ReadingCore.self, forKey: .reading)
                try SyncLine.check(reading.ending)
                for ending in reading.resumed ?? [] { try SyncLine.check(ending) }
                change = .putReading(book: try book(), reading)
            case "reading.remove":
                change = .removeReading(book: try book(), reading: try c.decode(UUID.self, forKey: .reading))
            case "entry.put":
                let entry = try c.decode(ReadingProgress.Entry.self, forKey: .entry)
                try SyncLine.check(entry)
                change = .putEntry(book: try book(), reading: try c.decode(UUID.self, forKey: .reading), entry)
            case "entry.remove":
                change = .removeEntry(
                    book: try book(), reading: try c.decode(UUID.self, forKey: .reading),
                    entry: try c.decode(UUID.self, forKey: .entry))
            case "highlight.put":
                let highlight = try c.decode(Highlight.self, forKey: .highlight)
                try SyncLine.check(highlight)
                change = .putHighlight(
                    book: try book(), reading: try c.decode(UUID.self, forKey: .reading), highlight)
            case "highlight.remove":
                let id = try c.decode(String.self, forKey: .highlight)
                guard SyncLine.isID(id) else { throw Problem("`highlight`: not an id bookclub makes") }
                change = .removeHighlight(
                    book: try book(), reading: try c.decode(UUID.self, forKey: .reading), highlight: id)
            case "club.put":
                let core = try c.decode(ClubCore.self, forKey: .club)
                try SyncLine.checkID(core.id, "club.id")
                guard core.name.trimmed.isEmpty == false else { throw Problem("`club.name`: expected a name") }
                change = .putClub(core)
            case "club.remove":
                change = .removeClub(try club())
            case "meeting.put":
                let meeting = try c.decode(Meeting.self, forKey: .meeting)
                try SyncLine.checkID(meeting.id, "meeting.id")
                if let book = meeting.bookID { try SyncLine.checkID(book, "meeting.bookID") }
                change = .putMeeting(club: try club(), meeting)
            case "meeting.remove":
                let id = try c.decode(String.self, forKey: .meeting)
                try SyncLine.checkID(id, "meeting")
                change = .removeMeeting(club: try club(), meeting: id)
            case "device.name":
                let name = try c.decode(String.self, forKey: .name)
                guard name.nonBlank == name, name.count <= 64 else {
                    throw Problem("`name`: expected a name of up to 64 characters")
                }
                change = .nameDevice(name)
            default:
                // An operation of a later version.
                operation = nil
                return
            }
            operation = SyncOperation(
                device: device, sequence: sequence, clock: HybridClock(milliseconds: milliseconds, counter: counter),
                change: change)
        }

        func encode(to encoder: any Encoder) throws {
            guard let operation else { return }
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(SyncOperation.version, forKey: .v)
            try c.encode(operation.device, forKey: .device)
            try c.encode(operation.sequence, forKey: .n)
            try c.encode(operation.clock.milliseconds, forKey: .t)
            try c.encode(operation.clock.counter, forKey: .c)
            func op(_ name: String) throws { try c.encode(name, forKey: .op) }
            switch operation.change {
            case .addBook(let core):
                try op("book.add")
                try c.encode(core, forKey: .book)
            case .setField(let book, let field):
                try op("book.set")
                try c.encode(book, forKey: .book)
                try c.encode(field.name, forKey: .field)
                // A cleared field is written `null`, never left out.
                switch field {
                case .title(let value): try c.encode(value, forKey: .value)
                case .author(let value), .isbn(let value), .coverName(let value), .review(let value),
                    .privateNotes(let value):
                    try c.encode(value, forKey: .value)
                case .pages(let value): try c.encode(value, forKey: .value)
                case .rating(let value): try c.encode(value, forKey: .value)
                case .contributors(let value): try c.encode(value, forKey: .value)
                case .details(let value): try c.encode(value, forKey: .value)
                case .format(let value): try c.encode(value, forKey: .value)
                case .length(let value): try c.encode(value, forKey: .value)
                }
            case .tag(let book, let tag, let on):
                try op("book.tag")
                try c.encode(book, forKey: .book)
                try c.encode(tag, forKey: .tag)
                try c.encode(on, forKey: .on)
            case .removeBook(let book, let seen):
                try op("book.remove")
                try c.encode(book, forKey: .book)
                try c.encode(seen, forKey: .seen)
            case .putReading(let book, let reading):
                try op("reading.put")
                try c.encode(book, forKey: .book)
                try c.encode(reading, forKey: .reading)
            case .removeReading(let book, let reading):
                try op("reading.remove")
                try c.encode(book, forKey: .book)
                try c.encode(reading, forKey: .reading)
            case .putEntry(let book, let reading, let entry):
                try op("entry.put")
                try c.encode(book, forKey: .book)
                try c.encode(reading, forKey: .reading)
                try c.encode(entry, forKey: .entry)
            case .removeEntry(let book, let reading, let entry):
                try op("entry.remove")
                try c.encode(book, forKey: .book)
                try c.encode(reading, forKey: .reading)
                try c.encode(entry, forKey: .entry)
            case .putHighlight(let book, let reading, let highlight):
                try op("highlight.put")
                try c.encode(book, forKey: .book)
                try c.encode(reading, forKey: .reading)
                try c.encode(highlight, forKey: .highlight)
            case .removeHighlight(let book, let reading, let highlight):
                try op("highlight.remove")
                try c.encode(book, forKey: .book)
                try c.encode(reading, forKey: .reading)
                try c.encode(highlight, forKey: .highlight)
            case .putClub(let club):
                try op("club.put")
                try c.encode(club, forKey: .club)
            case .removeClub(let club):
                try op("club.remove")
                try c.encode(club, forKey: .club)
            case .putMeeting(let club, let meeting):
                try op("meeting.put")
                try c.encode(club, forKey: .club)
                try c.encode(meeting, forKey: .meeting)
            case .removeMeeting(let club, let meeting):
                try op("meeting.remove")
                try c.encode(club, forKey: .club)
                try c.encode(meeting, forKey: .meeting)
            case .nameDevice(let name):
                try op("device.name")
                try c.encode(name, forKey: .name)
            }
        }
    }
}
