import BookClubCore

struct DoctorCommand: Command {
    static let fix = Flag(long: "fix", help: "Repair what can be repaired without losing anything.")
    static let configuration = CommandConfiguration(
        name: "doctor",
        abstract: "Check the store, its history, settings and scenes; --fix repairs what it safely can.",
        discussion: """
            Reports a store or settings file that cannot be read, a history cut short, entries past a \
            book's page count, selections of removed books, and temporary files left by interrupted \
            writes. --fix clears such selections and removes such files; it never drops data. Exits 1 \
            while a problem remains.
            """,
        examples: ["bookclub doctor", "bookclub doctor --fix"],
        options: [
            fix,
            CommonOptions.json,
        ])

    var fix: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        fix = arguments[Self.fix]
        json = arguments[CommonOptions.json]
    }

    func run(in session: Session) throws {
        let timeout = (try? session.settings().state.lockTimeout) ?? Settings().lockTimeout
        let findings = Doctor.examine(
            storage: session.storage, settingsPath: session.paths.settings, sceneFolder: session.paths.scene.parentPath,
            lockTimeout: timeout, fix: fix, now: session.now())
        if json {
            try session.writeJSON(findings)
        } else {
            let style = session.style
            for finding in findings {
                let mark =
                    switch finding.kind {
                    case .ok: style.green("ok     ")
                    case .note: style.dim("note   ")
                    case .problem: style.red("problem")
                    case .fixed: style.green("fixed  ")
                    }
                session.output.write(mark + "  \(finding.message)", as: .data)
            }
        }
        let problems = findings.count { $0.kind == .problem }
        if problems > 0 {
            // Never a silent failure: one line on standard error, after the findings.
            let advice = fix ? "see above" : "see above, and `bookclub doctor --fix`"
            session.output.write(
                "doctor found \(problems) problem\(problems == 1 ? "" : "s"); \(advice).", as: .heldError)
            throw ExitCode(code: 1)
        }
    }
}
