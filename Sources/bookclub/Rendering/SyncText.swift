import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `sync` says: what came in from whom, and the devices of `sync status`.
enum SyncText {
    /// "3 entries, 1 book from laptop", a line a device; "Sent 2 changes." for what this machine wrote;
    /// "Nothing new." when nothing came or went.
    static func report(_ report: SyncReport) -> [TerminalText] {
        let lines = report.received.map { received in
            let counts = SyncReport.Kind.allCases.compactMap { kind -> String? in
                guard let count = received.counts[kind], count > 0 else { return nil }
                return NumberText.count(count, noun(kind), plural: kind.rawValue)
            }
            return "\(counts.joined(separator: ", ")) from \(name(received.name, received.device))" as TerminalText
        }
        let newer: [TerminalText] =
            report.newer > 0
            ? ["\(NumberText.count(report.newer, "change")) of a newer bookclub kept for it, not applied"] : []
        let sent: [TerminalText] = report.sent > 0 ? ["Sent \(NumberText.count(report.sent, "change"))."] : []
        return (lines.isEmpty && sent.isEmpty ? ["Nothing new."] : lines + sent) + newer
    }

    private static func noun(_ kind: SyncReport.Kind) -> String {
        switch kind {
        case .books: "book"
        case .entries: "entry"
        case .highlights: "highlight"
        case .readings: "reading"
        case .edits: "edit"
        case .removals: "removal"
        case .clubs: "club"
        case .meetings: "meeting"
        }
    }

    /// A device's name as written, control characters shown; its id's first 8 digits when it has none.
    static func name(_ name: String?, _ device: String) -> TerminalText {
        TerminalText(name ?? String(device.prefix(8)))
    }

    /// A device id found in use elsewhere, and each log line that could not be read.
    static func warnings(_ report: SyncReport) -> [TerminalText] {
        (report.clone.map { [clone($0)] } ?? []) + report.problems.map(problem)
    }

    static func clone(_ clone: SyncReport.Clone) -> TerminalText {
        clone.logCut
            ? "this machine's log \(clone.old).jsonl is shorter than it wrote (an older copy put back?); this machine goes on as \(clone.new) and writes again what it held"
            : "this machine's id \(clone.old) was in use on another machine too (a restored backup or a copied disk); this machine goes on as \(clone.new)"
    }

    /// A line that could not be read; a file that is not a plain file (line 0) as a whole.
    static func problem(_ problem: SyncReport.Problem) -> TerminalText {
        guard problem.line > 0 else {
            return "\(problem.file): \(problem.detail); that device's changes wait until its log is put in its place"
        }
        return
            "\(problem.file):\(problem.line): \(problem.detail); that device's later changes wait until the line is mended"
    }

    /// A line a device: its name, id, changes and latest change; this one marked.
    static func status(
        _ devices: [Sync.Device], this: String, unpushed: Bool, usesGit: Bool, timeZone: Zone, style: Style
    ) -> [TerminalText] {
        var rows: [[TerminalText]] = [["", "DEVICE", "ID", "CHANGES", "LATEST"]]
        for device in devices {
            rows.append([
                device.id == this ? "*" : "", name(device.name, device.id), "\(device.id.prefix(8))",
                "\(device.operations)", "\(device.latest.map { DateText.minute($0, timeZone: timeZone) } ?? "")",
            ])
        }
        var lines = Table(rows: rows, flexibleColumn: 1, rightAligned: [3]).render(width: nil) { row, text in
            text == rows[0][row] ? style.bold(text) : text
        }
        if usesGit {
            lines.append(
                unpushed ? "This machine has changes not yet pushed: run bookclub sync." : "Everything is pushed.")
        }
        return lines
    }
}
