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
        var lines: [TerminalText] = []
        lines.reserveCapacity(rows.count)
        layOut(width: width, style: style) { lines.append(TerminalText(layout: String(decoding: $0, as: UTF8.self))) }
        return lines
    }

    /// Column widths cut to fit `width` with two spaces between columns: the widest flexible column
    /// gives way first, a column at a time, down to `minimumWidth`.
    static func fitted(_ widths: [Int], flexibleColumns: [Int], width: Int) -> [Int] {
        var widths = widths
        var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - width
        while excess > 0,
            let widest = flexibleColumns.filter({ widths[$0] > minimumWidth }).max(by: { widths[$0] < widths[$1] })
        {
            let others = flexibleColumns.filter { $0 != widest }.map { widths[$0] }.max() ?? minimumWidth
            let cut = min(excess, widths[widest] - max(minimumWidth, min(others, widths[widest] - 1)))
            widths[widest] -= max(cut, 1)
            excess -= max(cut, 1)
        }
        return widths
    }

    /// Lays out each line in UTF-8, trailing spaces cut, and gives it to `emit`.
    private func layOut(
        width: Int?, style: (_ column: Int, _ text: TerminalText) -> TerminalText, emit: (ArraySlice<UInt8>) -> Void
    ) {
        guard let columns = rows.map({ $0.count }).max(), columns > 0 else { return }
        let cells =
            rows.allSatisfy { $0.count == columns }
            ? rows : rows.map { row in (0..<columns).map { row.indices.contains($0) ? row[$0] : "" } }
        // Row by row in one array: the width of row r's column c is at r * columns + c.
        var cellWidths: [Int] = []
        cellWidths.reserveCapacity(cells.count * columns)
        var widths = [Int](repeating: 0, count: columns)
        for row in cells {
            for (column, cell) in row.enumerated() {
                let width = cell.displayWidth
                cellWidths.append(width)
                widths[column] = max(widths[column], width)
            }
        }
        let wraps = wrapsLastColumn && width != nil
        if wraps { widths[columns - 1] = min(widths[columns - 1], Self.minimumWrapWidth) }
        if let width { widths = Self.fitted(widths, flexibleColumns: flexibleColumns, width: width) }
        let lastStart = widths.dropLast().reduce(0, +) + 2 * (columns - 1)
        if wraps, let width { widths[columns - 1] = max(Self.minimumWrapWidth, width - lastStart) }
        // Each line is made in one buffer of UTF-8 (appending strings to a string costs several times
        // more): padding and separators are held back until text follows them, so that a line ends
        // where its last text does.
        var line: [UInt8] = []
        line.reserveCapacity(lastStart + 64)
        // Looked up twice a cell: an array, not the set's hashing.
        let alignsRight = (0..<columns).map(rightAligned.contains)
        for index in cells.indices {
            var continuation: [TerminalText] = []
            line.removeAll(keepingCapacity: true)
            var held = 0
            func append(_ text: String) {
                guard !text.isEmpty else { return }
                line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: held))
                held = 0
                line.append(contentsOf: text.utf8)
            }
            for column in 0..<columns {
                if column > 0 { held += 2 }
                var cell = cells[index][column]
                var cellWidth = cellWidths[index * columns + column]
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
                if alignsRight[column] { held += padding }
                append(style(column, cell).string)
                // The last column is not padded: a long note on one row costs the other rows nothing.
                if !alignsRight[column] && column < columns - 1 { held += padding }
            }
            // A cell's own text may end in spaces.
            emit(line[...].droppingTrailingSpaces)
            for text in continuation { emit(Array(text.string.utf8)[...].droppingTrailingSpaces) }
        }
    }
}

extension ArraySlice<UInt8> {
    /// The UTF-8 without the spaces it ends in.
    fileprivate var droppingTrailingSpaces: ArraySlice<UInt8> {
        var end = endIndex
        while end > startIndex, self[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return self[..<end]
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
