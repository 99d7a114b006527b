import Dispatch

/// A serial executor that runs jobs on a dispatch queue, so an actor can live on the
/// queue its dispatch sources and timers fire on (GRDB's `DispatchQueueActor` pattern).
///
/// Code that runs on the queue outside a job (a source's event handler, `queue.async`)
/// reaches the actor with `assumeIsolated`, which `checkIsolated()` backs with a
/// `dispatchPrecondition`: isolation is checked at run time there, and by the compiler
/// everywhere else.
package final class QueueExecutor: SerialExecutor {
    package let queue: DispatchQueue

    package init(queue: DispatchQueue) {
        self.queue = queue
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    package func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
