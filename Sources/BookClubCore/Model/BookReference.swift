#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Library {
    /// Finds the book a reference names, trying in order, case-insensitively: an id, a unique id prefix
    /// (4 characters at least), a whole title, a unique title prefix, a unique run of words inside a title,
    /// a unique prefix of the title's letters and digits alone (`scifi` for "Sci-Fi").
    ///
    /// ```swift
    /// try library.resolve("left hand")   // The Left Hand of Darkness
    /// ```
    /// The first rule that matches anything decides: one match is the book, several are an error listing them.
    ///
    /// - Parameters:
    ///   - exactly: only an id, an id prefix or a whole title (for deletions, where a guess is a risk).
    public func resolve(_ reference: String, exactly: Bool = false) throws -> Book {
        try resolve(reference, exactly: exactly, titles: nil)
    }

    /// The same, with each book's title in the forms the rules compare, made once for many references.
    func resolve(_ reference: String, exactly: Bool = false, titles: [Reference.NameForms]?) throws -> Book {
        try Reference.book(
            reference, in: books, id: { $0.id }, title: { $0.title }, forms: titles, exactly: exactly,
            candidate: { BookClubError.Candidate(id: $0.id, title: $0.title, author: $0.author, added: $0.added) })
    }

    /// Finds the club a reference names, by the same rules as books: id, id prefix, name, name prefix, words.
    public func resolveClub(_ reference: String, exactly: Bool = false) throws -> Club {
        switch Reference.matches(reference, in: clubs, id: { $0.id }, name: { $0.name }, exactly: exactly) {
        case .one(let club): return club
        case .none: throw BookClubError.clubNotFound(reference)
        case .many(let matches):
            throw BookClubError.ambiguousClub(reference, candidates: matches.map { "\($0.name) (\($0.id.prefix(8)))" })
        }
    }
}

/// How a typed reference is matched against ids and names.
enum Reference {
    enum Match<Item> {
        case none
        case one(Item)
        case many([Item])
    }

    /// The one book among `items` that `reference` names; not found and ambiguous are errors, each
    /// match listed as `candidate` describes it. With `exactly`, a reference that names a book only by
    /// part of its title says which.
    static func book<Item>(
        _ reference: String, in items: [Item], id: (Item) -> String, title: (Item) -> String,
        forms: [NameForms]? = nil, exactly: Bool = false, candidate: (Item) -> BookClubError.Candidate
    ) throws -> Item {
        switch matches(reference, in: items, id: id, name: title, forms: forms, exactly: exactly) {
        case .one(let item): return item
        case .none:
            guard exactly else { throw BookClubError.bookNotFound(reference) }
            switch matches(reference, in: items, id: id, name: title, forms: forms) {
            case .none: throw BookClubError.bookNotFound(reference)
            case .one(let item): throw BookClubError.notWholeTitle(reference, candidate: candidate(item))
            case .many(let matches): throw BookClubError.ambiguousBook(reference, candidates: matches.map(candidate))
            }
        case .many(let matches):
            throw BookClubError.ambiguousBook(reference, candidates: matches.map(candidate))
        }
    }

    /// A name in the forms the rules compare: lowercased, its words, and its letters and digits alone.
    struct NameForms {
        var lowercased: String
        var words: [Substring]
        var squeezed: String

        init(_ name: String) {
            lowercased = name.lowercased()
            words = Reference.words(lowercased)
            squeezed = Reference.squeeze(lowercased)
        }
    }

    /// - Parameter forms: each item's name in `NameForms`, when made already; else they are made when
    ///   the rules of ids match nothing.
    static func matches<Item>(
        _ reference: String, in items: [Item], id: (Item) -> String, name: (Item) -> String,
        forms: [NameForms]? = nil, exactly: Bool = false
    ) -> Match<Item> {
        let needle = reference.lowercased().trimmed
        guard !needle.isEmpty else { return .none }
        func first(_ rule: (Int) -> Bool) -> Match<Item>? {
            let found = items.indices.filter(rule)
            if found.count == 1 { return .one(items[found[0]]) }
            return found.isEmpty ? nil : .many(found.map { items[$0] })
        }
        if let match = first({ id(items[$0]) == needle }) { return match }
        if needle.count >= 4, let match = first({ id(items[$0]).hasPrefix(needle) }) { return match }
        let names = forms ?? items.map { NameForms(name($0)) }
        if let match = first({ names[$0].lowercased == needle }) { return match }
        if exactly { return .none }
        let words = Self.words(needle)
        let squeezed = Self.squeeze(needle)
        let rules: [(Int) -> Bool] = [
            { names[$0].lowercased.hasPrefix(needle) },
            { !words.isEmpty && Self.containsRun(words, in: names[$0].words) },
            { !squeezed.isEmpty && names[$0].squeezed.hasPrefix(squeezed) },
        ]
        for rule in rules { if let match = first(rule) { return match } }
        return .none
    }

