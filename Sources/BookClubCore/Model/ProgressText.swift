#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How progress reads in text: "p. 206 of 412 (50%)", "3:25 of 16:10 (21%)", "45%", "finished".
public enum ProgressText {
    public static func describe(_ book: Book) -> String {
        switch book.status {
        case .unstarted: return "not started"
        case .finished: return "finished"
        case .abandoned: return "abandoned at " + percent(book.currentProgress)
        case .reading:
            // An audiobook's place is a time, whether it was logged as one or as a percent.
            if let listened = book.currentListened, let length = book.length {
                return
                    "\(DurationText.clock(listened)) of \(DurationText.clock(length)) (\(percent(book.currentProgress)))"
            }
            if let page = book.currentPage, let pages = book.pages {
                return "p. \(page) of \(pages) (\(percent(book.currentProgress)))"
            }
            return percent(book.currentProgress)
        }
    }

    /// "p. 120" for an entry logged as a page, "3:25" for one logged as a time, else "45%".
    public static func place(_ entry: ReadingProgress.Entry) -> String {
        if let page = entry.page { return "p. \(page)" }
        if let listened = entry.listened { return DurationText.clock(listened) }
        return percent(entry.progress)
    }

    public static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        if value > 0 && value < 1 { return "<1%" }
        if value > 99 && value < 100 { return ">99%" }
        return String(Int(value.rounded())) + "%"
    }
}
