import Foundation
import Testing

@testable import BookClubCore

/// Books read by ear: a format on every book, an audiobook's length, as readers write it.
@Suite struct AudiobookTests {
    @Test func lengthsAsReadersWriteThem() {
        #expect(DurationText.minutes(parsing: "11:40") == 700)
        #expect(DurationText.minutes(parsing: "11h40m") == 700)
        #expect(DurationText.minutes(parsing: "11 h 40 min") == 700)
        #expect(DurationText.minutes(parsing: "16h") == 960)
        #expect(DurationText.minutes(parsing: "45m") == 45)
        #expect(DurationText.minutes(parsing: "90m") == 90)
        #expect(DurationText.minutes(parsing: "700") == 700)
        #expect(DurationText.minutes(parsing: "0:05") == 5)
        for bad in [
            "", "0", "0:00", "11:4", "11:60", "-3:00", "h", "11h70m", "1e3", "99999999999999999999", "١١:٤٠", "3:25:10",
        ] {
            #expect(DurationText.minutes(parsing: bad) == nil, "\(bad)")
        }
        #expect(DurationText.describe(minutes: 700) == "11 h 40 min")
        #expect(DurationText.describe(minutes: 45) == "45 min")
        #expect(DurationText.describe(minutes: 180) == "3 h")
        // A place in an audiobook: a time, never a bare number (a page).
        #expect(ProgressValue(parsing: "3:25") == .time(205))
        #expect(ProgressValue(parsing: "3h25m") == .time(205))
        #expect(ProgressValue(parsing: "45m") == .time(45))
        #expect(ProgressValue(parsing: "0:00") == .time(0))
        #expect(ProgressValue(parsing: "120") == .page(120))
        #expect(ProgressValue(parsing: "3:75") == nil)
        #expect(DurationText.clock(205) == "3:25" && DurationText.clock(5) == "0:05")
    }

    @Test func importsSayTheFormat() {
        #expect(ImportMapping.format("Audible Audio") == .audiobook)
        #expect(ImportMapping.format("Audio CD") == .audiobook)
        #expect(ImportMapping.format("audio") == .audiobook)
        #expect(ImportMapping.format("Kindle Edition") == .ebook)
        #expect(ImportMapping.format("digital") == .ebook)
        #expect(ImportMapping.format("Mass Market Paperback") == .print)
        #expect(ImportMapping.format("Hardcover") == .print)
        #expect(ImportMapping.format("Unknown Binding") == nil)
        #expect(ImportMapping.format(nil) == nil)
    }

    @Test func theStoreKeepsTheFormatAndLength() throws {
        let book = Book(
            id: "ab12", title: "Project Hail Mary", format: .audiobook, length: 970,
            added: Date(timeIntervalSince1970: 0))
        var writer = JSONWriter(compact: true)
        writer.storedBook(StoredBook(book))
        let line = Data(writer.bytes)
        let scanned = try #require(StoredBook(scanning: line))
        #expect(scanned.book.format == .audiobook && scanned.book.length == 970)
        let decoded = try #require(JSONCoding.decodeLine(StoredBook.self, from: line))
        #expect(decoded.book == scanned.book)
        // A format this bookclub does not know is not read as none.
        let later = Data(String(decoding: line, as: UTF8.self).replacing("\"audiobook\"", with: "\"vinyl\"").utf8)
        #expect(StoredBook(scanning: later) == nil)
        #expect(Library(books: [Book(id: "x", title: "x", length: 0, added: .distantPast)]).problem() != nil)
    }
}

