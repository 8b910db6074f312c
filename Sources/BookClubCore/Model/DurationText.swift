/// Lengths of time as readers write them: an audiobook's length, `11:40`, `11h40m`, `11h`, `40m`.
public enum DurationText {
    /// A place in an audiobook: `3:25`, `3h25m`, `45m` (a bare number is a page); `0:00` is its start.
    public static func place(parsing text: String) -> Int? {
        let text = text.lowercased().filter { !$0.isWhitespace }
        guard text.contains(":") || text.hasSuffix("h") || text.hasSuffix("m") || text.hasSuffix("min") else {
            return nil
        }
        if text.allSatisfy({ $0 == "0" || $0 == ":" || $0 == "h" || $0 == "m" }), text.contains("0") { return 0 }
        return minutes(parsing: text)
    }

    /// "3:25", as a place in an audiobook is written.
    public static func clock(_ minutes: Int) -> String {
        "\(minutes / 60):" + String(minutes % 60).zeroPadded(to: 2)
    }

    /// Minutes from `H:MM`, `HhMMm` (either part alone), or a number of minutes; `nil` for anything
    /// else, for no time at all, or for more than `Book.lengths` allows.
    public static func minutes(parsing text: String) -> Int? {
        let text = text.lowercased().filter { !$0.isWhitespace }
        guard !text.isEmpty, text.count <= 16 else { return nil }
        var minutes: Int?
        if let colon = text.firstIndex(of: ":") {
            guard let hours = Int(text[..<colon]), let rest = Int(text[text.index(after: colon)...]), hours >= 0,
                (0...59).contains(rest), text[text.index(after: colon)...].count == 2
            else { return nil }
            minutes = hours * 60 + rest
        } else if text.hasSuffix("h") || text.hasSuffix("m") || text.hasSuffix("min") {
            var hours = 0
            var rest = Substring(text)
            if let h = rest.firstIndex(of: "h") {
                guard let value = Int(rest[..<h]), value >= 0 else { return nil }
                hours = value
                rest = rest[rest.index(after: h)...]
            }
            var tail = 0
            if !rest.isEmpty {
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard let value = Int(digits), ["m", "min"].contains(rest.dropFirst(digits.count)),
                    (0...59).contains(value) || hours == 0
                else { return nil }
                tail = value
            }
            minutes = hours * 60 + tail
        } else {
            minutes = Int(text)
        }
        guard let minutes, Book.lengths.contains(minutes) else { return nil }
        return minutes
    }

    /// "11 h 40 min", "40 min", "3 h".
    public static func describe(minutes: Int) -> String {
        let (hours, rest) = (minutes / 60, minutes % 60)
        if hours == 0 { return "\(rest) min" }
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }
}
