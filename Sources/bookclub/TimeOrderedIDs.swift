import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// UUIDs of version 7 (RFC 9562): the Unix time in milliseconds, then a counter that orders the ids
/// of one millisecond (the RFC's method 1), then random bits. Each is greater than the one before it
/// in this process, and than any made in an earlier process of this machine's clock, so entries of the
/// same second sort in the order they were made (`ReadingProgress.Entry.precedes`).
final class TimeOrderedIDs: Sendable {
    static let shared = TimeOrderedIDs()

    /// The millisecond and the counter of the last id made.
    private let last = Mutex<(milliseconds: UInt64, counter: UInt16)>((0, 0))

    @Sendable func next() -> UUID {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1_000))
        let (milliseconds, counter) = last.withLock { last in
            if now > last.milliseconds {
                last = (now, 0)
            } else if last.counter < 0xFFF {
                last.counter += 1
            } else {
                // 4,096 ids in one millisecond: the next millisecond's first.
                last = (last.milliseconds + 1, 0)
            }
            return last
        }
        var random = SystemRandomNumberGenerator()
        let tail = random.next() as UInt64
        let bytes: [UInt8] = [
            UInt8(truncatingIfNeeded: milliseconds >> 40), UInt8(truncatingIfNeeded: milliseconds >> 32),
            UInt8(truncatingIfNeeded: milliseconds >> 24), UInt8(truncatingIfNeeded: milliseconds >> 16),
            UInt8(truncatingIfNeeded: milliseconds >> 8), UInt8(truncatingIfNeeded: milliseconds),
            0x70 | UInt8(counter >> 8), UInt8(truncatingIfNeeded: counter),
            0x80 | UInt8(truncatingIfNeeded: tail >> 56) & 0x3F, UInt8(truncatingIfNeeded: tail >> 48),
            UInt8(truncatingIfNeeded: tail >> 40), UInt8(truncatingIfNeeded: tail >> 32),
            UInt8(truncatingIfNeeded: tail >> 24), UInt8(truncatingIfNeeded: tail >> 16),
            UInt8(truncatingIfNeeded: tail >> 8), UInt8(truncatingIfNeeded: tail),
        ]
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
