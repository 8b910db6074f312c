import BookClubCore
import Foundation

@testable import bookclub

// The core makes no ids: its caller hands them in. These give a test that does not look at the ids
// the ones the CLI makes: entries and readings in the order they are made, the rest random.

extension IDSource {
    static let random = Services.randomIDs
}

extension Library {
    mutating func logProgress(
        _ value: ProgressValue, note: String?, at time: Date, bookID: Book.ID, reference: String
    ) throws -> ProgressOutcome {
        try logProgress(value, note: note, at: time, bookID: bookID, reference: reference, ids: .random)
    }

    mutating func end(
        _ outcome: Ending.Outcome, date: Date?, note: String?, rating: Double? = nil, review: String? = nil,
        bookID: Book.ID, reference: String
    ) throws -> Bool {
        try end(
            outcome, date: date, note: note, rating: rating, review: review, bookID: bookID, reference: reference,
            ids: .random)
    }

    mutating func reread(at time: Date, bookID: Book.ID, reference: String) throws {
        try reread(at: time, bookID: bookID, reference: reference, ids: .random)
    }

    mutating func apply(_ event: ReadingEvent, now: Date) throws -> EventOutcome {
        try apply(event, now: now, ids: .random)
    }

    mutating func apply(_ lines: [NumberedEvent], now: Date, timeZone: Zone, skipInvalid: Bool) throws -> BatchOutcome {
        try apply(lines, now: now, timeZone: timeZone, skipInvalid: skipInvalid, ids: .random)
    }
}

extension Reading {
    init(started: Date?, progress: ReadingProgress = ReadingProgress(), ending: Ending? = nil, resumed: [Ending]? = nil)
    {
        self.init(id: UUID(), started: started, progress: progress, ending: ending, resumed: resumed)
    }
}

extension ReadingProgress.Entry {
    init(progress: Double, page: Int? = nil, time: Date, note: String? = nil) {
        self.init(id: UUID(), progress: progress, page: page, time: time, note: note)
    }
}

extension ImportFile {
    init(_ data: Data, format: ImportFormat, path: String, now: Date, timeZone: Zone, makeID: () -> Book.ID) throws {
        try self.init(data, format: format, path: path, now: now, timeZone: timeZone, makeID: makeID, ids: .random)
    }
}

extension LibraryStorage {
    init(path: String, fileSystem: FileSystem) {
        self.init(path: path, fileSystem: fileSystem, ids: .random)
    }
}
