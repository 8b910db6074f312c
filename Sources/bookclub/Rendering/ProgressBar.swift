/// A Unicode progress bar with eighth-block resolution: `██████▍░░░`.
enum ProgressBar {
    static func render(_ fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let eighths = Int((clamped * Double(width * 8)).rounded())
        let full = eighths / 8
        let partial = eighths % 8
        let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var bar = String(repeating: "█", count: full)
        if partial > 0 { bar.append(partials[partial - 1]) }
        return bar + String(repeating: "░", count: width - bar.count)
    }
}
