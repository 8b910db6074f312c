#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM end bookclub at once (128 + the signal), before it has saved anything, except
/// while a save or the editor runs: then they are recorded, and the save gives up before committing.
///
/// The handler may only do what is safe in a signal handler: read and write plain memory, and
/// `_exit`. It lives here, not in `main.swift`, because code there is main-actor isolated, and Swift
/// checks a main-actor closure's executor when it is called: a check that allocates, which corrupts
/// the heap or deadlocks when the signal came in the middle of `malloc`.
///
/// The state is plain memory, not Swift variables: a handler that writes while the program reads is
/// an overlapping access that Swift's exclusivity checks stop with SIGABRT. It is made by `install`,
/// before the handler can run, so the handler never initializes anything.
enum Signals {
    /// Installs the handler for SIGINT and SIGTERM and unblocks them (a parent may have started us with
    /// them blocked, as a test runner does). Called once, first thing.
    static func install() {
        catching(false)  // makes the slots before the handler can read them
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for number in [SIGINT, SIGTERM] {
            sigaddset(&stopSignals, number)
            signal(number, stopHandler)
        }
        sigprocmask(SIG_UNBLOCK, &stopSignals, nil)
    }

    /// The SIGINT or SIGTERM recorded while signals were caught, or 0.
    static var received: Int32 { slots[0] }

    /// While `true`, SIGINT and SIGTERM are recorded rather than fatal; each call forgets what was
    /// recorded before.
    static func catching(_ catching: Bool) {
        slots[0] = 0
        slots[1] = catching ? 1 : 0
    }

    /// After the library's save has committed, a signal no longer stops the command's other saves.
    static func didCommit() { slots[2] = 1 }

    /// What a save asks before committing: the signal that should stop it, or 0.
    static var interruption: Int32 { slots[2] != 0 ? 0 : slots[0] }
}

/// The signal received, whether signals are caught, whether a save has committed.
nonisolated(unsafe) private let slots: UnsafeMutablePointer<sig_atomic_t> = {
    let slots = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 3)
    slots.initialize(repeating: 0, count: 3)
    return slots
}()

private func stopHandler(_ number: Int32) {
    if slots[1] != 0 { slots[0] = number } else { _exit(128 + number) }
}
