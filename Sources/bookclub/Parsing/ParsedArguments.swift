import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The values collected for one invocation of a command.
struct ParsedArguments: Sendable {
    /// Command names from the root, e.g. ["bookclub", "settings", "set"].
    var commandPath: [String]
    /// How many times each flag (by long name) was given.
    var flagCounts: [String: Int] = [:]
    /// Every value given to each option (by long name), in order.
    var optionValues: [String: [String]] = [:]
    /// Default values of the options in scope (by long name).
    var defaultValues: [String: String] = [:]
    /// Tokens assigned to each positional argument (by ArgumentSpec.name).
    var positionalValues: [String: [String]] = [:]
    /// What values are parsed against; the CLI sets the moment and zone of the command line.
    var context = ParseContext(now: Date(timeIntervalSince1970: 0), timeZone: .utc)
    /// When set, records each declaration read (for the test that every declared option is read).
    var reads: ReadLog? = nil

    // Options and arguments are read through their typed declarations (`arguments[Self.json]`, in
    // Declarations.swift), so that a name no command declared cannot be read.
}
