import BookClubCore

/// What Open Library knows of an ISBN, as `lookup --json` prints it.
struct BookDataJSON: Encodable {
    var isbn: String
    var title: String
    var authors: [String]
    var pages: Int?
    var published: String?
    var publishers: [String]
    var coverID: Int?

    init(isbn: ISBN, _ book: BookData) {
        self.isbn = isbn.digits
        title = book.title
        authors = book.authors
        pages = book.pages
        published = book.published
        publishers = book.publishers
        coverID = book.coverID
    }
}

/// What Open Library knows of an ISBN, as `lookup` prints it: the title, then a line each for who
/// wrote it, its pages and its edition.
enum BookDataText {
    static func lines(isbn: ISBN, _ book: BookData, style: Style) -> [TerminalText] {
        var lines = [style.bold("\(book.title)")]
        if !book.authors.isEmpty { lines.append("by \(book.authors.joined(separator: ", "))") }
        let edition = [
            book.pages.map { NumberText.count($0, "page") }, book.published,
            book.publishers.isEmpty ? nil : book.publishers.joined(separator: ", "),
        ].compactMap { $0 }
        if !edition.isEmpty { lines.append("\(edition.joined(separator: " · "))") }
        lines.append(style.dim("ISBN \(isbn)" + (book.coverID == nil ? " · no cover" : " · has a cover")))
        return lines
    }
}
