/// The live pipeline's clocks, in seconds of a monotonic clock: deletions waiting out
/// their grace period, files to read again later, and how long changes have waited for a
/// pending deletion. A plain value, so the reducer that owns it stays pure and tests can
/// drive it with made-up times.
struct Deadlines: Sendable, Equatable {
    /// Ids whose file went missing, and when their grace period ends.
    private(set) var deletions: [UTF8Key: Double] = [:]
    /// File names to read again, and when.
    private(set) var reads: [UTF8Key: Double] = [:]
    /// Since when published changes have waited for a pending deletion, if they have.
    private(set) var heldSince: Double?

    /// Whether nothing waits.
    var isEmpty: Bool { deletions.isEmpty && reads.isEmpty }

    /// Whether `id`'s deletion is in its grace period.
    func isDeletionPending(_ id: UTF8Key) -> Bool { deletions[id] != nil }

    /// Starts `id`'s grace period, unless one runs; returns its end if it started.
    mutating func startDeletion(_ id: UTF8Key, until end: Double) -> Double? {
        guard deletions[id] == nil else { return nil }
        deletions[id] = end
        return end
    }

    mutating func cancelDeletion(_ id: UTF8Key) { deletions[id] = nil }

    /// Asks for `name` to be read at `time`, unless a read is due already; returns the
    /// time if it was asked for.
    mutating func readLater(_ name: UTF8Key, at time: Double) -> Double? {
        guard reads[name] == nil else { return nil }
        reads[name] = time
        return time
    }

    mutating func cancelRead(_ name: UTF8Key) { reads[name] = nil }

    /// Changes wait for a pending deletion from `now` on.
    mutating func holdChanges(at now: Double) { heldSince = now }

    /// Changes wait no longer: they are published.
    mutating func releaseChanges() { heldSince = nil }

    /// Takes the deletions and reads that are due at `now`.
    mutating func takeDue(at now: Double) -> (deletions: [UTF8Key], reads: [UTF8Key]) {
        let dueDeletions = deletions.filter { $0.value <= now }.map(\.key)
        let dueReads = reads.filter { $0.value <= now }.map(\.key)
        for id in dueDeletions { deletions[id] = nil }
        for name in dueReads { reads[name] = nil }
        return (dueDeletions, dueReads)
    }

    /// Forgets everything: after a full rescan, or when the directory is gone.
    mutating func removeAll() {
        deletions.removeAll()
        reads.removeAll()
        heldSince = nil
    }
}
