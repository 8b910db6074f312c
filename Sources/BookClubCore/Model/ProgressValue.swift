#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A progress value as typed: a page (`120`), a percent (`45%`) or pages read since the latest entry (`+20`).
public enum ProgressValue: Equatable, Sendable {
    case page(Int)
    case percent(Double)
    case relative(Int)
    /// A place in an audiobook, in minutes from its start (`3:25`, `3h25m`).
    case time(Int)

    /// Why a string is not a progress value; `nil` when it is one.
    public static func problem(with text: String) -> String? {
        ProgressValue(parsing: text) == nil
            ? "expected a page (120), a percent (45%), pages since the last entry (+20) or, in an audiobook, a time (3:25)"
            : nil
    }

    /// Parses `120`, `45%`, `45.5%` or `+20`; `nil` for anything else, including out-of-range numbers.
    public init?(parsing text: String) {
        let text = text.trimmed
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent.isFinite, (0...100).contains(percent) else {
                return nil
            }
            self = .percent(percent)
        } else if let minutes = DurationText.place(parsing: text) {
            self = .time(minutes)
        } else if text.hasPrefix("+") {
            guard let pages = Int(text.dropFirst()), pages >= 0, pages <= 1_000_000, !text.dropFirst().hasPrefix("+")
            else { return nil }
            self = .relative(pages)
        } else {
            guard let page = Int(text), page >= 0, page <= 1_000_000 else { return nil }
            self = .page(page)
        }
    }

    /// The fraction and (when one was given or counted) the page this value means for a book;
    /// `+N` counts from the page of `previous`, the entry it follows.
    func resolve(for book: Book, after previous: ReadingProgress.Entry?, reference: String) throws -> (
        fraction: Double, page: Int?, listened: Int?
    ) {
        switch self {
        case .time(let minutes):
            guard let length = book.length else {
                throw BookClubError.needsLength(title: book.title, reference: reference)
            }
            guard minutes <= length else {
                throw BookClubError.timeOutOfRange(
                    time: DurationText.clock(minutes), title: book.title, length: DurationText.describe(minutes: length)
                )
            }
            return (Double(minutes) / Double(length), nil, minutes)
        case .percent(let percent):
            return (percent / 100, nil, nil)
        case .page(let page):
            let pages = try pageCount(of: book, reference: reference)
            guard page <= pages else { throw BookClubError.pageOutOfRange(page: page, title: book.title, pages: pages) }
            return (Double(page) / Double(pages), page, nil)
        case .relative(let delta):
            let pages = try pageCount(of: book, reference: reference)
            let base = previous.map { $0.page ?? Int(($0.progress * Double(pages)).rounded()) } ?? 0
            let page = base + delta
            guard page <= pages else { throw BookClubError.pageOutOfRange(page: page, title: book.title, pages: pages) }
            return (Double(page) / Double(pages), page, nil)
        }
    }

    private func pageCount(of book: Book, reference: String) throws -> Int {
        guard let pages = book.pages, pages > 0 else {
            throw BookClubError.needsPageCount(title: book.title, reference: reference)
        }
        return pages
    }
}
