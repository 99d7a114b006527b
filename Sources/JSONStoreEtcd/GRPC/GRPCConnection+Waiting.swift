import JSONStore

extension GRPCConnection {
    /// What a waiter found: what it waited for, or the connection free to read.
    private enum Look<Result> {
        case ready(Result)
        case reading
    }

    /// Waits until `ready` gives a result, or `deadline` passes (`nil`): `ready` looks at
    /// the shared state after every change, and may take what it waited for.
    ///
    /// While no other thread reads the connection, this one does: it takes every frame
    /// as it comes (for any stream, waking their owners) until its own answer is there,
    /// then gives the reading up to the next waiter. So the thread that waits for a
    /// message is the one that reads it, with no hop between threads; and while another
    /// thread reads, this one sleeps until a change.
    func waitReading<Result>(until deadline: Deadline, _ ready: (inout Shared) -> Result?)
        -> Result?
    {
        while true {
            let look = shared.wait(until: deadline) { shared -> Look<Result>? in
                if let result = ready(&shared) { return .ready(result) }
                guard !shared.reading, shared.failure == nil, !deadline.hasPassed else {
                    return nil
                }
                shared.reading = true
                return .reading
            }
            switch look {
            case nil: return nil
            case .ready(let result)?: return result
            case .reading?:
                if let result = read(until: deadline, ready) { return result }
            }
        }
    }

    /// Takes the frames that came while no thread read (a GOAWAY, a PING, the server
    /// gone), without waiting; nothing when another thread reads.
    func readPending() {
        let mine = shared.withLock { shared -> Bool in
            guard !shared.reading, shared.failure == nil else { return false }
            shared.reading = true
            return true
        }
        guard mine else { return }
        _ = read(until: Deadline(seconds: 0)) { _ -> Void? in nil }
    }

    /// Reads frames, holding `Shared.reading`, until `ready` gives a result (returned),
    /// `deadline` passes, the wake signal comes or the connection fails (`nil`: the
    /// caller looks again). Gives the reading up however it ends, waking the waiters so
    /// one of them reads next.
    private func read<Result>(until deadline: Deadline, _ ready: (inout Shared) -> Result?)
        -> Result?
    {
        defer { shared.change { $0.reading = false } }
        do throws(EtcdError) {
            while try readFrame(until: deadline) {
                if let result = shared.withLock(ready) { return result }
            }
        } catch {
            fail(error)
        }
        return nil
    }
}