/// An audiobook at the prompt, in the store, through an import, and on a second machine.
@Suite(.serialized) struct AudiobookEndToEndTests {
    @Test func anAudiobookIsAddedShownEditedAndTravels() throws {
        let homes = try SyncEndToEndTests.TwoHomes()
        defer { homes.cleanUp() }
        try homes.join()
        let added = try homes.laptop.run(
            "add", "Project Hail Mary", "--author", "Andy Weir", "--audio", "--length", "16:10")
        #expect(added.exitCode == 0, "\(added.stderr)")
        #expect(try homes.laptop.run("show", "hail").stdout.contains("audiobook, 16 h 10 min"))
        let json = try homes.laptop.run("show", "hail", "--json").stdout
        #expect(json.contains("\"format\" : \"audiobook\"") && json.contains("\"length\" : 970"), "\(json)")
        #expect(try homes.laptop.run("list").stdout.contains("· audio"))
        // A place logged as a time, shown as a time and a fraction; a correction back counts nothing.
        #expect(try homes.laptop.run("progress", "hail", "3:25", "--note", "Rocky!").exitCode == 0)
        #expect(try homes.laptop.run("show", "hail").stdout.contains("3:25 of 16:10 (21%)"))
        #expect(try homes.laptop.run("list").stdout.contains("3:25/16:10 · audio"))
        #expect(try homes.laptop.run("progress", "hail", "2h").exitCode == 0)
        #expect(try homes.laptop.run("progress", "hail", "5:00").exitCode == 0)
        let entries = try homes.laptop.run("show", "hail", "--json").stdout
        #expect(entries.contains("\"listened\" : 205") && entries.contains("\"listened\" : 300"), "\(entries)")
        let stats = try homes.laptop.run("stats", "--json").stdout
        #expect(stats.contains("\"minutesListened\" : 300"), "\(stats)")
        #expect(try homes.laptop.run("stats").stdout.contains("5 h of audiobooks, 5 h a day"))
        #expect(stats.contains("\"minutesListenedPerDay\" : 300"), "\(stats)")
        let page = try homes.laptop.run("stats", "--html").stdout
        #expect(page.contains("Hours of audiobooks listened to by month") && page.contains("5 h of audiobooks"))
        let past = try homes.laptop.run("progress", "hail", "17:00")
        #expect(
            past.exitCode == 1 && past.stderr.contains("17:00 is past the end of 'Project Hail Mary' (16 h 10 min)"))
        #expect(try homes.laptop.run("add", "Dune").exitCode == 0)
        let noLength = try homes.laptop.run("progress", "dune", "3:25")
        #expect(
            noLength.exitCode == 1 && noLength.stderr.contains("has no length to place a time in"), "\(noLength.stderr)"
        )
        #expect(try homes.desk.run("show", "hail").stdout.contains("5:00 of 16:10 (31%)"))
        // A meeting's target in an audiobook is a time, kept as the fraction of its length.
        #expect(try homes.laptop.run("club", "add", "Listeners").exitCode == 0)
        let meeting = try homes.laptop.run(
            "club", "meeting", "listeners", "--date", "in 2 weeks", "--book", "hail", "--target", "8:05")
        #expect(
            meeting.exitCode == 0 && meeting.stderr.contains("Project Hail Mary to 8:05 (50%)"), "\(meeting.stderr)")
        #expect(try homes.laptop.run("club", "meetings").stdout.contains("Project Hail Mary to 8:05 (50%)"))
        let agenda = try homes.laptop.run("agenda")
        // (A long line wraps under its text: its words are compared.)
        let words = agenda.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // (The minutes a day hang on the hour of the day it runs: 185 over 13 to 14 days.)
        #expect(
            words.contains("you are at 5:00, 3 h 5 min to go, 14 min a day")
                || words.contains("you are at 5:00, 3 h 5 min to go, 15 min a day")
                || words.contains("you are at 5:00, 3 h 5 min to go, 13 min a day"), "\(agenda.stdout)")
        #expect(try homes.laptop.run("agenda", "--json").stdout.contains("\"minutesToGo\" : 185"))
        let tooFar = try homes.laptop.run(
            "club", "meeting", "listeners", "--date", "in 3 weeks", "--book", "hail", "--target", "20:00")
        #expect(tooFar.exitCode == 1 && tooFar.stderr.contains("20:00 is past the end"), "\(tooFar.stderr)")
        // The desk has it too, and changes it: the laptop hears of it.
        #expect(try homes.desk.run("show", "hail").stdout.contains("audiobook, 16 h 10 min"))
        #expect(try homes.desk.run("edit", "hail", "--format", "ebook", "--length", "").exitCode == 0)
        #expect(try homes.laptop.run("sync").exitCode == 0)
        let shown = try homes.laptop.run("show", "hail").stdout
        #expect(shown.contains("e-book") && !shown.contains("16 h"), "\(shown)")
        let shorter = try homes.laptop.run("edit", "hail", "--length", "4:00")
        #expect(shorter.exitCode == 1 && shorter.stderr.contains("5:00 is past the end"), "\(shorter.stderr)")
        #expect(try homes.export(homes.laptop) == homes.export(homes.desk))

        // Refused: a length that is no time, a length on a paper book, two formats.
        for (arguments, error) in [
            (["add", "X", "--length", "eleven"], "expected hours and minutes"),
            (["add", "X", "--format", "print", "--length", "3:00"], "--length is an audiobook's"),
            (["add", "X", "--format", "vinyl"], "one of 'print', 'ebook' or 'audiobook'"),
            (["add", "X", "--format", "print", "--audio"], "--audio"),
        ] {
            let result = try homes.laptop.run(arguments, input: nil, environment: [:])
            #expect(result.exitCode == 64 && result.stderr.contains(error), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aRereadOnAudio() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        #expect(try bookclub.run("add", "Dune", "--pages", "412").exitCode == 0)
        #expect(try bookclub.run("finish", "dune").exitCode == 0)
        let reread = try bookclub.run("reread", "dune", "--audio", "--length", "21:02")
        #expect(
            reread.exitCode == 0 && reread.stderr.contains("Started reading 2 of 'Dune' on audio."), "\(reread.stderr)")
        #expect(try bookclub.run("progress", "dune", "10:31").exitCode == 0)
        let shown = try bookclub.run("show", "dune").stdout
        #expect(shown.contains("10:31 of 21:02 (50%)") && shown.contains("Reading 2, on audio"), "\(shown)")
        #expect(try bookclub.run("list").stdout.contains("· audio"))
        let json = try bookclub.run("show", "dune", "--json").stdout
        #expect(json.contains("\"format\" : \"audiobook\"") && json.contains("\"listened\" : 631"), "\(json)")
        // The store reads it back as it wrote it.
        #expect(try bookclub.run("export").stdout.contains("\"format\" : \"audiobook\""))
        #expect(try bookclub.run("doctor").exitCode == 0)
    }

    @Test func storyGraphSaysWhichBooksWereHeard() throws {
        let bookclub = try BookClubRunner()
        defer { bookclub.cleanUp() }
        let csv = """
            Title,Authors,Contributors,ISBN/UID,Format,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Moods,Pace,Character- or Plot-Driven?,Strong Character Development?,Loveable Characters?,Diverse Characters?,Flawed Characters?,Star Rating,Review,Content Warnings,Content Warning Description,Tags,Owned?
            Project Hail Mary,Andy Weir,,9781603935470,audio,read,2024/01/02,2024/02/03,,1,,,,,,,,4.5,,,,,No
            三体,刘慈欣,,,digital,to-read,2024/01/02,,,0,,,,,,,,,,,,,No
            """
        let file = bookclub.home + "/storygraph.csv"
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try bookclub.run("import", "storygraph", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(try bookclub.run("show", "hail", "--json").stdout.contains("\"format\" : \"audiobook\""))
        #expect(try bookclub.run("show", "三体", "--json").stdout.contains("\"format\" : \"ebook\""))
    }
}
