import BookClubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Syncing around a command: with a sync folder and `syncProgress` on, every command first applies
/// what the other devices wrote (only when their logs grew) and records its own changes after its save.
extension Session {
    /// The store's sync, when the `syncFolder` setting names the folder this store joined; `nil` when
    /// it does not sync.
    func syncing() throws -> StoreSync? {
        let settings = try settings().state
        return try StoreSync(storage: storage, folderPath: settings.syncFolder, lockTimeout: settings.lockTimeout)
    }

    /// Before a command: applies what the other devices wrote (see `StoreSync.catchUp`). Problems are
    /// warnings here: the command goes on with what could be read.
    func syncBeforeCommand() {
        guard StoreSync.hasJoined(storage), let settings = try? settings().state, settings.syncProgress else { return }
        do {
            guard let sync = try syncing() else { return }
            let caughtUp = try sync.catchUp(now: services.now(), newDevice: services.makeID)
            syncedFingerprint = caughtUp.fingerprint
            warn(caughtUp.report)
        } catch {
            output.write("could not sync: \(ErrorReport.line(error, timeZone: timeZone))", as: .warning)
        }
    }

    /// After a command's save: records its change in this device's log (see `StoreSync.afterCommand`).
    /// A failure is a warning: the change stands here, and the next command records it.
    func syncAfterCommand() {
        guard let caughtUp = syncedFingerprint else { return }
        do {
            guard let sync = try syncing() else { return }
            let change = savedChange.map { ($0, libraryFingerprint) }
            let report = try sync.afterCommand(
                caughtUp: caughtUp, change: change, release: releaseLibrary, now: services.now(),
                newDevice: services.makeID)
            if let report { warn(report) }
        } catch {
            output.write(
                "the change is saved here, but not yet in the sync folder (the next command tries again): \(ErrorReport.line(error, timeZone: timeZone))",
                as: .warning)
        }
    }

    private func warn(_ report: SyncReport) {
        for line in SyncText.warnings(report) { output.write(line, as: .warning) }
    }
}
