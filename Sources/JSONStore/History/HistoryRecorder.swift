import Dispatch

/// Records in the journal what a watcher saw other programs change, in the background of
/// the live pipeline: its own queue takes the store's lock, reads the files and appends,
/// so observers never wait for the journal.
///
/// Changes that arrive while a recording runs wait and go together in the next one. Every
/// watching process records; the heads make each change recorded once however many do.
final class HistoryRecorder: Sendable {
    let history: StoreHistory
    private let queue = DispatchQueue(label: "jsonstore.history", qos: .utility)

    private struct Pending {
        /// What to record next: the ids a watcher saw change, with the version it knew before.
        var ids: [String] = []
        var previous: [UTF8Key: Item] = [:]
        var seen: Set<UTF8Key> = []
        var source = HistoryEntry.Source.otherProgram
        /// A watcher's first look at the whole store, to compare with the journal.
        var loaded: StoreSnapshot?
        var scheduled = false
    }
    private let pending = Locked(Pending())

    init(history: StoreHistory) {
        self.history = history
    }

    /// A watcher loaded the store: what differs from the journal was changed while nothing
    /// watched, and is recorded as seen late.
    func loaded(_ snapshot: StoreSnapshot) {
        schedule { $0.loaded = snapshot }
    }

    /// A watcher published changes of `ids` (made by `source`), having known `previous`
    /// of them before.
    func changed(_ ids: [String], previous: [UTF8Key: Item], source: HistoryEntry.Source) {
        schedule { pending in
            for id in ids where pending.seen.insert(UTF8Key(id)).inserted {
                pending.ids.append(id)
                if let known = previous[UTF8Key(id)] { pending.previous[UTF8Key(id)] = known }
            }
            // git's changes are git's, whatever else waits with them.
            if source == .git { pending.source = .git }
        }
    }

    /// The watcher stopped (its last observer went): what waits is dropped, so no recording
    /// outlives the observation by more than the one under way.
    func stop() {
        pending.withLock { $0 = Pending() }
    }

    /// Blocks until every change handed in so far is recorded: for tests.
    func drain() {
        queue.sync {}
    }

    private func schedule(_ add: (inout Pending) -> Void) {
        let start = pending.withLock { pending -> Bool in
            add(&pending)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        guard start else { return }
        queue.async { [self] in record() }
    }

    /// Records what waits; what arrives meanwhile waits for the next turn.
    private func record() {
        let work = pending.withLock { pending -> Pending in
            defer { pending = Pending() }
            return pending
        }
        // History that cannot be written (a folder this user may not write, a full disk)
        // never stops the watcher: a later reader records what was missed, as seen late.
        if let snapshot = work.loaded {
            try? history.recordUnrecorded(.loaded(snapshot), seen: .late)
        }
        if !work.ids.isEmpty {
            try? history.recordUnrecorded(
                .ids(work.ids, previous: work.previous), seen: .live(work.source))
        }
    }
}
