#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether a post may be shown to a reader: once the reader's furthest position in their own copy
/// passes the place the post may reveal. Same edition (the same ISBN, or the same page count): pages
/// exactly; other editions: fractions of the book. A place that cannot be placed in the reader's copy
/// waits until the reader finishes.
public enum Spoilers {
    public static func reveals(_ place: ClubPosition, to reader: ClubPosition) -> Bool {
        if reader.finished == true { return true }
        if place.finished == true { return false }
        if sameEdition(place, reader), let page = place.page ?? place.derivedPage,
            let read = reader.page ?? reader.derivedPage
        {
            return read >= page
        }
        guard let fraction = place.fraction ?? place.derivedFraction,
            let read = reader.fraction ?? reader.derivedFraction
        else { return false }
        return read >= fraction - 1e-9
    }

    /// Whether two places are in the same edition: the same ISBN, or (without ISBNs to compare) the same
    /// page count.
    public static func sameEdition(_ a: ClubPosition, _ b: ClubPosition) -> Bool {
        if let x = a.isbn.flatMap(ISBN.matchKey), let y = b.isbn.flatMap(ISBN.matchKey) { return x == y }
        if let x = a.pages, let y = b.pages { return x == y }
        return false
    }

    /// A reader's furthest position in their copy of a book: the furthest of its readings (a finished
    /// reading has read it all).
    public static func position(of book: Book) -> ClubPosition {
        var place = ClubPosition(pages: book.pages, isbn: book.isbn.flatMap(ISBN.matchKey))
        var fraction = 0.0
        for reading in book.readings {
            if reading.ending?.outcome == .finished { place.finished = true }
            fraction = max(fraction, reading.currentProgress)
        }
        place.fraction = fraction
        if let pages = book.pages { place.page = Int((fraction * Double(pages)).rounded()) }
        return place
    }
}

extension ClubPosition {
    public var derivedPage: Int? {
        guard let fraction, let pages else { return nil }
        return Int((fraction * Double(pages)).rounded())
    }

    public var derivedFraction: Double? {
        guard let page, let pages, pages > 0 else { return nil }
        return min(1, Double(page) / Double(pages))
    }

    /// The furthest of two places, by fraction of the book.
    public func furthest(_ other: ClubPosition) -> ClubPosition {
        if other.finished == true { return other }
        if finished == true { return self }
        return (other.fraction ?? other.derivedFraction ?? 0) > (fraction ?? derivedFraction ?? 0) ? other : self
    }
}

extension Spoilers {
    /// Where a reader was in their copy at `time`: the furthest entry logged by then, in any reading.
    /// Reads the book's whole history.
    public static func position(of book: Book, at time: Date) throws -> ClubPosition {
        var place = ClubPosition(pages: book.pages, isbn: book.isbn.flatMap(ISBN.matchKey))
        var fraction = 0.0
        for reading in book.readings {
            if reading.ending?.outcome == .finished, let date = reading.ending?.date, date <= time {
                place.finished = true
            }
            for entry in try reading.progress.wholeEntries(of: book.title) where entry.time <= time {
                fraction = max(fraction, entry.progress)
            }
        }
        place.fraction = place.finished == true ? 1 : fraction
        if let pages = book.pages { place.page = Int(((place.fraction ?? 0) * Double(pages)).rounded()) }
        return place
    }

    /// The furthest place a highlight may reveal: where its reader was when they made it, or its own
    /// page when that is further (a passage marked before the progress was logged).
    public static func place(of highlight: Highlight, in book: Book, at position: ClubPosition) -> ClubPosition {
        guard let page = highlight.page, let pages = book.pages, pages > 0 else { return position }
        let own = ClubPosition(
            page: page, pages: pages, isbn: book.isbn.flatMap(ISBN.matchKey),
            fraction: min(1, Double(page) / Double(pages)))
        return position.furthest(own)
    }
}
