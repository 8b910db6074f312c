import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the commands that ask Open Library say of the `contact` setting.
enum OpenLibraryContact {
    static let request = """
        Open Library asks each client for a way to reach its user: give your own email or web address with \
        `bookclub settings set contact you@example.org`. Until you do, requests name bookclub and its version only.
        """
}

/// Open Library for the commands: answers and covers from the cache when it has them, else asked
/// for through `curl`, at most one request a second across every bookclub of the user. Never while
/// the store is locked: a command asks before it opens the library for writing.
struct OpenLibraryService {
    let cache: OpenLibraryCache
    let now: () -> Date
    /// The client, made when a request is to be sent: it fails when `updateArtwork` is off.
    let client: () throws -> OpenLibraryClient

    /// What Open Library knows of `isbn` (`nil`: nothing), kept from the last 30 days or asked for;
    /// `refresh` asks again.
    func lookUp(_ isbn: ISBN, refresh: Bool = false) throws -> BookData? {
        if !refresh, let kept = cache.answer(for: isbn, now: now()) { return kept }
        let server = try client()
        let book = try OpenLibrary.lookUp(isbn) { path in try server.fetch(path, from: .data) }
        try cache.keep(book, for: isbn, now: now())
        return book
    }

    /// The name of the cover of `isbn` in the cache, fetched the first time with its thumbnail; `nil`
    /// when Open Library has none (which is remembered for 30 days too).
    func cover(for isbn: ISBN) throws -> String? {
        if let name = cache.cover(for: isbn) { return name }
        guard !cache.coverIsMissing(for: isbn, now: now()) else { return nil }
        guard let id = try lookUp(isbn)?.coverID else { return nil }
        let server = try client()
        guard let image = try server.fetch(OpenLibrary.coverPath(id), from: .covers) else {
            try cache.keepMissingCover(for: isbn, now: now())
            return nil
        }
        let name = try cache.keepCover(image, for: isbn)
        // A thumbnail too, for pages that show many covers; without one they show none.
        if let thumbnail = try? server.fetch(OpenLibrary.thumbnailPath(id), from: .covers) {
            try? cache.keepThumbnail(thumbnail, for: isbn)
        }
        return name
    }
}

/// Requests to Open Library's two servers, each waiting its turn.
struct OpenLibraryClient {
    enum Server { case data, covers }

    let curl: Curl
    let dataURL: String
    let coversURL: String
    let answerLimit: Int
    let coverLimit: Int
    /// Where the turns of requests are kept.
    let cache: OpenLibraryCache
    let now: () -> Date
    let sleep: (Double) -> Void

    /// The answer to `path`, or `nil` for a 404. A redirect is followed, as a request of its own,
    /// only to the same server.
    func fetch(_ path: String, from server: Server) throws -> Data? {
        let base = server == .data ? dataURL : coversURL
        var url = base + path
        for _ in 0..<5 {
            let response = try cache.inTurn(now: now, sleep: sleep) {
                try curl.get(url, limit: server == .data ? answerLimit : coverLimit, service: "Open Library")
            }
            switch response.status {
            case 301, 302, 303, 307, 308:
                guard response.location.hasPrefix(base + "/") else {
                    throw BookClubError.badAnswer("Open Library sent bookclub to another server")
                }
                url = response.location
            default: return try body(response)
            }
        }
        throw BookClubError.badAnswer("Open Library redirected bookclub more than 5 times")
    }

    private func body(_ response: Curl.Response) throws -> Data? {
        switch response.status {
        case 200: return response.body
        case 404, 410: return nil
        case 403:
            throw BookClubError.unavailable(
                "Open Library refused the request (HTTP 403): it asks each client to say who it is; give your own address with `bookclub settings set contact you@example.org`"
            )
        case 429: throw BookClubError.unavailable("Open Library asks bookclub to slow down (HTTP 429); try again later")
        default: throw BookClubError.unavailable("Open Library answered HTTP \(response.status); try again later")
        }
    }
}

extension OpenLibraryClient {
    /// The client as the settings and the `BOOKCLUB_*_URL` variables say; refused when `updateArtwork` is off.
    init(settings: Settings, services: Services, cache: OpenLibraryCache) throws {
        guard settings.updateArtwork else {
            throw BookClubError.unavailable(
                "updateArtwork is off, so bookclub asks nothing of Open Library; turn it on with `bookclub settings set updateArtwork true`"
            )
        }
        func base(_ variable: String, _ fallback: String) throws -> String {
            guard let value = services.variables[variable], !value.isEmpty else { return fallback }
            guard value.hasPrefix("https://") || value.hasPrefix("http://") else {
                throw BookClubError.unavailable("\(variable) must start with https:// or http://")
            }
            return value.hasSuffix("/") ? String(value.dropLast()) : value
        }
        self.init(
            curl: try Curl(
                environment: services.variables, runner: services.runner,
                userAgent: OpenLibrary.userAgent(version: CLI.version, contact: settings.contact),
                timeout: settings.networkTimeout),
            dataURL: try base("BOOKCLUB_OPENLIBRARY_URL", OpenLibrary.defaultURL),
            coversURL: try base("BOOKCLUB_COVERS_URL", OpenLibrary.defaultCoversURL),
            answerLimit: settings.answerSizeLimit * 1_000_000, coverLimit: settings.coverSizeLimit * 1_000_000,
            cache: cache, now: services.now, sleep: services.sleep)
    }
}
