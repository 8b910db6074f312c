/// Damerau–Levenshtein distance (a swap of two letters side by side is one edit, as a typo is), used
/// for "Did you mean ...?" suggestions.
public enum EditDistance {
    public static func between(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // The optimal string alignment distance: three rows, the one before the previous for swaps.
        var beforePrevious = Array(repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] =
                    a[i - 1] == b[j - 1]
                    ? previous[j - 1]
                    : min(previous[j], current[j - 1], previous[j - 1]) + 1
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }

    /// The candidate `word` begins (the shortest, when several do), else the closest with a distance
    /// below `limit`, or nil: `prog` is `progress`, `--verison` is `--version`.
    public static func closest(to word: String, in candidates: [String], below limit: Int) -> String? {
        let lowered = word.lowercased()
        if lowered.count >= 2, lowered.trimmingPrefixDashes.count >= 2,
            let begun = candidates.filter({ $0.lowercased().hasPrefix(lowered) && $0.count > word.count })
                .min(by: { $0.count < $1.count })
        {
            return begun
        }
        return
            candidates
            .map { (candidate: $0, distance: between(lowered, $0.lowercased())) }
            .filter { $0.distance < limit }
            .min { $0.distance < $1.distance }?
            .candidate
    }
}

extension String {
    fileprivate var trimmingPrefixDashes: Substring { drop { $0 == "-" } }
}
