import Dispatch
import JSONStore

extension DirectoryMirror {
    /// Starts watching the prefix from `revision` on the watch thread, which hands each
    /// revision's events (one transaction) to the mirror's queue, and says when the watch
    /// ends or cannot start. Called on the queue.
    func startWatch(from revision: Int64) throws {
        generation += 1
        let generation = self.generation
        watching.withLock { $0.generation = generation }
        let target = try client.watchTarget()
        let (prefix, timeout) = (layout.keyPrefix, client.timeout)
        watchQueue.async { [self] in
            do {
                let watch = try EtcdWatch(target, prefix: prefix, from: revision, timeout: timeout)
                defer {
                    // Out of reach of `interrupt` first, then closed: never both at once.
                    watching.withLock { if $0.watch === watch { $0.watch = nil } }
                    watch.close()
                }
                let current = watching.withLock {
                    $0.watch = watch
                    return $0.generation == generation
                }
                if !current || isStopped { watch.interrupt() }  // given up while connecting
                while true {
                    let response = try watch.next(timeout: .infinity)
                    if let compacted = response.compactRevision {
                        throw EtcdError(
                            endpoint: watch.endpoint,
                            reason: "etcd compacted its history up to revision \(compacted)")
                    }
                    if let reason = response.cancelReason {
                        throw EtcdError(
                            endpoint: watch.endpoint,
                            reason: "the watch was cancelled: \(reason)")
                    }
                    for events in Self.transactions(response.events) {
                        queue.async { self.remoteChanged(events, generation: generation) }
                    }
                }
            } catch {
                queue.async {
                    if generation == self.generation { self.lost(error) }
                }
            }
        }
    }

    /// `events` cut into runs of one revision each: one etcd transaction each.
    static func transactions(_ events: [EtcdWatch.Event]) -> [[EtcdWatch.Event]] {
        var runs: [[EtcdWatch.Event]] = []
        for event in events {
            if let last = runs.last?.last, last.keyValue.modRevision == event.keyValue.modRevision {
                runs[runs.count - 1].append(event)
            } else {
                runs.append([event])
            }
        }
        return runs
    }
}
