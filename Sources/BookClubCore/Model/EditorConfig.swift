#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The draft of one progress update, as the talk's `EditorConfig`: nothing is committed until asked.
///
/// ```swift
/// var config = EditorConfig()
/// config.present(initialProgress: book.currentProgress)
/// config.note = "  the spice  "
/// let draft = config.commit()   // progress as seeded, note "the spice"; the editor is dismissed
/// ```
public struct EditorConfig: Equatable, Sendable {
    public private(set) var isEditorPresented = false
    /// The note being written. Kept as typed; `commit()` trims it.
    public var note = ""
    /// The fraction being set, always within 0...1 (NaN becomes 0).
    public var progress: Double = 0 {
        didSet { progress = Self.clamp(progress) }
    }

    public init() {}

    /// Seeds the progress, clears the note and presents the editor.
    public mutating func present(initialProgress: Double) {
        progress = initialProgress
        note = ""
        isEditorPresented = true
    }

    /// Dismisses the editor without committing anything.
    public mutating func dismiss() {
        isEditorPresented = false
    }

    /// Dismisses the editor and returns the draft to log: the progress and the trimmed note
    /// (`nil` when empty). Returns `nil` when the editor was not presented.
    public mutating func commit() -> (progress: Double, note: String?)? {
        guard isEditorPresented else { return nil }
        isEditorPresented = false
        let trimmed = note.trimmed
        return (progress, trimmed.isEmpty ? nil : trimmed)
    }

    private static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}
