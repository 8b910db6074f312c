#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The notes of a book's current reading as Markdown, for the next meeting: text for people, each
/// value's control characters shown; a note, a passage or a review keeps its line breaks.
public enum NotesReport {
    /// ```markdown
    /// # Dune
    /// Frank Herbert · p. 206 of 412 (50%)
    ///
    /// - p. 120, Fri 20 Nov 2026: the spice
    /// ```
    public static func markdown(for book: Book, timeZone: Zone) throws -> TerminalText {
        var lines: [TerminalText] = ["# \(book.title)"]
        var facts: [String] = []
        if let author = book.author { facts.append(author) }
        facts.append(ProgressText.describe(book))
        lines.append("\(facts.joined(separator: " · "))")
        lines.append("")
        let notes = try notes(of: book)
        if notes.isEmpty {
            lines.append("_No notes yet. Add one with `bookclub progress \"\(book.title)\" VALUE --note TEXT`._")
        }
        for note in notes {
            lines.append("- \(note.place), \(DateText.day(note.time, timeZone: timeZone)): \(item(note.text))")
        }
        lines += quoted(book.currentReading?.highlights ?? [])
        return lines.joined(separator: "\n") + "\n"
    }

    /// A note as a list item's text: its lines after the first indented under it.
    static func item(_ note: String) -> TerminalText {
        TerminalText(keepingLineBreaks: note).lines.joined(separator: "\n  ")
    }

    /// A section `## Highlights` (or `heading`), each a block quote with its place under it, and the reader's
    /// note after; no lines when there are none.
    ///
    /// ```markdown
    /// > Fear is the mind-killer.
    /// > — p. 8
    ///
    /// The litany, for Tuesday.
    /// ```
    static func quoted(_ highlights: [Highlight], heading: TerminalText = "## Highlights") -> [TerminalText] {
        guard !highlights.isEmpty else { return [] }
        var lines = ["", heading]
        for highlight in highlights {
            lines.append("")
            // A note written on no passage is a note, not a quote.
            if highlight.text.isEmpty {
                lines.append("- \(highlight.place.map { $0 + ": " } ?? "")\(item(highlight.note ?? ""))")
                continue
            }
            lines += TerminalText(keepingLineBreaks: highlight.text).lines.map { "> " + $0 }
            if let place = highlight.place { lines.append("> — \(place)") }
            if let note = highlight.note {
                lines.append("")
                lines.append(TerminalText(keepingLineBreaks: note))
            }
        }
        return lines
    }

    /// A note with where in the book and when it was written.
    public struct Note: Equatable, Sendable {
        public var place: String
        public var time: Date
        public var text: String
    }

    /// The notes of the current reading in reading order, then those of endings taken back by
    /// `unfinish`, the ending's note last.
    ///
    /// - Throws: `BookClubError.historyNotLoaded` when the book was loaded without its history.
    public static func notes(of book: Book) throws -> [Note] {
        guard let reading = book.currentReading else { return [] }
        var notes = try reading.progress.wholeEntries(of: book.title).compactMap { entry in
            entry.note.map { Note(place: ProgressText.place(entry), time: entry.time, text: $0) }
        }
        for ending in reading.resumed ?? [] {
            guard let note = ending.note else { continue }
            notes.append(
                Note(place: ending.outcome.rawValue + ", then resumed", time: ending.date ?? book.added, text: note))
        }
        if let ending = reading.ending, let note = ending.note {
            notes.append(
                Note(
                    place: ending.outcome.rawValue, time: ending.date ?? reading.progress.latest?.time ?? book.added,
                    text: note))
        }
        return notes
    }
}

/// The notes to bring to a club meeting: the book, the target, and every note logged on the book
/// since the club's previous meeting about that book, or, when there was none, in the current
/// reading: in reading order.
public enum MeetingNotes {
    public struct Report: Equatable, Sendable {
        public var item: AgendaItem
        /// Notes since this moment (the previous meeting about the book); `nil` when there was none.
        public var since: Date?
        public var notes: [NotesReport.Note]
        /// The highlights made in the same span, in the order they were kept.
        public var highlights: [Highlight]
    }

    /// - Parameters:
    ///   - library: with the meeting's book's history loaded.
    public static func report(club: Club, meeting: Meeting, library: Library, now: Date) throws -> Report {
        let item = try Agenda.item(club: club, meeting: meeting, library: library, now: now)
        // Another book's meeting in between does not cut this book's notes short.
        let since = club.meeting(before: meeting)?.date
        var notes: [(progress: Double, note: NotesReport.Note)] = []
        if let book = item.book {
            for reading in since == nil ? Array(book.readings.suffix(1)) : book.readings {
                for entry in try reading.progress.wholeEntries(of: book.title)
                where entry.note != nil && since.map({ entry.time > $0 }) ?? true {
                    notes.append(
                        (
                            entry.progress,
                            NotesReport.Note(place: ProgressText.place(entry), time: entry.time, text: entry.note!)
                        ))
                }
            }
        }
        let ordered = notes.enumerated().sorted { ($0.element.progress, $0.offset) < ($1.element.progress, $1.offset) }
            .map(\.element.note)
        // A highlight whose time is unknown counts as made before any meeting.
        let highlights = (since == nil ? Array(item.book?.readings.suffix(1) ?? []) : item.book?.readings ?? [])
            .flatMap { $0.highlights ?? [] }
            .filter { highlight in since.map { since in highlight.time.map { $0 > since } ?? false } ?? true }
        return Report(item: item, since: since, notes: ordered, highlights: highlights)
    }

    public static func markdown(_ report: Report, timeZone: Zone) -> TerminalText {
        let item = report.item
        var lines: [TerminalText] = [
            "# \(item.club.name): \(DateText.minute(item.meeting.date, timeZone: timeZone))", "",
        ]
        if let book = item.book {
            var line: TerminalText = "**\(book.title)**"
            if let author = book.author { line += " by \(author)" }
            if let target = item.meeting.target { line += ", to \(target.text(in: book))" }
            lines.append(line)
            lines.append("You are at \(ProgressText.describe(book)).")
        } else {
            lines.append("_No book chosen for this meeting._")
        }
        if let place = item.meeting.place { lines.append("Where: \(place)") }
        lines.append("")
        lines.append(report.since.map { "## Notes since \(DateText.day($0, timeZone: timeZone))" } ?? "## Notes")
        lines.append("")
        if report.notes.isEmpty { lines.append("_No notes yet._") }
        for note in report.notes {
            lines.append(
                "- \(note.place), \(DateText.day(note.time, timeZone: timeZone)): \(NotesReport.item(note.text))")
        }
        lines += NotesReport.quoted(report.highlights)
        return lines.joined(separator: "\n") + "\n"
    }
}
