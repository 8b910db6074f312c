#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where new ids come from. The core makes none itself: the CLI hands in random ones, and a test
/// its own.
public struct IDSource: Sendable {
    private let next: @Sendable () -> UUID

    public init(_ next: @escaping @Sendable () -> UUID) {
        self.next = next
    }

    /// The id of a new reading or progress entry.
    public func uuid() -> UUID { next() }

    /// 32 lowercase hex digits: the id of a new book, club, state or snapshot generation.
    public func hex() -> String { next().uuidString.replacing("-", with: "").lowercased() }
}
