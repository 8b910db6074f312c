/// Numbers as people write them: `10`, not `10.0`; `35.9`; `0.25`.
public enum NumberText {
    /// "1 day", "3 days"; "2 entries" with a `plural` given.
    public static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// `value` rounded to at most `decimals` places, with no trailing zeros; `0` for a value that is not
    /// finite, and Swift's own writing for one too large for whole digits (so that nothing traps).
    public static func short(_ value: Double, decimals: Int = 1) -> String {
        guard value.isFinite else { return "0" }
        let decimals = min(max(decimals, 0), 9)
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        guard abs(value) * Double(scale) < 9e15 else { return String(value) }
        let scaled = Int64((value * Double(scale)).rounded())
        let magnitude = scaled.magnitude
        var fraction = String(magnitude % UInt64(scale)).zeroPadded(to: decimals)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (scaled < 0 ? "-" : "") + String(magnitude / UInt64(scale)) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
