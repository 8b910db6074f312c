/// What the command line asks for.
enum ParseOutcome: Sendable {
    case run(path: [CommandConfiguration], ParsedArguments)
    /// `-h`, `--help`, `help CMD...`, or a parent run without a subcommand.
    case help(path: [CommandConfiguration])
    case version(String)
    case completionScript(shell: String)
    case failure(ParseError, path: [CommandConfiguration])
}
