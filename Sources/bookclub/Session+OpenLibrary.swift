import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Session {
    var openLibrary: OpenLibraryService {
        OpenLibraryService(
            cache: OpenLibraryCache(folder: paths.cache, fileSystem: services.fileSystem), now: services.now,
            client: { [unowned self] in try openLibraryClient() })
    }

    private func openLibraryClient() throws -> OpenLibraryClient {
        let settings = try settings().state
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
        return OpenLibraryClient(
            curl: try Curl(
                environment: services.variables, runner: services.runner,
                userAgent: OpenLibrary.userAgent(version: CLI.version, contact: settings.contact),
                timeout: settings.networkTimeout),
            dataURL: try base("BOOKCLUB_OPENLIBRARY_URL", OpenLibrary.defaultURL),
            coversURL: try base("BOOKCLUB_COVERS_URL", OpenLibrary.defaultCoversURL),
            answerLimit: settings.answerSizeLimit * 1_000_000, coverLimit: settings.coverSizeLimit * 1_000_000,
            folder: paths.cache, fileSystem: services.fileSystem, now: services.now, sleep: services.sleep)
    }
}
