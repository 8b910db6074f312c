/// Levenshtein distance, used for "Did you mean ...?" suggestions.
public enum EditDistance {
    public static func between(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] =
                    a[i - 1] == b[j - 1]
                    ? previous[j - 1]
                    : min(previous[j], current[j - 1], previous[j - 1]) + 1
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The closest candidate with a distance below `limit`, or nil.
    public static func closest(to word: String, in candidates: [String], below limit: Int) -> String? {
        candidates
            .map { (candidate: $0, distance: between(word, $0)) }
            .filter { $0.distance < limit }
            .min { $0.distance < $1.distance }?
            .candidate
    }
}
