#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What bookclub keeps of Open Library: in `answers/`, what it knows of each ISBN asked about (or
/// that it knows nothing), and in `covers/`, the covers, each named by bookclub after the ISBN
/// (`9780441013593.jpg`), never after anything in an answer. Everything is good for 30 days, a
/// cover for ever; a file that cannot be read is as good as absent.
public struct OpenLibraryCache {
    /// The cache folder, `$XDG_CACHE_HOME/bookclub`.
    public let folder: String
    let fileSystem: FileSystem
    public static let lifetime: TimeInterval = 30 * 86_400

    public init(folder: String, fileSystem: FileSystem) {
        self.folder = folder
        self.fileSystem = fileSystem
    }

    /// Makes a request in its turn: a second after the last request of any bookclub ended, under a
    /// lock of its own held until this one has ended too (the time of which is kept in the cache
    /// folder), so that Open Library never sees two within a second, however long a request takes to
    /// start.
    ///
    /// - Parameters:
    ///   - now: the clock, read before the wait and after the request.
    ///   - sleep: waits so many seconds.
    public func inTurn<Result>(now: () -> Date, sleep: (Double) -> Void, _ request: () throws -> Result) throws
        -> Result
    {
        let unlock = try fileSystem.lock(folder + "/requests.lock", 60)
        defer { unlock() }
        let path = folder + "/last-request"
        if let data = try? fileSystem.read(path), let last = Double(String(decoding: data, as: UTF8.self).trimmed) {
            let wait = last + 1 - now().timeIntervalSince1970
            if wait > 0 { sleep(min(wait, 1)) }
        }
        defer { try? fileSystem.writeAtomically(path, Data(utf8: String(now().timeIntervalSince1970))) }
        return try request()
    }

    public var coversFolder: String { folder + "/covers" }

    private struct Answer: Codable {
        var fetched: Date
        /// `nil`: Open Library does not know the ISBN, or has no cover for it.
        var book: BookData?
    }

    /// What Open Library said of `isbn` less than 30 days before `now`: `.some(nil)` when it did
    /// not know it, `nil` when it was not asked (or too long ago).
    public func answer(for isbn: ISBN, now: Date) -> BookData?? {
        guard let data = try? fileSystem.read(answerPath(isbn)),
            let answer = JSONCoding.decodeLine(Answer.self, from: data), isFresh(answer.fetched, now: now)
        else { return nil }
        return .some(answer.book)
    }

    public func keep(_ book: BookData?, for isbn: ISBN, now: Date) throws {
        try fileSystem.writeAtomically(
            answerPath(isbn), try JSONCoding.encoder().encode(Answer(fetched: now.wholeSeconds, book: book)))
    }

    /// The name of the cover kept for `isbn`, if there is one.
    public func cover(for isbn: ISBN) -> String? {
        ["jpg", "png"].map { isbn.thirteen + "." + $0 }.first { (try? fileSystem.size(coverPath($0))) ?? nil != nil }
    }

    /// Whether the cover server had no cover for `isbn` less than 30 days before `now`.
    public func coverIsMissing(for isbn: ISBN, now: Date) -> Bool {
        guard let data = try? fileSystem.read(missingPath(isbn)),
            let answer = JSONCoding.decodeLine(Answer.self, from: data)
        else { return false }
        return isFresh(answer.fetched, now: now)
    }

    /// Keeps a cover (a JPEG or a PNG by its first bytes, else refused) and returns its name.
    public func keepCover(_ image: Data, for isbn: ISBN) throws -> String {
        guard let kind = OpenLibrary.imageExtension(image) else {
            throw BookClubError.badAnswer("The cover server sent something that is not a JPEG or PNG image")
        }
        let name = isbn.thirteen + "." + kind
        try fileSystem.writeAtomically(coverPath(name), image)
        return name
    }

    /// Keeps a cover's thumbnail, named as its cover is, in `covers/thumbnails/`.
    public func keepThumbnail(_ image: Data, for isbn: ISBN) throws {
        guard let kind = OpenLibrary.imageExtension(image) else {
            throw BookClubError.badAnswer("The cover server sent something that is not a JPEG or PNG image")
        }
        try fileSystem.writeAtomically(thumbnailPath(isbn.thirteen + "." + kind), image)
    }

    public func keepMissingCover(for isbn: ISBN, now: Date) throws {
        try fileSystem.writeAtomically(
            missingPath(isbn), try JSONCoding.encoder().encode(Answer(fetched: now.wholeSeconds, book: nil)))
    }

    /// The path of a cover bookclub named (`ISBN13.jpg` or `.png`); `nil` for any other name, so
    /// that a name from elsewhere never leads outside the covers folder.
    public func coverPath(ofName name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, ["jpg", "png"].contains(parts[1]), parts[0].count == 13,
            parts[0].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return coverPath(name)
    }

    /// The path of the thumbnail of a cover bookclub named; `nil` as for `coverPath(ofName:)`.
    public func thumbnailPath(ofName name: String) -> String? {
        coverPath(ofName: name).map { _ in thumbnailPath(name) }
    }

    private func coverPath(_ name: String) -> String { coversFolder + "/" + name }
    private func thumbnailPath(_ name: String) -> String { coversFolder + "/thumbnails/" + name }
    private func answerPath(_ isbn: ISBN) -> String { folder + "/answers/" + isbn.thirteen + ".json" }
    private func missingPath(_ isbn: ISBN) -> String { coversFolder + "/" + isbn.thirteen + ".missing" }

    private func isFresh(_ fetched: Date, now: Date) -> Bool {
        now.timeIntervalSince(fetched) < Self.lifetime && fetched.timeIntervalSince(now) < 86_400
    }
}
