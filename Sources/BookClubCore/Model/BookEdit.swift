/// A change to a book's own fields, as `edit` gives it. `nil` leaves a field as it is; for a field
/// that may be empty, `.some(nil)` clears it.
public struct BookEdit: Equatable, Sendable {
    public var title: String?
    public var author: String??
    public var pages: Int??
    public var isbn: String??
    public var coverName: String??
    public var format: Book.Format??
    /// An audiobook's length, in minutes.
    public var length: Int??
    public var addTags: [String]
    public var removeTags: [String]
    /// Goes to the latest reading's ending when it has one, else to the book.
    public var rating: Double??
    public var review: String??

    public init(
        title: String? = nil, author: String?? = nil, pages: Int?? = nil, isbn: String?? = nil,
        coverName: String?? = nil, addTags: [String] = [], removeTags: [String] = [], rating: Double?? = nil,
        review: String?? = nil, format: Book.Format?? = nil, length: Int?? = nil
    ) {
        self.format = format
        self.length = length
        self.title = title
        self.author = author
        self.pages = pages
        self.isbn = isbn
        self.coverName = coverName
        self.addTags = addTags
        self.removeTags = removeTags
        self.rating = rating
        self.review = review
    }
}
