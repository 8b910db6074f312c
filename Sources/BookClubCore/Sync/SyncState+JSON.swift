#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension JSONWriter {
    /// The sync state as its `Codable` keys have it, written by hand: a command that syncs writes it
    /// after every change, and JSONEncoder's first use in a process costs more than the rest of it.
    mutating func syncState(_ state: SyncState) {
        func clock(_ writer: inout JSONWriter, _ clock: HybridClock) {
            writer.object { w in
                w.field("counter", clock.counter)
                w.field("milliseconds", Int(clock.milliseconds))
            }
        }
        func strings(_ writer: inout JSONWriter, _ values: [String: String]) {
            writer.object { w in
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    w.escapedField(key)
                    w.string(value)
                }
            }
        }
        object { w in
            w.field("captured", state.captured)
            w.field("clock")
            clock(&w, state.clock)
            w.field("device", state.device)
            w.field("files")
            w.object { w in
                for (name, mark) in state.files.sorted(by: { $0.key < $1.key }) {
                    w.escapedField(name)
                    w.object { w in
                        w.field("length", mark.length)
                        w.field("lines", mark.lines)
                        w.field("operations", mark.operations)
                        w.field("size", mark.size)
                    }
                }
            }
            w.field("folder", state.folder)
            if let frontier = state.frontier {
                w.field("frontier")
                w.object { w in
                    w.field("clock")
                    clock(&w, frontier.clock)
                    w.field("device", frontier.device)
                    w.field("sequence", frontier.sequence)
                }
            }
            w.field("hidden")
            w.array(state.hidden.sorted()) { w, id in w.string(id) }
            w.field("names")
            strings(&w, state.names)
            w.field("problems")
            w.object { w in
                for (file, problem) in state.problems.sorted(by: { $0.key < $1.key }) {
                    w.escapedField(file)
                    w.object { w in
                        w.field("detail", problem.detail)
                        w.field("file", problem.file)
                        w.field("line", problem.line)
                    }
                }
            }
        }
    }
}

extension SyncState {
    /// The state as `JSONWriter.syncState` writes it, read in place (every command that syncs reads it,
    /// and Foundation's decoder costs more than the rest); `nil` for any other form, which the decoder
    /// then reads.
    static func scan(_ data: Data) -> SyncState? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> SyncState? in
            var scanner = JSONScanner(bytes: bytes)
            var (device, folder, captured): (String?, String?, String?)
            var clock: HybridClock?
            var frontier: Position?
            var files: [String: Mark] = [:]
            var hidden: Set<String> = []
            var names: [String: String] = [:]
            var problems: [String: SyncReport.Problem] = [:]
            var seen = JSONScanner.SeenKeys()
            func readClock(_ scanner: inout JSONScanner) -> HybridClock? {
                var (counter, milliseconds): (Int?, Int?)
                guard
                    scanner.object(
                        keys: ["counter", "milliseconds"],
                        { key, scanner in
                            key == 0 ? scanner.read(&counter) : key == 1 ? scanner.read(&milliseconds) : false
                        }), let counter, let milliseconds
                else { return nil }
                return HybridClock(milliseconds: Int64(milliseconds), counter: counter)
            }
            let complete = scanner.object(
                keys: ["captured", "clock", "device", "files", "folder", "frontier", "hidden", "names", "problems"]
            ) { key, scanner in
                guard key >= 0, seen.first(key) else { return false }
                switch key {
                case 0: return scanner.read(&captured)
                case 1:
                    clock = readClock(&scanner)
                    return clock != nil
                case 2: return scanner.read(&device)
                case 3:
                    return scanner.object { name, scanner in
                        var (length, lines, operations, size): (Int?, Int?, Int?, Int?)
                        guard
                            scanner.object(
                                keys: ["length", "lines", "operations", "size"],
                                { key, scanner in
                                    switch key {
                                    case 0: scanner.read(&length)
                                    case 1: scanner.read(&lines)
                                    case 2: scanner.read(&operations)
                                    case 3: scanner.read(&size)
                                    default: false
                                    }
                                }), let length, let operations
                        else { return false }
                        files[name] = Mark(length: length, operations: operations, size: size, lines: lines)
                        return true
                    }
                case 4: return scanner.read(&folder)
                case 5:
                    var (clock, device, sequence): (HybridClock?, String?, Int?)
                    guard
                        scanner.object(
                            keys: ["clock", "device", "sequence"],
                            { key, scanner in
                                switch key {
                                case 0:
                                    clock = readClock(&scanner)
                                    return clock != nil
                                case 1: return scanner.read(&device)
                                case 2: return scanner.read(&sequence)
                                default: return false
                                }
                            }), let clock, let device, let sequence
                    else { return false }
                    frontier = Position(clock: clock, device: device, sequence: sequence)
                    return true
                case 6:
                    return scanner.array { scanner in
                        guard let id = scanner.string() else { return false }
                        hidden.insert(id)
                        return true
                    }
                case 7:
                    return scanner.object { device, scanner in
                        guard let name = scanner.string() else { return false }
                        names[device] = name
                        return true
                    }
                default:
                    return scanner.object { file, scanner in
                        var (detail, path, line): (String?, String?, Int?)
                        guard
                            scanner.object(
                                keys: ["detail", "file", "line"],
                                { key, scanner in
                                    switch key {
                                    case 0: scanner.read(&detail)
                                    case 1: scanner.read(&path)
                                    case 2: scanner.read(&line)
                                    default: false
                                    }
                                }), let detail, let path, let line
                        else { return false }
                        problems[file] = SyncReport.Problem(file: path, line: line, detail: detail)
                        return true
                    }
                }
            }
            guard complete, scanner.atEnd, let device, let folder else { return nil }
            var state = SyncState(device: device, folder: folder, clock: clock ?? HybridClock())
            (state.captured, state.files, state.frontier, state.hidden, state.names, state.problems) = (
                captured, files, frontier, hidden, names, problems
            )
            return state
        }
    }
}
