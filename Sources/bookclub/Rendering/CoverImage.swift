import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A cover drawn in the terminal: iTerm2's inline-image protocol, which takes the JPEG or PNG as it
/// is (iTerm2, WezTerm, VS Code, mintty), or kitty's through `kitten icat`; elsewhere its path.
enum CoverImage {
    enum Way: Equatable {
        case path
        case inline
        /// `kitten`, found at this path.
        case kitten(String)
    }

    /// How the terminal the environment describes draws an image.
    static func way(_ environment: [String: String], runner: ProgramRunner) -> Way {
        let program = environment["TERM_PROGRAM"] ?? ""
        if ["iTerm.app", "WezTerm", "vscode", "mintty"].contains(program) || environment["LC_TERMINAL"] == "iTerm2"
            || environment["WEZTERM_EXECUTABLE"] != nil
        {
            return .inline
        }
        if environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty" {
            if let kitten = runner.find("kitten", environment) { return .kitten(kitten) }
        }
        return .path
    }

    /// iTerm2's sequence for an image: `ESC ] 1337 ; File=…:BASE64 BEL`.
    static func inline(_ image: Data, name: String) -> TerminalText {
        // The escape is the image's; what comes from outside, its name and bytes, is in base64.
        TerminalText(
            layout:
                "\u{1B}]1337;File=name=\(Data(name.utf8).base64EncodedString());size=\(image.count);inline=1;preserveAspectRatio=1:"
                + image.base64EncodedString() + "\u{07}")
    }

    /// Runs `program` on the terminal bookclub was given; `false` when it could not or it failed.
    static func run(_ program: String, _ arguments: [String], environment: [String: String], runner: ProgramRunner)
        -> Bool
    {
        let program = Program(
            program, arguments, environment: environment, input: .inherit, output: .inherit, showsErrors: true)
        return (try? runner.run(program))?.ending == .exited(0)
    }
}
