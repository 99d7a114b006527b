import Dispatch

extension JSONStore {
    /// What this store's live pipeline holds in memory now, by what holds it: the newest
    /// version of the store, its observers' results and the history's heads
    /// (`jsonstore doctor --memory`). `nil` until an observation has loaded the store, or
    /// when the pipeline does not answer within `timeout` seconds.
    ///
    /// Blocks until the pipeline answers: never call it from an observer's callback on the
    /// store's own queue.
    package func memoryUsage(timeout: Double = 60) -> MemoryUsage? {
        let got = Locked<MemoryUsage?>(nil)
        let done = DispatchSemaphore(value: 0)
        engine.onPipeline { engine in
            got.withLock { $0 = engine.memoryUsage() }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success,
            var usage = got.withLock({ $0 })
        else { return nil }
        if let history { usage.heads = (try? history.withHeads { $0.footprint }) ?? 0 }
        return usage
    }
}

extension LiveEngine {
    /// The newest version's memory and the subscriptions' results, once loaded.
    fileprivate func memoryUsage() -> MemoryUsage? {
        guard reducer.isLoaded else { return nil }
        var usage = MemoryUsage()
        usage.add(reducer.published)
        for subscription in subscriptions.values { subscription.countResults(into: &usage) }
        return usage
    }
}
