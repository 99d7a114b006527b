/// Bytes in one allocation, written once and then only read: the storage `ItemBytes` are
/// ranges of.
///
/// Immutable after it is filled, before any other thread sees it, so it may be shared:
/// `ManagedBuffer` cannot be `Sendable`, so `ItemBytes` holds it `nonisolated(unsafe)`.
final class ByteChunk: ManagedBuffer<Void, UInt8> {
    /// A chunk holding a copy of `bytes`, and nothing else.
    static func holding(_ bytes: UnsafeRawBufferPointer) -> ByteChunk {
        let chunk = create(count: bytes.count)
        chunk.withUnsafeMutablePointerToElements { start in
            UnsafeMutableRawPointer(start).copyMemory(
                from: bytes.baseAddress ?? UnsafeRawPointer(start), byteCount: bytes.count)
        }
        return chunk
    }

    /// A chunk of room for `count` bytes, to be filled before it is shared.
    static func create(count: Int) -> ByteChunk {
        unsafeDowncast(
            ByteChunk.create(minimumCapacity: max(count, 1)) { _ in }, to: ByteChunk.self)
    }

    /// Calls `body` with the first `count` bytes of the chunk, to fill them; only before
    /// the chunk is shared.
    func withUnsafeMutableBytes<R, E: Error>(
        count: Int, _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        precondition(count <= capacity)
        let result = withUnsafeMutablePointerToElements { start in
            Result { () throws(E) in
                try body(UnsafeMutableRawBufferPointer(start: start, count: count))
            }
        }
        return try result.get()
    }

    /// Where the bytes are: fixed for the chunk's life, valid only while it is held.
    var baseAddress: UnsafeRawPointer {
        UnsafeRawPointer(withUnsafeMutablePointerToElements { $0 })
    }

    /// Calls `body` with every byte of the chunk.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeMutablePointerToElements { start in
            try body(UnsafeRawBufferPointer(start: start, count: capacity))
        }
    }
}

extension ByteChunk {
    /// Packs many items' bytes into shared chunks, one after another: an item then costs
    /// its bytes, not an allocation of its own. A load packs what each of its workers
    /// reads so; a read of a few files (a watcher's batch) does not.
    ///
    /// Chunks grow from `smallest` to `chunkSize`, doubling, so a small store does not
    /// take a large chunk. A chunk lives while any item in it does, so a store whose items
    /// are all rewritten but one keeps that one's chunk: what stays is at most the bytes
    /// the load read, beside the items' current bytes.
    struct Packer {
        private var chunk: ByteChunk?
        private var size = 0
        private var used = 0
        /// The size of the largest chunk; an item larger than a quarter of it has its own.
        let chunkSize: Int
        let smallest: Int

        init(chunkSize: Int = 1 << 20, smallest: Int = 16 << 10) {
            self.chunkSize = chunkSize
            self.smallest = min(smallest, chunkSize)
        }

        /// A copy of `bytes`, packed after the ones before.
        mutating func pack(_ bytes: UnsafeRawBufferPointer) -> ItemBytes {
            guard bytes.count <= chunkSize / 4 else { return ItemBytes(bytes) }
            if chunk == nil || used + bytes.count > size {
                size = chunk == nil ? smallest : min(size * 2, chunkSize)
                while size < bytes.count { size *= 2 }
                chunk = ByteChunk.create(count: size)
                used = 0
            }
            let chunk = chunk!
            chunk.withUnsafeMutablePointerToElements { start in
                if let base = bytes.baseAddress {
                    UnsafeMutableRawPointer(start + used).copyMemory(
                        from: base, byteCount: bytes.count)
                }
            }
            defer { used += bytes.count }
            return ItemBytes(chunk: chunk, offset: UInt32(used), count: UInt32(bytes.count))
        }
    }
}
