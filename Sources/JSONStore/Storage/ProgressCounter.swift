import Synchronization

/// A count of files read, shared between the readers and whoever shows progress.
final class ProgressCounter: Sendable {
    private let count = Atomic<Int>(0)

    func add(_ n: Int) { count.add(n, ordering: .relaxed) }

    /// Counts from nothing again: the files are all to be read again.
    func reset() { count.store(0, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
