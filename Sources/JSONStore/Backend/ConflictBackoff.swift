/// How a batch on a shared store (etcd) waits between its tries while other writers keep
/// changing what it read: a pause with jitter that doubles from 2 ms up to 250 ms, for 30 s
/// in all, as etcd's own clients back off with jitter between retries. Without a pause,
/// writers that collide collide again, and 20 tries in a row could all lose (1 `set` in 600
/// failed with 8 shells at it); with a random one they spread out and each gets its turn.
struct ConflictBackoff {
    /// The seconds a batch keeps trying before it gives up with `.conflict`.
    static let deadline = 30.0
    static let firstPause = 0.002
    static let longestPause = 0.25

    private let start = ContinuousClock.now
    private var ceiling = firstPause

    /// Whether the time is up: the coming try is the last.
    var isLastTry: Bool { elapsed >= Self.deadline }

    private var elapsed: Double {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The seconds to wait before the next try: between half the current ceiling and all of
    /// it, the ceiling doubling each time up to `longestPause`.
    mutating func nextPause<G: RandomNumberGenerator>(using random: inout G) -> Double {
        let pause = Double.random(in: ceiling / 2...ceiling, using: &random)
        ceiling = min(ceiling * 2, Self.longestPause)
        return pause
    }

    mutating func nextPause() -> Double {
        var random = SystemRandomNumberGenerator()
        return nextPause(using: &random)
    }
}
