#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything the core refuses, with a message that names the fix.
///
/// The CLI maps each case to an exit code (see `kind`).
public enum BookClubError: Error, Equatable, Sendable {
    case bookNotFound(String)
    case ambiguousBook(String, candidates: [Candidate])
    /// `remove` (which takes no guess) given part of a title: the book it would have matched.
    case notWholeTitle(String, candidate: Candidate)
    case noSelection
    /// The scene's selected book is no longer in the store.
    case selectionGone
    /// No club was named and none is selected.
    case noClubSelected
    /// A rule read more than the latest entry of a book loaded without its history: an operation
    /// that did not ask for what it reads (a bug, found by the tests).
    case historyNotLoaded(title: String)
    case clubNotFound(String)
    case ambiguousClub(String, candidates: [String])
    case meetingNotFound(club: String, reference: String)
    case noUpcomingBook(club: String)
    case duplicateClub(String)
    case finished(title: String, reference: String)
    case abandoned(title: String, reference: String)
    case notEnded(title: String, reference: String)
    case notFinished(title: String, reference: String)
    /// A finish or abandon dated before the reading started.
    case endsBeforeStart(title: String, outcome: String, date: Date, started: Date)
    case needsPageCount(title: String, reference: String)
    case pageOutOfRange(page: Int, title: String, pages: Int)
    /// A time logged on a book without a length.
    case needsLength(title: String, reference: String)
    /// A time (`3:25`) past an audiobook's length (`16 h 10 min`).
    case timeOutOfRange(time: String, title: String, length: String)
    case pagesBelowEntry(title: String, page: Int, pages: Int)
    case duplicateTitle(String)
    case invalidSetting(key: String, value: String, expected: String)
    case unknownSetting(String, suggestion: String?)
    case corruptFile(path: String, detail: String)
    /// A line of a `log --stdin` batch that cannot be applied; the batch is rejected.
    case invalidBatch(line: Int, reason: String)
    case newerSchema(path: String, found: Int, supported: Int)
    /// A file to import that cannot be read as its format; `line` is where (the header is line 1), when known.
    case badImport(path: String, line: Int?, detail: String)
    case io(path: String, cause: String)
    /// `import calibre --read-column LABEL` (or `--date-read-column`) naming a custom column the library
    /// does not have (`problem` nil), or one of the wrong kind; `known` lists the library's columns.
    case noCustomColumn(library: String, label: String, problem: String?, known: [String])
    case storeBusy(lockPath: String, seconds: Double)
    /// SIGINT or SIGTERM came before the change was committed: nothing was saved.
    case interrupted(signal: Int32, detail: String)
    /// A service bookclub needs (the network, `curl`, `sqlite3`) is not there; the reason says which.
    case unavailable(String)
    /// A program bookclub runs is not there or cannot be started; the cause says why.
    case cannotStart(program: String, cause: String)
    /// An answer from the network that is not what the service sends.
    case badAnswer(String)
    /// A club cannot do what was asked; the reason says why and what to do.
    case clubRefused(String)
    /// `undo` when the last change came from another machine by sync.
    case syncedChange(summary: String)

    /// How the CLI should treat the error.
    public enum Kind: Equatable, Sendable {
        /// A valid request that cannot be done (exit 1).
        case rejected
        /// A data file that cannot be read or is of a newer schema (exit 65).
        case dataFile
        /// Reading or writing a file failed (exit 74).
        case io
        /// The store stayed locked past the timeout (exit 75).
        case busy
        /// Stopped by a signal (exit 128 + the signal).
        case interrupted(signal: Int32)
        /// A service bookclub needs is unavailable (exit 69).
        case unavailable
    }

    public var kind: Kind {
        switch self {
        case .corruptFile, .newerSchema, .invalidBatch, .badImport: .dataFile
        case .io: .io
        case .storeBusy: .busy
        case .interrupted(let signal, _): .interrupted(signal: signal)
        case .unavailable, .badAnswer, .cannotStart: .unavailable
        default: .rejected
        }
    }
}

extension BookClubError {
    /// A book a reference matched, as an error lists it.
    public struct Candidate: Equatable, Sendable {
        public var id: String
        public var title: String
        public var author: String?
        public var added: Date?

        public init(id: String, title: String, author: String? = nil, added: Date? = nil) {
            (self.id, self.title, self.author, self.added) = (id, title, author, added)
        }

        /// "Emma by Jane Austen, added 2019 (5f2c0a8e)", with `idLength` digits of the id.
        func text(idLength: Int = 8, in timeZone: Zone) -> String {
            title + (author.map { " by \($0)" } ?? "") + (added.map { ", added \(timeZone.local($0).year)" } ?? "")
                + " (\(id.prefix(idLength)))"
        }

        /// The id digits that tell `candidates` apart: 8, or more when 8 do not.
        static func idLength(_ candidates: [Candidate]) -> Int {
            var length = 8
            while length < 32, Set(candidates.map { $0.id.prefix(length) }).count < candidates.count { length += 1 }
            return length
        }
    }

    /// Whether this is an answer from the network that is not what the service sends.
    public var isBadAnswer: Bool {
        if case .badAnswer = self { return true }
        return false
    }
}

extension BookClubError: LocalizedError {
    public var errorDescription: String? { message(in: .utc) }

