/// The members of the items one publication touches, each made from its bytes once:
/// every observer's results diff an edited item's two versions (the members that
/// changed), so without this each item was parsed again for each observer.
///
/// Bound to the thread for the span of `keeping(_:)` (a task-local, read outside any task
/// as the thread's); `ItemBytes.object` looks here first. It keeps at most `capacity`
/// items (a change of many items parses the rest as before), and it keeps their bytes
/// alive while it holds them, so a chunk's address is never taken for another's.
final class ParsedMembers: Sendable {
    @TaskLocal static var current: ParsedMembers?

    /// How many items' members it keeps at most.
    static let capacity = 64

    private struct Key: Hashable {
        let chunk: ObjectIdentifier
        let offset: UInt32
        let count: UInt32
    }

    private struct Kept {
        var objects: [Key: (bytes: ItemBytes, object: JSONObject)] = [:]
    }

    // Taken by one thread at a time (the pipeline's), so never waited for.
    private let kept = Locked(Kept())

    /// Runs `body` with items' members made once each in it, on this thread.
    static func keeping<R>(_ body: () throws -> R) rethrows -> R {
        try $current.withValue(ParsedMembers(), operation: body)
    }

    /// How many items' members it keeps.
    var count: Int { kept.withLock { $0.objects.count } }

    /// The members of `bytes`, made by `make` unless made already.
    func object(of bytes: ItemBytes, _ make: () -> JSONObject) -> JSONObject {
        let key = Key(
            chunk: ObjectIdentifier(bytes.chunk), offset: bytes.offset, count: bytes.count)
        if let known = kept.withLock({ $0.objects[key]?.object }) { return known }
        let object = make()
        kept.withLock { kept in
            if kept.objects.count < Self.capacity { kept.objects[key] = (bytes, object) }
        }
        return object
    }
}
