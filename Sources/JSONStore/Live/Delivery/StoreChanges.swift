import Dispatch

/// The changes of a live query as an asynchronous sequence: `.initial` first, then every
/// update, in order, until the task iterating it is cancelled or the loop ends.
///
/// The sequence holds its observation (and through it the store's pipeline) while it is
/// iterated; ending the loop, cancelling the task or releasing the iterator ends the
/// observation, and a cancelled iteration returns `nil`. A consumer that falls behind is
/// handed one update that merges everything since its last one, so nothing queues up.
///
/// For example:
///
/// ```swift
/// for await change in store.changes(Todo.self, Query.all) {
///     if case .update(let tasks, _) = change { print(tasks.count) }
/// }
/// ```
public struct StoreChanges<Element: Sendable>: AsyncSequence, Sendable {
    let subscribe: @Sendable (ChangeMailbox<Element>) -> ObservationToken

    public func makeAsyncIterator() -> Iterator {
        let mailbox = ChangeMailbox<Element>()
        let token = subscribe(mailbox)
        // Weakly: the mailbox is held by the pipeline, and the iterator alone must keep
        // the token, so that releasing the iterator ends the observation.
        mailbox.onFinish { [weak token] in token?.invalidate() }
        return Iterator(mailbox: mailbox, token: token)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let mailbox: ChangeMailbox<Element>
        /// Keeps the observation alive while the iterator is; released, it ends it.
        let token: ObservationToken

        public mutating func next() async -> StoreChange<Element>? {
            await mailbox.take()
        }
    }
}

/// One change at a time, from the pipeline to an async consumer.
///
/// The pipeline puts a change in and is told when the consumer has taken it, which is
/// when its subscription may send the next one: until then, later changes merge on the
/// pipeline instead of queueing here.
final class ChangeMailbox<Element: Sendable>: Sendable {
    private struct State {
        var pending: (change: StoreChange<Element>, taken: @Sendable () -> Void)?
        var waiter: CheckedContinuation<StoreChange<Element>?, Never>?
        var finished = false
        var onFinish: (@Sendable () -> Void)?
    }

    /// Guards everything; a pthread mutex, so ThreadSanitizer sees it.
    private let state = Locked(State())

    /// Hands `change` to the consumer; `taken` runs once the consumer has it (at once when
    /// the sequence has finished).
    /// Where `put` left a change.
    private enum Handoff {
        case toWaiter(CheckedContinuation<StoreChange<Element>?, Never>)
        case kept
        case dropped  // the sequence has finished
    }

    func put(_ change: StoreChange<Element>, taken: @escaping @Sendable () -> Void) {
        let handoff = state.withLock { s -> Handoff in
            if s.finished { return .dropped }
            if let waiter = s.waiter {
                s.waiter = nil
                return .toWaiter(waiter)
            }
            s.pending = (change, taken)
            return .kept
        }
        switch handoff {
        case .toWaiter(let continuation):
            continuation.resume(returning: change)
            taken()
        case .dropped:
            taken()
        case .kept:
            break
        }
    }

    /// The next change, or `nil` once the sequence has finished or the task is cancelled.
    func take() async -> StoreChange<Element>? {
        await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<StoreChange<Element>?, Never>) in
                let ready = state.withLock {
                    s -> (StoreChange<Element>?, (@Sendable () -> Void)?)? in
                    if s.finished || Task.isCancelled { return (nil, nil) }
                    if let pending = s.pending {
                        s.pending = nil
                        return (pending.change, pending.taken)
                    }
                    s.waiter = continuation
                    return nil
                }
                if let (change, taken) = ready {
                    continuation.resume(returning: change)
                    taken?()
                }
            }
        } onCancel: {
            finish()
        }
    }

    /// Runs `body` when the sequence finishes.
    func onFinish(_ body: @escaping @Sendable () -> Void) {
        let finished = state.withLock { s in
            if !s.finished { s.onFinish = body }
            return s.finished
        }
        if finished { body() }
    }

    /// Ends the sequence: a waiting `take()` returns `nil`, and so does every later one.
    func finish() {
        let (waiter, pending, onFinish) = state.withLock { s in
            defer {
                s.finished = true
                s.waiter = nil
                s.pending = nil
                s.onFinish = nil
            }
            return (s.waiter, s.pending, s.finished ? nil : s.onFinish)
        }
        waiter?.resume(returning: nil)
        pending?.taken()
        onFinish?()
    }
}
