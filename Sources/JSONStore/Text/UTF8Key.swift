import Glibc

/// A string compared, hashed and ordered by its UTF-8 bytes.
///
/// Swift's `String` compares and hashes by Unicode canonical equivalence, so `café` with a
/// precomposed `é` and `café` with `e` + U+0301 are equal strings. On Linux they are two
/// file names, so two items, and RFC 8259 §8.3 compares object member names code unit by
/// code unit. Every set, dictionary and sort of ids or member names in the store goes
/// through this type (or its static helpers) instead.
///
/// Byte order is also code point order, so for strings in NFC it agrees with `String`'s.
package struct UTF8Key: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The string itself.
    package let string: String

    package init(_ string: String) {
        self.string = string
    }

    package var description: String { string }

    package static func == (a: UTF8Key, b: UTF8Key) -> Bool { equal(a.string, b.string) }

    package static func < (a: UTF8Key, b: UTF8Key) -> Bool { less(a.string, b.string) }

    package func hash(into hasher: inout Hasher) {
        UTF8Key.withBytes(string) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Whether `a` and `b` have the same UTF-8 bytes.
    package static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return compare(a, b) == 0
    }

    /// Whether the UTF-8 bytes of `a` sort before those of `b`.
    package static func less(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// Compares the UTF-8 bytes of `a` and `b`: negative, zero or positive, like `memcmp`,
    /// a proper prefix first.
    package static func compare(_ a: String, _ b: String) -> Int {
        withBytes(a) { x in withBytes(b) { y in compare(x, y) } }
    }

    /// Compares the bytes `x` and `y`, as `compare` compares strings' bytes.
    static func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(x.count, y.count)
        if common > 0, let p = x.baseAddress, let q = y.baseAddress {
            let order = memcmp(p, q, common)
            if order != 0 { return Int(order) }
        }
        return x.count - y.count
    }

    /// Calls `body` with the UTF-8 bytes of `s`, without copying a native string.
    static func withBytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = s.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(s.utf8).withUnsafeBufferPointer(body)
    }
}
