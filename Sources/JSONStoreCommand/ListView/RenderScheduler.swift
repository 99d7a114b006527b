import Dispatch

/// When the list view draws: a frame at most every 1/60 s however often one is asked for,
/// and again when something changes with time (a highlight running out, the spinner's next
/// step), all on one timer of the main queue.
@MainActor
final class RenderScheduler {
    static let frameInterval = 1.0 / 60

    private let timer = DispatchSource.makeTimerSource(queue: .main)
    /// Draws a frame; returns when the frame will need drawing again by itself, if ever.
    private let draw: @MainActor () -> Double?
    private var lastFrame = -Double.infinity
    /// When the timer fires next, if it is set.
    private var due: Double?

    init(draw: @escaping @MainActor () -> Double?) {
        self.draw = draw
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.fire() } }
        timer.resume()
    }

    /// A frame soon: at once if the last is older than 1/60 s, else when it will be.
    func request() { schedule(at: max(ViewClock.now(), lastFrame + Self.frameInterval)) }

    /// A frame now (the terminal was resized, or given back by the editor).
    func drawNow() { fire() }

    private func schedule(at time: Double) {
        if let due, due <= time { return }
        due = time
        timer.schedule(deadline: .now() + max(0, time - ViewClock.now()))
    }

    private func fire() {
        due = nil
        lastFrame = ViewClock.now()
        if let next = draw() { schedule(at: max(next, lastFrame + Self.frameInterval)) }
    }
}
