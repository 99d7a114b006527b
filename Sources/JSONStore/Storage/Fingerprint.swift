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

    /// The fingerprint an etag's bytes name, read in place when they are as `etag` writes
    /// them (decimal digits, `-`, at most 16 hex digits), as a journal line holds it;
    /// anything else read as `init?(etag:)` reads it. A look reads millions of them.
    init?(etagBytes bytes: UnsafeBufferPointer<UInt8>) {
        var (i, size) = (0, 0)
        // 18 digits at most: no overflow.
        while i < min(bytes.count, 18), bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9")
        {
            size = size * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            i += 1
        }
        if i > 0, i + 1 < bytes.count, i + 17 >= bytes.count, bytes[i] == UInt8(ascii: "-") {
            var hash: UInt64 = 0
            var j = i + 1
            while j < bytes.count, let digit = bytes[j].hexDigitValue {
                hash = hash << 4 | UInt64(digit)
                j += 1
            }
            if j == bytes.count {
                self.init(size: size, hash: hash)
                return
            }
        }
        self.init(etag: String(decoding: bytes, as: UTF8.self))
    }

    var description: String { "\(size):\(String(hash, radix: 16))" }

    /// The fingerprint as an item's etag: `157-9f3a…`.
    var etag: String { "\(size)-\(String(hash, radix: 16))" }
}
