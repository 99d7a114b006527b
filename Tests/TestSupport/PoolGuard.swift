import Testing

/// Swift Testing runs every test as a task on Swift's cooperative pool, which has one
/// thread per core: two here. A test that blocks one of them (runs a process to its end,
/// waits for a line on a pipe, polls a directory) holds it from every other test, and two
/// such tests stop every `await` of the suite from resuming: under the full suite a 20 s
/// wait took 25–30 s, and time limits ran out on tests that only waited for a thread.
/// Blocking work goes through `blocking { }`, on a thread of its own. The helpers that
/// block call `PoolGuard.check` first, which fails the test that calls them on the pool,
/// so a new test cannot bring the starvation back unnoticed.
public enum PoolGuard {
    /// Records an issue when called from a test's task (so on the cooperative pool):
    /// `what` names the blocking call. On a thread of `blocking { }`, in the worker and in
    /// the benchmarks there is no current test, and nothing is recorded.
    public static func check(_ what: String) {
        guard Test.current != nil else { return }
        Issue.record(
            "\(what) blocks a thread of the cooperative pool: run it in blocking { }")
    }
}
