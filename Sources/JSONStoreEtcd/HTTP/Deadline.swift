/// When a request must be done: a whole answer within its seconds, however slowly a server
/// sends it (each read waits only for what is left), or never, for a watch that lives for
/// days.
struct Deadline: Sendable {
    /// The seconds it was set for, for messages.
    let seconds: Double
    /// When it passes; `nil` for never.
    private let end: ContinuousClock.Instant?

    /// A deadline `seconds` from now (infinite, or over a year: never).
    init(seconds: Double) {
        self.seconds = seconds
        end = seconds.isFinite && seconds < 3e7 ? .now + .seconds(max(0, seconds)) : nil
    }

    /// No deadline.
    static let never = Deadline(seconds: .infinity)

    /// The seconds left: 0 once it passed, infinity for never.
    var remaining: Double {
        guard let end else { return .infinity }
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: end).components
        return max(0, Double(seconds) + Double(attoseconds) * 1e-18)
    }

    var hasPassed: Bool { remaining <= 0 }

    /// `5 s`, `0.5 s`: the seconds as a message says them.
    var text: String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
