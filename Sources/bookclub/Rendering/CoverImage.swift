import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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
    static func way(_ environment: [String: String]) -> Way {
        let program = environment["TERM_PROGRAM"] ?? ""
        if ["iTerm.app", "WezTerm", "vscode", "mintty"].contains(program) || environment["LC_TERMINAL"] == "iTerm2"
            || environment["WEZTERM_EXECUTABLE"] != nil
        {
            return .inline
        }
        if environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty" {
            let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
            if let kitten = folders.map({ String($0) + "/kitten" }).first(where: { access($0, X_OK) == 0 }) {
                return .kitten(kitten)
            }
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
    static func run(_ program: String, _ arguments: [String], environment: [String: String]) -> Bool {
        var cArguments = ([program] + arguments).map { strdup($0) } + [nil]
        var cVariables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for argument in cArguments + cVariables { free(argument) }
        }
        var pid = pid_t()
        guard posix_spawn(&pid, program, nil, nil, &cArguments, &cVariables) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status == 0
    }
}
