import BookClubCore

extension String {
    /// A reference as it would be typed in a shell: bare when safe, else single-quoted.
    var shellWord: String {
        let text = self
        // Control characters and bidirectional marks go in ANSI-C quotes (bash, zsh and ksh
        // read `$'\u202e'`), so that the word is safe to print and still the same when pasted.
        if text.unicodeScalars.contains(where: \.isTerminalUnsafe) {
            var quoted = "$'"
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\", "'": quoted += "\\" + String(scalar)
                case _ where scalar.isTerminalUnsafe:
                    let hex = String(scalar.value, radix: 16)
                    quoted += scalar.value < 0x80 ? "\\x" + hex.zeroPadded(to: 2) : "\\u" + hex.zeroPadded(to: 4)
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "'"
        }
        let safe = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "-_.+%@:,=/".contains($0) }
        return safe ? text : text.shellQuoted
    }
}
