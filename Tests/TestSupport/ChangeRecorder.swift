import Dispatch
import Foundation
import JSONStore
import Synchronization

/// Records what an observer receives and checks every update against the previous
/// results: applying the change set to the previous list must give the new list exactly.
public final class ChangeRecorder: Sendable {
    public struct State: Sendable {
        /// The ids of the latest results, in order.
        public var ids: [String] = []
        /// The latest results.
        public var results = Results<Item>()
        /// Every update received, in order.
        public var updates: [ChangeSet<Item>] = []
        /// When each update's callback ran.
        public var updateTimes: [DispatchTime] = []
        /// Every `.error` received.
        public var errors: [StoreError] = []
        /// Whether `.initial` arrived (and how often: must be once).
        public var initialCount = 0
        /// Broken promises: an update that did not apply, arrived empty, before
        /// `.initial`, or out of order.
        public var violations: [String] = []
        /// Callbacks seen running at the same time as another (must stay 0).
        public var overlaps = 0
        var running = 0
    }

    private let state = Locked(State())
    private let waiters = Locked<[UInt64: CheckedContinuation<Void, Never>]>([:])
    private let nextWaiter = Atomic<UInt64>(0)
    public let sortField: String?
    public let descending: Bool

    /// A recorder for results sorted by id, or by `sortField`.
    public init(sortField: String? = nil, descending: Bool = false) {
        self.sortField = sortField
        self.descending = descending
    }

    /// The callback to pass to `observe`.
    public var callback: @Sendable (StoreChange<Item>) -> Void {
        { [self] change in record(change) }
    }

    public var current: State { state.withLock { $0 } }

    public func record(_ change: StoreChange<Item>) {
        state.withLock { s in
            s.running += 1
            if s.running > 1 { s.overlaps += 1 }
        }
        // Stretch the callback a little, so overlapping deliveries would be caught.
        usleep(200)
        state.withLock { s in
            defer { s.running -= 1 }
            switch change {
            case .initial(let results):
                s.initialCount += 1
                if s.initialCount > 1 { s.violations.append("a second .initial") }
                s.results = results
                s.ids = results.map(\.id)
                checkOrder(results, &s)
            case .update(let results, let changes):
                if s.initialCount == 0 { s.violations.append("an update before .initial") }
                if changes.isEmpty { s.violations.append("an empty update") }
                if changes.version <= s.results.version {
                    s.violations.append("version \(changes.version) after \(s.results.version)")
                }
                check(changes, previous: s.ids, results: results, &s)
                s.results = results
                s.ids = results.map(\.id)
                s.updates.append(changes)
                s.updateTimes.append(.now())
                checkOrder(results, &s)
            case .error(let error):
                s.errors.append(error)
            }
        }
        let resumed = waiters.withLock { w in
            defer { w.removeAll() }
            return Array(w.values)
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Checks an update against the previous list: the index arrays (by position) must
    /// turn the previous ids into the new ones exactly, and the element lists (by
    /// identity) must name the rows that left, entered and changed.
    private func check(
        _ changes: ChangeSet<Item>, previous: [String], results: Results<Item>, _ s: inout State
    ) {
        var list = previous
        let newIDs = results.map(\.id)
        let moves = changes.moves
        guard changes.deletions == changes.deletions.sorted(),
            changes.insertions == changes.insertions.sorted(),
            changes.modifications == changes.modifications.sorted(),
            changes.deleted.count + moves.count == changes.deletions.count,
            changes.inserted.count + moves.count == changes.insertions.count,
            changes.modified.count == changes.modifications.count + moves.count,
            changes.modificationsNew.count == changes.modifications.count
        else {
            return s.violations.append("malformed change set \(changes)")
        }
        let movedFrom = Set(moves.map(\.from))
        let movedTo = Set(moves.map(\.to))
        let leaving = changes.deletions.filter { !movedFrom.contains($0) }
        let entering = changes.insertions.filter { !movedTo.contains($0) }
        for (k, index) in leaving.enumerated() {
            guard index < previous.count, UTF8Key.equal(previous[index], changes.deleted[k].id)
            else {
                return s.violations.append("deletion \(index) is not \(changes.deleted[k].id)")
            }
        }
        for (k, index) in entering.enumerated() {
            guard index < newIDs.count, UTF8Key.equal(newIDs[index], changes.inserted[k].id) else {
                return s.violations.append("insertion \(index) is not \(changes.inserted[k].id)")
            }
        }
        for (k, index) in changes.modifications.enumerated() {
            let newIndex = changes.modificationsNew[k]
            guard index < previous.count,
                UTF8Key.equal(previous[index], changes.modified[k].old.id),
                newIndex < newIDs.count, UTF8Key.equal(newIDs[newIndex], changes.modified[k].new.id)
            else {
                return s.violations.append("modification \(index)→\(newIndex) does not match")
            }
        }
        for (k, move) in moves.enumerated() {
            let modification = changes.modified[changes.modifications.count + k]
            guard move.from < previous.count, move.to < newIDs.count,
                UTF8Key.equal(previous[move.from], modification.old.id),
                UTF8Key.equal(newIDs[move.to], modification.new.id),
                changes.deletions.contains(move.from), changes.insertions.contains(move.to)
            else { return s.violations.append("move \(move) does not match") }
        }
        for index in changes.deletions.reversed() { list.remove(at: index) }
        for index in changes.insertions {
            guard index <= list.count, index < newIDs.count else {
                return s.violations.append("insertion \(index) out of range")
            }
            list.insert(newIDs[index], at: index)
        }
        if !sameBytes(list, newIDs) {
            s.violations.append("applying the change set gave \(list), not \(newIDs)")
        }
    }

    private func checkOrder(_ results: Results<Item>, _ s: inout State) {
        guard results.count > 1 else { return }
        for i in 1..<results.count {
            let (a, b) = (results[i - 1], results[i])
            let ordered: Bool
            if let field = sortField, let x = a[field]?.doubleValue, let y = b[field]?.doubleValue,
                x != y
            {
                ordered = descending ? x > y : x < y
            } else {
                ordered = UTF8Key.less(a.id, b.id)
            }
            if !ordered {
                return s.violations.append("results out of order at \(i): \(a.id), \(b.id)")
            }
        }
    }

    /// Whether two lists of ids are the same byte for byte (`String ==` would take
    /// canonically equivalent ids for one).
    public func sameBytes(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { UTF8Key.equal($0, $1) }
    }

    /// Waits until `predicate` holds for the recorded state, or `timeout` seconds pass.
    /// Returns whether it held.
    @discardableResult
    public func wait(timeout: Double = 20, until predicate: @Sendable (State) -> Bool) async -> Bool
    {
        let deadline = DispatchTime.now() + timeout
        while true {
            if predicate(current) { return true }
            if DispatchTime.now() >= deadline { return false }
            let key = nextWaiter.add(1, ordering: .relaxed).newValue
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { predicate($0) }
                if ready { return continuation.resume() }
                waiters.withLock { $0[key] = continuation }
                // Wake up at the deadline even if nothing arrives.
                DispatchQueue.global().asyncAfter(deadline: min(deadline, .now() + 0.5)) { [self] in
                    let pending = waiters.withLock { $0.removeValue(forKey: key) }
                    pending?.resume()
                }
            }
        }
    }
}
