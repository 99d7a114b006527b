/// A fingerprint of a file's bytes: its length and a 64-bit hash.
///
/// Two reads with the same fingerprint are the same content, so a file rewritten with
/// identical bytes, or only touched, is no change at all. The hash is for telling edits
/// apart, not for resisting an attacker.
struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The number of bytes.
    let size: Int
    /// A hash of the bytes.
    let hash: UInt64

    /// The fingerprint of `bytes`.
    ///
    /// - Complexity: O(n), eight bytes a step.
    init(_ bytes: UnsafeRawBufferPointer) {
        size = bytes.count
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        hash = h
    }

    /// The fingerprint of `size` bytes that hash to `hash`, as recorded.
    init(size: Int, hash: UInt64) {
        (self.size, self.hash) = (size, hash)
    }

    /// The fingerprint of `bytes`.
    init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { Fingerprint($0) }
    }

    /// The fingerprint an etag names (`157-9f3a…`), or `nil` if it names none.
    init?(etag: String) {
        let parts = etag.split(separator: "-")
        guard parts.count == 2, let size = Int(parts[0]), size >= 0,
            let hash = UInt64(parts[1], radix: 16)
        else { return nil }
        (self.size, self.hash) = (size, hash)
    }

    var description: String { "\(size):\(String(hash, radix: 16))" }

    /// The fingerprint as an item's etag: `157-9f3a…`.
    var etag: String { "\(size)-\(String(hash, radix: 16))" }
}