    /// The message, with any date in it shown in `timeZone`.
    public func message(in timeZone: Zone) -> String {
        switch self {
        case .bookNotFound(let reference):
            "No book matches '\(reference)'. See `bookclub list --all`."
        case .ambiguousBook(let reference, let candidates):
            "'\(reference)' matches \(candidates.count) books: "
                + candidates.map { $0.text(idLength: Candidate.idLength(candidates), in: timeZone) }.joined(
                    separator: "; ")
                + (Set(candidates.map { $0.title.lowercased() }).count == 1
                    ? ". Use the id." : ". Use more of the title or the id.")
        case .notWholeTitle(let reference, let candidate):
            "'\(reference)' is not a whole title; it names \(candidate.text(in: timeZone)). To remove it, give its whole title or its id."
        case .clubNotFound(let reference):
            "No club matches '\(reference)'. See `bookclub club list`."
        case .ambiguousClub(let reference, let candidates):
            "'\(reference)' matches \(candidates.count) clubs: \(candidates.joined(separator: "; ")). Use more of the name or the id."
        case .meetingNotFound(let club, let reference):
            "\(club) has no meeting '\(reference)'. See `bookclub club meetings '\(club)' --past`."
        case .noUpcomingBook(let club):
            "\(club) has no upcoming meeting with a book. Plan one with `bookclub club meeting '\(club)' --date WHEN --book BOOK`."
        case .duplicateClub(let name):
            "A club named '\(name)' is already there."
        case .noSelection:
            "No book given and none selected. Name a book, or select one with `bookclub select BOOK`."
        case .selectionGone:
            "The selected book is no longer in the store. Name a book, or select one with `bookclub select BOOK`."
        case .noClubSelected:
            "No club given and none selected. Name a club, or select one with `bookclub select --club CLUB`."
        case .historyNotLoaded(let title):
            "The history of '\(title)' was not loaded, and this needs it; nothing was changed. This is a bug in bookclub: please report it."
        case .finished(let title, let reference):
            "'\(title)' is finished; run `bookclub unfinish \(reference)` to log more progress, or `bookclub reread \(reference)` to start again."
        case .abandoned(let title, let reference):
            "'\(title)' was abandoned; run `bookclub unfinish \(reference)` to resume it, or `bookclub reread \(reference)` to start again."
        case .notEnded(let title, let reference):
            "'\(title)' is not finished or abandoned; run `bookclub finish \(reference)` first."
        case .notFinished(let title, _):
            "'\(title)' is neither finished nor abandoned."
        case .endsBeforeStart(let title, let outcome, let date, let started):
            "'\(title)' cannot be \(outcome) on \(DateText.minute(date, timeZone: timeZone)): this reading started on "
                + "\(DateText.minute(started, timeZone: timeZone)). Give a --date after the start."
        case .needsPageCount(let title, let reference):
            "'\(title)' has no page count; log a percent (45%) or set it with `bookclub edit \(reference) --pages N`."
        case .needsLength(let title, let reference):
            "'\(title)' has no length to place a time in; set it with `bookclub edit \(reference) --length 11:40`, or log a percent (45%)."
        case .timeOutOfRange(let time, let title, let length):
            "\(time) is past the end of '\(title)' (\(length))."
        case .pageOutOfRange(let page, let title, let pages):
            "Page \(page) is past the end of '\(title)' (\(NumberText.count(pages, "page")))."
        case .pagesBelowEntry(let title, let page, let pages):
            "'\(title)' has an entry at p. \(page); a page count of \(pages) would put it past the end."
        case .duplicateTitle(let title):
            "A book titled '\(title)' by the same author is already there."
        case .invalidSetting(let key, let value, let expected):
            "'\(value)' is not a valid value for \(key): expected \(expected)."
        case .unknownSetting(let key, let suggestion):
            "Unknown setting '\(key)'"
                + (suggestion.map { ". Did you mean '\($0)'?" } ?? ". See `bookclub settings list`.")
        case .corruptFile(let path, let detail):
            "\(path): \(detail); the file was left untouched."
        case .invalidBatch(let line, let reason):
            "Standard input, line \(line): \(reason.hasSuffix(".") ? reason : reason + ".") Nothing was logged; fix the line, or give --skip-invalid to log the rest."
        case .newerSchema(let path, let found, let supported):
            "\(path): schema version \(found) is newer than this bookclub understands (\(supported)); upgrade bookclub. The file was left untouched."
        case .badImport(let path, let line, let detail):
            "\(path): " + (line.map { "line \($0): " } ?? "") + detail + "; nothing was imported."
        case .io(let path, let cause):
            "\(path): \(cause)"
        case .noCustomColumn(let library, let label, let problem, let known):
            "\(library): \(problem.map { "the custom column \(label): \($0)" } ?? "no custom column \(label)")"
                + (known.isEmpty
                    ? "; it has no custom columns" : "; its custom columns: \(known.joined(separator: ", "))")
                + ". Nothing was imported."
        case .storeBusy(let lockPath, let seconds):
            "The store is busy: another bookclub held \(lockPath) for more than \(Self.format(seconds)) s. Try again."
        case .interrupted(_, let detail):
            "Interrupted; " + detail
        case .syncedChange(let summary):
            "The last change came from another machine by sync (\(summary)); undo takes back this machine's own commands only."
        case .unavailable(let reason), .clubRefused(let reason):
            reason.hasSuffix(".") ? reason : reason + "."
        case .cannotStart(let program, let cause):
            "Cannot start \(program): \(cause)."
        case .badAnswer(let detail):
            "\(detail); the answer was not used."
        }
    }

    private static func format(_ seconds: Double) -> String {
        NumberText.short(seconds, decimals: 3)
    }
}
