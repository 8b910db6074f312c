#if canImport(Glibc)
    import Glibc
#endif

/// Runs `first` on a thread of its own while `second` runs on this one, and returns once both have
/// (`stats` and `export` read the history in two halves at once). Where no thread can be started,
/// runs one after the other.
///
/// The two must not touch the same variables.
func inParallel(_ first: () -> Void, _ second: () -> Void) {
    #if canImport(Glibc)
        withoutActuallyEscaping(first) { first in
            let work = Unmanaged.passRetained(Work(first)).toOpaque()
            var thread = pthread_t()
            let started = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                    return nil
                }, work)
            guard started == 0 else {
                Unmanaged<Work>.fromOpaque(work).release()
                first()
                return second()
            }
            second()
            pthread_join(thread, nil)
        }
    #else
        first()
        second()
    #endif
}

private final class Work {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
