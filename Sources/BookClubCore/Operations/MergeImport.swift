#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `import` of an export (Goodreads, StoryGraph, bookclub JSON): the file merged into every book.
/// A merge adds readings and fills fields, and reads no book's history.
public struct MergeImport: LibraryOperation {
    public var file: ImportFile

    public init(_ file: ImportFile) {
        self.file = file
    }

    public var books: LibraryScope.Books { .everything }

    public func resolve(in snapshot: Library) throws -> OperationPlan<ImportResult> {
        OperationPlan { [file] library in library.merge(file) }
    }
}
