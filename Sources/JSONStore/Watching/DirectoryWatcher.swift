import Dispatch

/// How the store learns that files changed.
///
/// A watcher calls its handler on the store's pipeline queue, which owns all the state it
/// touches; its methods are called on that queue too.
protocol DirectoryWatcher: AnyObject {
    /// The dispatch source that wakes the watcher.
    var control: SourceControl { get }
    /// Handles what has happened so far now, without waiting for the next wake-up.
    func pollNow()
}

extension DirectoryWatcher {
    func start() { control.start() }
    func suspend() { control.suspend() }
    func resume() { control.resume() }
    func stop() { control.stop() }
}

/// Starting, stalling and stopping a dispatch source: suspensions must be balanced, and a
/// suspended source must be resumed before its cancel handler can run.
final class SourceControl {
    private let source: any DispatchSourceProtocol
    private var suspended = false
    private var stopped = false

    init(_ source: any DispatchSourceProtocol) {
        self.source = source
    }

    /// Whether the source delivers events now.
    var isRunning: Bool { !suspended && !stopped }

    func start() { source.resume() }

    func suspend() {
        guard isRunning else { return }
        suspended = true
        source.suspend()
    }

    func resume() {
        guard suspended, !stopped else { return }
        suspended = false
        source.resume()
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        source.cancel()
        if suspended { source.resume() }
    }
}
