/// A Unicode progress bar with eighth-block resolution: `██████▍░░░`.
enum ProgressBar {
    static func render(_ fraction: Double, width: Int) -> String {
        render(eighths: eighths(fraction, width: width), width: width)
    }

    /// How many eighths of a block of a bar `width` blocks wide `fraction` fills: 0 to `8 * width`.
    static func eighths(_ fraction: Double, width: Int) -> Int {
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        return Int((clamped * Double(max(width, 0) * 8)).rounded())
    }

    static func render(eighths: Int, width: Int) -> String {
        guard width > 0 else { return "" }
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
