import Glibc

/// Finding bytes in bytes at the speed of the C library: how the journal finds an item's
/// lines without parsing the others.
enum ByteSearch {
    /// The offsets where `pattern` occurs in `bytes`, in order (occurrences that overlap
    /// an earlier one included).
    ///
    /// The corresponding C function is `memmem`.
    static func offsets(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard !pattern.isEmpty, let base = bytes.baseAddress else { return [] }
        var found: [Int] = []
        var from = 0
        pattern.withUnsafeBytes { needle in
            while from + pattern.count <= bytes.count {
                guard
                    let hit = systemMemmem(
                        base + from, bytes.count - from, needle.baseAddress!, needle.count)
                else { break }
                let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                found.append(offset)
                from = offset + 1
            }
        }
        return found
    }
}

extension ByteSearch {
    /// Whether `pattern` occurs in `bytes`.
    ///
    /// The corresponding C function is `memmem`.
    static func contains(_ pattern: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return pattern.utf8CodeUnitCount == 0 }
        return systemMemmem(
            base, bytes.count, pattern.utf8Start, pattern.utf8CodeUnitCount) != nil
    }

    /// The offset of the first `byte` in `bytes` at or after `start`.
    ///
    /// The corresponding C function is `memchr`.
    static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0)
        -> Int?
    {
        guard start < bytes.count, let base = bytes.baseAddress,
            let hit = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }

    /// The offset of the last `byte` in `bytes` before `end`.
    ///
    /// The corresponding C function is `memrchr`.
    static func last(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        guard end > 0, let base = bytes.baseAddress,
            let hit = systemMemrchr(base, Int32(byte), min(end, bytes.count))
        else { return nil }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }
}

// `memrchr` is a GNU extension that Swift's Glibc module does not export.
@_silgen_name("memrchr")
private func systemMemrchr(_ bytes: UnsafeRawPointer, _ byte: Int32, _ count: Int)
    -> UnsafeMutableRawPointer?

// `memmem` is a GNU extension that Swift's Glibc module does not export.
@_silgen_name("memmem")
private func systemMemmem(
    _ haystack: UnsafeRawPointer, _ haystackLength: Int, _ needle: UnsafeRawPointer,
    _ needleLength: Int
) -> UnsafeMutableRawPointer?
