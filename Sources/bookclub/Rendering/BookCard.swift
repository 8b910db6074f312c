import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A book as `show` prints it.
enum BookCard {
    /// A review as text: Goodreads keeps reviews as HTML, so line breaks (`<br/>`) become lines, other
    /// tags go and the common entities are decoded.
    static func plainText(_ html: String) -> String {
        html.replacing(/<br\s*\/?>/.ignoresCase(), with: "\n").replacing(/<\/?[a-zA-Z][^<>]*>/, with: "")
            .replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&#39;", with: "'").replacing("&nbsp;", with: " ").replacing("&amp;", with: "&")
    }

    /// The lines of `bookclub show`: the book, its progress, each reading with its entries and
    /// endings, the review and the private notes. Notes wrap under their column when `width` is known.
    static func lines(_ book: Book, style: Style, timeZone zone: Zone, width: Int?) -> [TerminalText] {
        var lines = [style.bold("\(book.title)")]
        var facts: [TerminalText] = []
        if let author = book.author { facts.append("by \(author)") }
        if let pages = book.pages { facts.append("\(NumberText.count(pages, "page"))") }
        switch book.format {
        case .audiobook?:
            facts.append(
                TerminalText("audiobook" + (book.length.map { ", " + DurationText.describe(minutes: $0) } ?? "")))
        case .ebook?: facts.append("e-book")
        case .print?, nil: break
        }
        if let isbn = book.isbn { facts.append("ISBN \(isbn)") }
        if let rating = book.currentRating {
            facts.append(
                "rated \(Rating.stars(rating)) \(rating == rating.rounded() ? String(Int(rating)) : String(rating))/5")
        }
        if !book.tags.isEmpty { facts.append("tags: \(book.tags.joined(separator: ", "))") }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        lines.append(style.dim("id \(book.id) · added \(DateText.day(book.added, timeZone: zone))"))
        let barWidth = min(30, max(10, (width ?? 80) - 40))
        lines.append("")
        lines.append(
            style.green("\(ProgressBar.render(book.currentProgress, width: barWidth))") + "  "
                + "\(ProgressText.describe(book))")
        for (number, reading) in book.readings.enumerated() {
            lines.append("")
            var heading: TerminalText = book.readings.count > 1 ? "Reading \(number + 1)" : "Reading"
            if let format = reading.format {
                heading += format == .audiobook ? ", on audio" : ", as \(format == .ebook ? "an e-book" : "print")"
            }
            if let started = reading.started { heading += ", started \(DateText.day(started, timeZone: zone))" }
            if let ending = reading.ending {
                heading +=
                    ", \(ending.outcome.rawValue)\(ending.date.map { " \(DateText.day($0, timeZone: zone))" } ?? "")"
            }
            lines.append(style.bold(heading))
            if reading.progress.entries.isEmpty { lines.append(style.dim("  no progress logged")) }
            // Notes are never cut: a note of several lines goes on as rows of its own.
            let rows = reading.progress.entries.flatMap { entry in
                // Minutes an e-reader counted go before the note.
                let text = [entry.minutes.map { "\($0) min read" }, entry.note].compactMap { $0 }.joined(
                    separator: " · ")
                let note = TerminalText(keepingLineBreaks: text).lines
                return [
                    [
                        "\(DateText.minute(entry.time, timeZone: zone))",
                        "\(entry.page.map { "p. \($0)" } ?? entry.listened.map(DurationText.clock) ?? "")",
                        "\(ProgressText.percent(entry.progress))", note[0],
                    ]
                ] + note.dropFirst().map { ["", "", "", $0] }
            }
            // On a terminal, notes wrap under their column.
            let table = Table(rows: rows, rightAligned: [2], wrapsLastColumn: true)
            lines += table.render(width: width.map { $0 - 2 }) { column, text in column == 0 ? style.dim(text) : text }
                .map { "  " + $0 }
            // A passage and its note keep their line breaks, each line wrapped under the first.
            func wrapped(_ text: TerminalText, firstColumn: Int, indent: Int) -> TerminalText {
                text.lines.enumerated().map { number, line in
                    TextWrapping.hanging(
                        line, width: width, firstColumn: number == 0 ? firstColumn : indent, indent: indent)
                }.joined(separator: "\n" + .spaces(indent))
            }
            for highlight in reading.highlights ?? [] {
                let place: TerminalText = highlight.place.map { "\($0)  " } ?? ""
                if !highlight.text.isEmpty {
                    lines.append(
                        "  " + style.dim(place)
                            + wrapped(
                                "“" + TerminalText(keepingLineBreaks: highlight.text) + "”",
                                firstColumn: 2 + place.displayWidth, indent: 4))
                }
                if let note = highlight.note {
                    let label = (highlight.text.isEmpty ? place : "") + "note: "
                    let indent = highlight.text.isEmpty ? 2 : 4
                    lines.append(
                        .spaces(indent) + style.dim(label)
                            + wrapped(
                                TerminalText(keepingLineBreaks: note), firstColumn: indent + label.displayWidth,
                                indent: indent + 2))
                }
            }
            for ending in reading.resumed ?? [] {
                let label: TerminalText =
                    "\(ending.outcome.rawValue)\(ending.date.map { " " + DateText.day($0, timeZone: zone) } ?? ""), then resumed"
                let text = [ending.rating.map { "\(Rating.stars($0))" }, ending.note.map { TerminalText($0) }]
                    .compactMap { $0 }.joined(separator: " ")
                lines.append("  " + style.dim(label + (text.isEmpty ? "" : ":")) + (text.isEmpty ? "" : " " + text))
            }
            if let ending = reading.ending, let note = ending.note {
                let label: TerminalText = "\(ending.outcome.rawValue): "
                lines.append(
                    "  " + style.dim(label)
                        + TextWrapping.hanging(
                            TerminalText(note), width: width, firstColumn: 2 + label.displayWidth, indent: 4)
                )
            }
        }
        for (heading, text) in [("Review", book.currentReview), ("Private notes", book.privateNotes)] {
            guard let text else { continue }
            lines += ["", style.bold("\(heading)")]
            lines += TerminalText(keepingLineBreaks: plainText(text)).lines.map { line in
                line.isEmpty ? "" : width.map { TextWrapping.wrap(line, width: $0, indent: 2) } ?? "  " + line
            }
        }
        return lines
    }
}
