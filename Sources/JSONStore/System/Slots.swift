/// Result slots for `concurrentPerform`: each index is written by exactly one iteration
/// and read only after all iterations have returned, so no two threads touch one slot
/// and `concurrentPerform`'s completion orders the writes before the reads. That is why
/// the `@unchecked Sendable` is safe.
package final class Slots<Value>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Value>

    package init(count: Int, initial: Value) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: initial)
    }

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }

    package subscript(index: Int) -> Value {
        get { buffer[index] }
        set { buffer[index] = newValue }
    }

    package var count: Int { buffer.count }

    package var values: [Value] { Array(buffer) }
}