    /// Letters and digits only: `scifi` names "Sci-Fi Club". ASCII is told apart without Unicode's
    /// tables, which a batch of many unknown titles would ask for every title.
    private static func squeeze(_ text: String) -> String {
        String(text.filter(isLetterOrDigit))
    }

    private static func words(_ text: String) -> [Substring] {
        text.split { !Self.isLetterOrDigit($0) }
    }

    private static func isLetterOrDigit(_ character: Character) -> Bool {
        if let ascii = character.asciiValue {
            return (ascii >= 0x61 && ascii <= 0x7A) || (ascii >= 0x41 && ascii <= 0x5A)
                || (ascii >= 0x30 && ascii <= 0x39)
        }
        return character.isLetter || character.isNumber
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

/// Finds the books that many references name in one library, each as `Library.resolve` does, and
/// each distinct reference once: a batch names its few books on many lines. Ids, id prefixes and
/// whole titles, the references scripts write, are looked up in tables built once; any other
/// reference, or one that names several books, goes through `resolve`, which says what is wrong.
///
/// The library's books must stay as they were when it was made (a batch adds and renames none).
struct BookFinder {
    /// The books' indices by id, by the first four characters of their id, and by lowercased title.
    private var ids: [String: [Int]] = [:]
    private var idPrefixes: [String: [Int]] = [:]
    private var titles: [String: [Int]] = [:]
    /// What each reference asked so far resolved to.
    private var found: [String: Result<Int, any Error>] = [:]
    /// The titles in the forms the other rules compare, made for the first reference the tables do
    /// not find (a batch of many titles no book has would otherwise make them for each).
    private var forms: [Reference.NameForms]?

    public init(_ library: Library) {
        for (index, book) in library.books.enumerated() {
            ids[book.id, default: []].append(index)
            idPrefixes[String(book.id.prefix(4)), default: []].append(index)
            titles[book.title.lowercased(), default: []].append(index)
        }
    }

    /// The index in `library.books` of the book `reference` names; the error `resolve` gives when it
    /// names none or several.
    public mutating func index(of reference: String, in library: Library) throws -> Int {
        if let known = found[reference] { return try known.get() }
        let result = Result { try lookUp(reference, in: library) }
        found[reference] = result
        return try result.get()
    }

    /// The first three rules of `Reference.matches` (an id, a unique id prefix of four characters or
    /// more, a whole title) from the tables, where they find one book.
    private mutating func lookUp(_ reference: String, in library: Library) throws -> Int {
        let needle = reference.lowercased().trimmed
        if !needle.isEmpty, let one = oneMatch(needle, in: library) { return one }
        let titles = forms ?? library.books.map { Reference.NameForms($0.title) }
        forms = titles
        let id = try library.resolve(reference, titles: titles).id
        return library.books.firstIndex { $0.id == id }!
    }

    /// The one book the first rule that matches anything finds, when that rule is one of the three;
    /// `nil` when it finds several, or none of the three matches anything.
    private func oneMatch(_ needle: String, in library: Library) -> Int? {
        if let matches = ids[needle] { return matches.count == 1 ? matches[0] : nil }
        if needle.count >= 4 {
            let matches = (idPrefixes[String(needle.prefix(4))] ?? []).filter { library.books[$0].id.hasPrefix(needle) }
            if !matches.isEmpty { return matches.count == 1 ? matches[0] : nil }
        }
        if let matches = titles[needle] { return matches.count == 1 ? matches[0] : nil }
        return nil
    }
}
