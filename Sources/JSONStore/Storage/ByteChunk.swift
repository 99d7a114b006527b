/// Bytes in one allocation, written once and then only read: the storage `ItemBytes` are
/// ranges of.
///
/// Immutable after it is filled, before any other thread sees it, so it may be shared:
/// `ManagedBuffer` cannot be `Sendable`, so `ItemBytes` holds it `nonisolated(unsafe)`.
final class ByteChunk: ManagedBuffer<Void, UInt8> {
    /// A chunk holding a copy of `bytes`, and nothing else.
    static func holding(_ bytes: UnsafeRawBufferPointer) -> ByteChunk {
        let chunk = unsafeDowncast(
            ByteChunk.create(minimumCapacity: max(bytes.count, 1)) { _ in }, to: ByteChunk.self)
        chunk.withUnsafeMutablePointerToElements { start in
            UnsafeMutableRawPointer(start).copyMemory(
                from: bytes.baseAddress ?? UnsafeRawPointer(start), byteCount: bytes.count)
        }
        return chunk
    }

    /// Calls `body` with every byte of the chunk.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeMutablePointerToElements { start in
            try body(UnsafeRawBufferPointer(start: start, count: capacity))
        }
    }
}
