import Dispatch
import Foundation
import Glibc
import JSONStore

/// A temporary store with some items and an observer recording its changes.
public final class LiveFixture: @unchecked Sendable {
    public let temp: TemporaryStore
    public let recorder: ChangeRecorder
    public var token: ObservationToken?
    public var store: JSONStore { temp.store }
    public var path: String { temp.path }

    private let query: Query

    /// Creates items `ids` (each `{"title": "<id>", "rank": n}`), then observes `query`
    /// (unless `startObserving` is false: then `startObserving()` does).
    public init(
        ids: [String] = ["a", "b", "c"], query: Query = .all,
        recorder: ChangeRecorder = ChangeRecorder(),
        options: JSONStore.Options = JSONStore.Options(), startObserving: Bool = true
    ) throws {
        temp = try TemporaryStore(options: options)
        for (n, id) in ids.enumerated() {
            try temp.writeFile("\(id).json", "{\n  \"title\": \"\(id)\",\n  \"rank\": \(n)\n}\n")
        }
        self.recorder = recorder
        self.query = query
        if startObserving { self.startObserving() }
    }

    /// Observes the store, recording into `recorder`.
    public func startObserving() {
        token = temp.store.observe(
            query, on: DispatchQueue(label: "test.observer"), recorder.callback)
    }

    /// Waits for `.initial`.
    public func started(timeout: Double = 20) async -> Bool {
        await recorder.wait(timeout: timeout) { $0.initialCount == 1 }
    }

    /// Waits until every edit on disk has reached the recorder, then returns the updates
    /// received since `.initial`.
    public func settledUpdates() async -> [ChangeSet<Item>] {
        await store.synchronize()
        return recorder.current.updates
    }

    /// The path of `name` in the store.
    public func file(_ name: String) -> String { temp.path + "/" + name }

    /// Writes `text` to `name` the way an in-place editor does: truncate, write, close.
    public func writeInPlace(_ name: String, _ text: String) {
        let fd = open(file(name), O_WRONLY | O_TRUNC | O_CREAT, 0o644)
        precondition(fd >= 0)
        _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }
}
