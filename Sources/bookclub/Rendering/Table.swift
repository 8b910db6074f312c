/// Text columns aligned for a terminal: each column as wide as its widest cell, and, when a width is
/// given, one flexible column cut (with `…`) so that a row fits it.
struct Table {
    var rows: [[String]]
    /// The column that gives way when rows are too wide; `nil`: nothing is ever cut.
    var flexibleColumn: Int?
    /// Columns aligned right (numbers).
    var rightAligned: Set<Int> = []

    /// - Parameters:
    ///   - width: the width to fit, or `nil` for no limit (output to a pipe).
    ///   - style: applied to each cell's text before it is padded.
    func render(width: Int?, style: (_ column: Int, _ text: String) -> String = { $1 }) -> [String] {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return [] }
        var widths = (0..<columns).map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        let total = widths.reduce(0, +) + 2 * (columns - 1)
        if let width, let flexible = flexibleColumn, total > width {
            widths[flexible] = max(8, widths[flexible] - (total - width))
        }
        return rows.map { row in
            (0..<columns).map { column in
                let cell = Self.fit(row.indices.contains(column) ? row[column] : "", widths[column])
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let styled = style(column, cell)
                return rightAligned.contains(column) ? padding + styled : styled + (column == columns - 1 ? "" : padding)
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
    }

    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
