/// A Unicode progress bar with eighth-block resolution: `██████▍░░░`.
enum ProgressBar {
    static func render(_ fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let eighths = Int((clamped * Double(width * 8)).rounded())
        let (full, partial) = (eighths / 8, eighths % 8)
        // Each block is three bytes of UTF-8, E2 96 xx: █ is 88, ▏ to ▉ are 8F down to 89, ░ is 91.
        // Written as bytes, a table's every row costs a copy, not a string built a character at a time.
        return String(unsafeUninitializedCapacity: 3 * width) { bytes in
            for place in 0..<width {
                let last: UInt8 =
                    place < full ? 0x88 : place == full && partial > 0 ? 0x90 - UInt8(partial) : 0x91
                (bytes[3 * place], bytes[3 * place + 1], bytes[3 * place + 2]) = (0xE2, 0x96, last)
            }
            return 3 * width
        }
    }
}
