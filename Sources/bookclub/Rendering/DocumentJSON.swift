/// What `manual --json` and `completions --json` print: the document whole, as one string.
struct DocumentJSON: Encodable {
    /// `bookclub.1`, or the shell the script is for.
    var name: String
    var text: String
}

/// What `cover --json` prints: where the book's cover is cached.
struct CoverJSON: Encodable {
    var book: String
    var path: String
}

/// What `covers --json` prints: the covers linked this time, and those left.
struct CoversJSON: Encodable {
    var linked: Int
    var missing: Int
    var left: Int
}
