import BookClubCore

/// `import calibre LIBRARY --columns`: the custom columns, a line each, as the options name them.
enum CalibreColumnsText {
    /// `#read       Read        bool`: the label as `--read-column` takes it, the heading, the kind.
    static func table(_ columns: [CalibreLibrary.Column], width: Int?) -> [TerminalText] {
        let rows: [[TerminalText]] = columns.map { column in
            ["#\(column.label)", "\(column.name)", "\(column.datatype)"]
        }
        return Table(rows: rows, flexibleColumn: 1).render(width: width)
    }
}

/// The `--json` of `import calibre LIBRARY --columns`.
struct CalibreColumnsJSON: Encodable {
    struct Column: Encodable {
        var label: String
        var name: String
        var datatype: String
    }

    var columns: [Column]

    init(_ columns: [CalibreLibrary.Column]) {
        self.columns = columns.map { Column(label: $0.label, name: $0.name, datatype: $0.datatype) }
    }
}
