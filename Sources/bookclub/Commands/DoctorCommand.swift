import BookClubCore

struct DoctorCommand: Command {
    static let fix = OptionSpec(long: "fix", kind: .flag, help: "Repair what can be repaired without losing anything.")
    static let configuration = CommandConfiguration(
        name: "doctor",
        abstract: "Check the store, its history, settings and scenes; --fix repairs what it safely can.",
        discussion: """
            Reports a store or settings file that cannot be read, a history cut short, entries past a \
            book's page count, selections of removed books, and temporary files left by interrupted \
            writes. --fix clears such selections and removes such files; it never drops data. Exits 1 \
            while a problem remains.
            """,
        options: [
            fix,
            CommonOptions.json,
        ])

    var fix: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        fix = arguments.flag(Self.fix)
        json = arguments.flag(CommonOptions.json)
    }

    func run(in env: Environment) throws {
        let timeout = (try? env.settings().state.lockTimeout) ?? Settings().lockTimeout
        let findings = Doctor.examine(
            storage: env.storage, settingsPath: env.paths.settings, sceneFolder: env.paths.scene.parentPath,
            lockTimeout: timeout, fix: fix)
        if json {
            try env.writeJSON(findings)
        } else {
            let style = env.style
            for finding in findings {
                let mark =
                    switch finding.kind {
                    case .ok: style.green("ok     ")
                    case .note: style.dim("note   ")
                    case .problem: style.red("problem")
                    case .fixed: style.green("fixed  ")
                    }
                env.output.write(mark + "  " + finding.message.terminalSafe, as: .data)
            }
        }
        let problems = findings.count { $0.kind == .problem }
        if problems > 0 {
            // Never a silent failure: one line on standard error, after the findings.
            let advice = fix ? "see above" : "see above, and `bookclub doctor --fix`"
            env.output.sink(
                env.output.messageStyle.red("Error: ")
                    + "doctor found \(problems) problem\(problems == 1 ? "" : "s"); \(advice).\n", false)
            throw ExitCode(code: 1)
        }
    }
}
