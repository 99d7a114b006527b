import Dispatch
import JSONStore

extension EtcdFollower {
    // MARK: Fresh revisions while nothing changes

    /// How long the watch may be quiet before the follower looks for a fresher revision
    /// itself, in seconds: etcd's own progress notifications come every 10 minutes by
    /// default, too seldom for a stream's bookmarks.
    static let quietInterval = 5.0

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// How far the follower is behind etcd.
    package enum Lag: Sendable, Equatable {
        /// Everything up to this revision of etcd has been handed on.
        case caughtUp(Int64)
        /// etcd has changes the follower has not handed on yet (or it has not listed yet).
        case behind
        /// etcd could not be asked.
        case unknown
    }

    /// Whether the follower has handed on everything in etcd now: it has reached etcd's
    /// current revision, or the prefix has the keys it knows of and none written since its
    /// revision (changes elsewhere in etcd move the revision, not the prefix).
    ///
    /// A key both created and deleted since the follower's revision is not seen by the
    /// second test: the prefix is then the same as the follower left it, but the watch
    /// still hands that pair on afterwards, at revisions older than the one this returned.
    package func lag() -> Lag {
        let (seen, known) = shared.withLock { ($0.revision, $0.keyCount) }
        guard let seen else { return .behind }
        guard
            let now = try? clients.withClient({ client throws(EtcdError) in
                try client.count(prefix: prefix, modifiedAfter: seen)
            })
        else { return .unknown }
        let current = shared.withLock { $0.revision ?? 0 }
        if current >= now.revision || (now.keys == known && now.newer == 0) {
            return .caughtUp(now.revision)
        }
        return .behind
    }

    /// Every `quietInterval` while the watch has heard nothing: on gRPC, asks the watch for
    /// progress (etcd answers on the stream after every event before it, so the revision
    /// `follow` hands on is never followed by older events); on the gateway, which cannot
    /// ask, asks etcd whether the prefix is still as handed on and, if so, hands its
    /// revision on as progress.
    func startQuietChecks() {
        let interval = Self.quietInterval
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self, !self.isStopped else { return }
            let (heard, watch) = shared.withLock { ($0.lastHeard, $0.watch) }
            guard Self.now() - heard >= interval else { return }
            if let watch, watch.asksProgress {
                // A watch ended meanwhile refuses it: the next one is asked next time.
                try? watch.requestProgress(timeout: clients.timeout)
                return
            }
            guard case .caughtUp(let revision) = lag() else { return }
            let fresher = shared.withLock { state -> Bool in
                guard revision > (state.revision ?? .max) else { return false }
                state.revision = revision
                return true
            }
            if fresher, !isStopped { consumer.progressed(revision) }
        }
        quietTimer.withLock { $0 = timer }
        timer.resume()
    }
}
