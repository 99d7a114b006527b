import Dispatch
import JSONStore

extension EtcdSource {
    // MARK: Catching up, and fresh revisions while nothing changes

    /// How long the watch may be quiet before the source looks for a fresher revision
    /// itself, in seconds: etcd's own progress notifications come every 10 minutes by
    /// default, too seldom for a stream's bookmarks.
    static let quietInterval = 5.0

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The revision up to which the watch has reported everything, if it has: etcd's
    /// current revision when the watch has reached it, or when the prefix has the keys the
    /// watch knows of and none written since its revision (changes elsewhere in etcd move
    /// the revision, not the prefix). `nil` while it has not, or etcd cannot be asked.
    func caughtUpRevision() -> Int64?? {
        let (seen, known) = shared.withLock { ($0.revision, $0.keyCount) }
        guard let seen else { return .some(nil) }
        guard
            let now = try? backend.withClient({ client throws(EtcdError) in
                try client.count(prefix: backend.layout.keyPrefix, modifiedAfter: seen)
            })
        else { return nil }  // etcd is unreachable
        let current = shared.withLock { $0.revision ?? 0 }
        if current >= now.revision || (now.keys == known && now.newer == 0) {
            return .some(now.revision)
        }
        return .some(nil)
    }

    /// Reports `.caughtUp` once the watch has reported everything in etcd now (or etcd
    /// cannot be asked: nothing newer can be had then).
    func catchUp() {
        DispatchQueue.global().async { [self] in
            var tries = 0
            while !stopped {
                guard let caughtUp = caughtUpRevision() else { break }
                if caughtUp != nil { break }
                tries += 1
                pause(tries < 50 ? 0.001 : 0.01)
            }
            report(.caughtUp)
        }
    }

    /// Every `quietInterval` while the watch has heard nothing, asks etcd whether the
    /// prefix is still as reported and, if so, reports its revision as `.progress`.
    func startQuietChecks() {
        let interval = Self.quietInterval
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self, !self.stopped else { return }
            let heard = shared.withLock { $0.lastHeard }
            guard Self.now() - heard >= interval, let caughtUp = caughtUpRevision(),
                let revision = caughtUp
            else { return }
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
