import Dispatch
import JSONStore

extension EtcdSource {
    // MARK: Catching up, and fresh revisions while nothing changes

    /// How long the watch may be quiet before the source looks for a fresher revision
    /// itself, in seconds: etcd's own progress notifications come every 10 minutes by
    /// default, too seldom for a stream's bookmarks.
    static let quietInterval = 5.0

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// How far the watch is behind etcd.
    enum Lag {
        /// Everything up to this revision of etcd has been reported.
        case caughtUp(Int64)
        /// etcd has changes the watch has not reported yet (or it has not listed yet).
        case behind
        /// etcd could not be asked.
        case unknown
    }

    /// Whether the watch has reported everything in etcd now: it has reached etcd's current
    /// revision, or the prefix has the keys it knows of and none written since its revision
    /// (changes elsewhere in etcd move the revision, not the prefix).
    ///
    /// A key both created and deleted since the watch's revision is not seen by the second
    /// test: the store is then the same as the watch left it, but the watch still reports
    /// that pair afterwards, at revisions older than the one this returned.
    func lag() -> Lag {
        let (seen, known) = shared.withLock { ($0.revision, $0.keyCount) }
        guard let seen else { return .behind }
        guard
            let now = try? backend.withClient({ client throws(EtcdError) in
                try client.count(prefix: backend.layout.keyPrefix, modifiedAfter: seen)
            })
        else { return .unknown }
        let current = shared.withLock { $0.revision ?? 0 }
        if current >= now.revision || (now.keys == known && now.newer == 0) {
            return .caughtUp(now.revision)
        }
        return .behind
    }

    /// How long `catchUp` waits for the watch at most, in seconds: a member that stopped
    /// answering its watch must not hold `synchronize` for ever.
    var catchUpLimit: Double { max(10, backend.timeout * 4) }

    /// Reports `.caughtUp` once the watch has reported everything in etcd now, or etcd
    /// cannot be asked (nothing newer can be had then), or after `catchUpLimit`.
    func catchUp() {
        DispatchQueue.global().async { [self] in
            let deadline = Self.now() + catchUpLimit
            let nap = DispatchSemaphore(value: 0)  // its own: `stop`'s signal is the watch's
            var tries = 0
            loop: while !stopped, Self.now() < deadline {
                switch lag() {
                case .caughtUp, .unknown: break loop
                case .behind:
                    tries += 1
                    _ = nap.wait(timeout: .now() + (tries < 50 ? 0.001 : 0.01))
                }
            }
            report(.caughtUp)
        }
    }

    /// Every `quietInterval` while the watch has heard nothing: on gRPC, asks the watch for
    /// progress (etcd answers on the stream after every event before it, so the revision
    /// `follow` reports is never followed by older events); on the gateway, which cannot
    /// ask, asks etcd whether the prefix is still as reported and, if so, reports its
    /// revision as `.progress`.
    func startQuietChecks() {
        let interval = Self.quietInterval
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self, !self.stopped else { return }
            let (heard, watch) = shared.withLock { ($0.lastHeard, $0.watch) }
            guard Self.now() - heard >= interval else { return }
            if let watch, watch.asksProgress {
                // A watch ended meanwhile refuses it: the next one is asked next time.
                try? watch.requestProgress(timeout: backend.timeout)
                return
            }
            guard case .caughtUp(let revision) = lag() else { return }
            let fresher = shared.withLock { state -> Bool in
                guard revision > (state.revision ?? .max) else { return false }
                state.revision = revision
                return true
            }
            if fresher { report(.progress(revision: revision)) }
        }
        quietTimer.withLock { $0 = timer }
        timer.resume()
    }
}
