#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where new ids come from. The core makes none itself: the CLI hands them in, and a test its own.
public struct IDSource: Sendable {
    private let ordered: @Sendable () -> UUID
    private let random: @Sendable () -> UUID

    /// - Parameters:
    ///   - ordered: the ids of readings and entries, each after the one before it (as UUIDs compare
    ///     byte by byte), however many processes make them: entries of the same second are listed
    ///     by id (`ReadingProgress.Entry.precedes`).
    ///   - random: the ids of books, clubs, states and generations, whose first digits name them.
    public init(ordered: @escaping @Sendable () -> UUID, random: @escaping @Sendable () -> UUID) {
        (self.ordered, self.random) = (ordered, random)
    }

    /// Both kinds from one source, which must then make them in order.
    public init(_ next: @escaping @Sendable () -> UUID) {
        self.init(ordered: next, random: next)
    }

    /// The id of a new reading or progress entry.
    public func uuid() -> UUID { ordered() }

    /// 32 lowercase hex digits: the id of a new book, club, state or snapshot generation.
    public func hex() -> String { random().uuidString.replacing("-", with: "").lowercased() }
}
