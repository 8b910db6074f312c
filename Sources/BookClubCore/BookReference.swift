#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Library {
    /// Finds the book a reference names, trying in order, case-insensitively: an id, a unique id prefix
    /// (4 characters at least), a whole title, a unique title prefix, a unique run of words inside a title.
    ///
    /// ```swift
    /// try library.resolve("left hand")   // The Left Hand of Darkness
    /// ```
    /// The first rule that matches anything decides: one match is the book, several are an error listing them.
    public func resolve(_ reference: String) throws -> Book {
        let needle = reference.lowercased().trimmed
        let words = Self.words(needle)
        let rules: [(Book) -> Bool] = [
            { $0.id == needle },
            { needle.count >= 4 && $0.id.hasPrefix(needle) },
            { $0.title.lowercased() == needle },
            { $0.title.lowercased().hasPrefix(needle) },
            { !words.isEmpty && Self.containsRun(words, in: Self.words($0.title.lowercased())) },
        ]
        guard !needle.isEmpty else { throw BookClubError.bookNotFound(reference) }
        for rule in rules {
            let matches = books.filter(rule)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw BookClubError.ambiguousBook(
                    reference, candidates: matches.map { "\($0.title) (\($0.id.prefix(8)))" })
            }
        }
        throw BookClubError.bookNotFound(reference)
    }

    private static func words(_ text: String) -> [Substring] {
        text.split { !$0.isLetter && !$0.isNumber }
    }

    /// Whether `run` stands as consecutive words in `words`; the last word of the run may be a prefix.
    private static func containsRun(_ run: [Substring], in words: [Substring]) -> Bool {
        guard run.count <= words.count else { return false }
        return (0...(words.count - run.count)).contains { start in
            run.indices.allSatisfy { offset in
                let word = words[start + offset]
                return offset == run.count - 1 ? word.hasPrefix(run[offset]) : word == run[offset]
            }
        }
    }
}
