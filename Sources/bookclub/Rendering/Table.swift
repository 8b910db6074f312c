import BookClubCore

/// Text columns aligned for a terminal: each column as wide as its widest cell in terminal columns
/// (`displayWidth`: a CJK character or an emoji takes two), and, when a width is given, the flexible
/// columns cut (with `…`) so that a row fits it. Cells are text for people, a value's control
/// characters shown (and measured) as `\u{1B}`.
struct Table {
    var rows: [[TerminalText]]
    /// The columns that give way when rows are too wide, the widest first; empty: nothing is ever cut.
    var flexibleColumns: [Int] = []
    /// Columns aligned right (numbers).
    var rightAligned: Set<Int> = []
    /// Whether the last column (a note, a description) wraps at word boundaries under itself when a
    /// width is given, rather than being cut.
    var wrapsLastColumn = false

    init(
        rows: [[TerminalText]], flexibleColumn: Int? = nil, rightAligned: Set<Int> = [], wrapsLastColumn: Bool = false
    ) {
        self.init(
            rows: rows, flexibleColumns: flexibleColumn.map { [$0] } ?? [], rightAligned: rightAligned,
            wrapsLastColumn: wrapsLastColumn)
    }

    init(
        rows: [[TerminalText]], flexibleColumns: [Int], rightAligned: Set<Int> = [], wrapsLastColumn: Bool = false
    ) {
        (self.rows, self.flexibleColumns, self.rightAligned, self.wrapsLastColumn) = (
            rows, flexibleColumns, rightAligned, wrapsLastColumn
        )
    }

    /// The narrowest a wrapping last column is made.
    static let minimumWrapWidth = 20

    /// The narrowest a flexible column is cut to.
    static let minimumWidth = 8

    /// - Parameters:
    ///   - width: the width to fit, or `nil` for no limit (output to a pipe).
    ///   - style: applied to each cell's text before it is padded.
    func render(width: Int?, style: (_ column: Int, _ text: TerminalText) -> TerminalText = { $1 }) -> [TerminalText] {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return [] }
        let cells = rows.map { row in (0..<columns).map { row.indices.contains($0) ? row[$0] : "" } }
        let cellWidths = cells.map { $0.map(\.displayWidth) }
        var widths = (0..<columns).map { column in cellWidths.map { $0[column] }.max() ?? 0 }
        let wraps = wrapsLastColumn && width != nil
        if wraps { widths[columns - 1] = min(widths[columns - 1], Self.minimumWrapWidth) }
        if let width {
            var excess = widths.reduce(0, +) + 2 * (columns - 1) - width
            // The widest flexible column gives way first, a column at a time, down to the minimum.
            while excess > 0,
                let widest = flexibleColumns.filter({ widths[$0] > Self.minimumWidth }).max(by: {
                    widths[$0] < widths[$1]
                })
            {
                let others = flexibleColumns.filter { $0 != widest }.map { widths[$0] }.max() ?? Self.minimumWidth
                let cut = min(excess, widths[widest] - max(Self.minimumWidth, min(others, widths[widest] - 1)))
                widths[widest] -= max(cut, 1)
                excess -= max(cut, 1)
            }
        }
        let lastStart = widths.dropLast().reduce(0, +) + 2 * (columns - 1)
        if wraps, let width { widths[columns - 1] = max(Self.minimumWrapWidth, width - lastStart) }
        // Each line is made in one string: padding and separators are held back until text follows
        // them, so that a line ends where its last text does.
        let blank = String(repeating: " ", count: 64)
        return cells.indices.flatMap { index in
            var continuation: [TerminalText] = []
            var line = ""
            line.reserveCapacity(lastStart + 32)
            var held = 0
            func append(_ text: String) {
                guard !text.isEmpty else { return }
                while held > 0 {
                    line += blank[..<blank.utf8.index(blank.startIndex, offsetBy: min(held, 64))]
                    held -= min(held, 64)
                }
                line += text
            }
            for column in 0..<columns {
                if column > 0 { held += 2 }
                var cell = cells[index][column]
                var cellWidth = cellWidths[index][column]
                if wraps && column == columns - 1 {
                    var lines = TextWrapping.wrap(cell, width: widths[column]).lines
                    cell = lines.removeFirst()
                    continuation = lines.map { .spaces(lastStart) + style(column, $0) }
                    append(style(column, cell).string)
                    continue
                }
                if cellWidth > widths[column] {
                    cell = cell.truncated(toWidth: widths[column])
                    cellWidth = cell.displayWidth
                }
                let padding = max(0, widths[column] - cellWidth)
                if rightAligned.contains(column) { held += padding }
                append(style(column, cell).string)
                // The last column is not padded: a long note on one row costs the other rows nothing.
                if !rightAligned.contains(column) && column < columns - 1 { held += padding }
            }
            // A cell's own text may end in spaces.
            if line.utf8.last == UInt8(ascii: " ") { line = line.trimmingTrailingSpaces }
            return [TerminalText(layout: line)] + continuation.map(\.trimmingTrailingSpaces)
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension TerminalText {
    var trimmingTrailingSpaces: TerminalText {
        TerminalText(layout: string.trimmingTrailingSpaces)
    }
}
