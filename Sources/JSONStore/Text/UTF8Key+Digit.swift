extension UTF8Key {
    /// A string's first sixteen bytes, as a `SortBuffer` sorts them: two digits of eight
    /// bytes read as big-endian integers, zeros past the string's end, each with how many
    /// of the string's bytes are from its start on (9 for more than 8: of two strings with
    /// the same digit, the one that ends first is a prefix of the other).
    struct Digit {
        /// A digit and its count of remaining bytes, ordered as the bytes are.
        struct Key: Equatable {
            var value: UInt64 = 0
            var remaining: UInt8 = 0

            init(value: UInt64, remaining: UInt8) {
                (self.value, self.remaining) = (value, remaining)
            }

            static func < (a: Key, b: Key) -> Bool {
                a.value != b.value ? a.value < b.value : a.remaining < b.remaining
            }

            /// The digit of `string` from its byte `start` on.
            init(_ string: UnsafeBufferPointer<UInt8>, from start: Int) {
                if start + 8 <= string.count, let base = string.baseAddress {
                    value = UInt64(
                        bigEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
                } else {
                    for k in start..<(start + 8) {
                        value = value << 8 | UInt64(k < string.count ? string[k] : 0)
                    }
                }
                remaining = UInt8(min(max(string.count - start, 0), 9))
            }

            /// The byte at `pass` of the radix sort: the count first, then the value's
            /// bytes, least significant first.
            @inline(__always)
            func byte(_ pass: Int) -> Int {
                pass == 0
                    ? Int(remaining) : Int(truncatingIfNeeded: value >> (8 * (pass - 1))) & 0xFF
            }
        }

        // The two keys' fields side by side: 24 bytes a digit, not the 32 two `Key`s take.
        private let firstValue: UInt64
        private let secondValue: UInt64
        /// The string's position in its buffer.
        let index: UInt32
        private let firstRemaining: UInt8
        private let secondRemaining: UInt8

        init(_ string: UnsafeBufferPointer<UInt8>, index: Int) {
            let (first, second) = (Key(string, from: 0), Key(string, from: 8))
            (firstValue, firstRemaining) = (first.value, first.remaining)
            (secondValue, secondRemaining) = (second.value, second.remaining)
            self.index = UInt32(index)
        }

        var first: Key { Key(value: firstValue, remaining: firstRemaining) }
        var second: Key { Key(value: secondValue, remaining: secondRemaining) }

        /// The first digit (level 0) or the second (level 1).
        @inline(__always)
        func key(_ level: Int) -> Key { level == 0 ? first : second }

        /// Whether the string has bytes past the digit of `level`.
        func goesOn(_ level: Int) -> Bool { key(level).remaining == 9 }

        /// The string, made from the digits when they hold all of it (sixteen bytes or
        /// fewer); `nil` for a longer one.
        var string: String? {
            let count =
                first.remaining < 9
                ? Int(first.remaining) : second.remaining < 9 ? 8 + Int(second.remaining) : -1
            guard count >= 0 else { return nil }
            return String(unsafeUninitializedCapacity: count) { bytes in
                for k in 0..<count {
                    let digit = k < 8 ? first.value : second.value
                    bytes[k] = UInt8(truncatingIfNeeded: digit >> (56 - 8 * (k % 8)))
                }
                return count
            }
        }

        /// Sorts `digits` by their digit of `level` a byte at a time, least significant
        /// first (the count, then the value's eight bytes), each pass a stable scatter by
        /// that byte's counts; a byte every digit has alike (ids that share a prefix, a
        /// length) is skipped, so a million ids that differ in three bytes take four
        /// passes.
        static func radixSort(
            _ digits: UnsafeMutableBufferPointer<Digit>, level: Int, scratch: inout [Digit]
        ) {
            let n = digits.count
            if scratch.count < n { scratch = Array(repeating: digits[0], count: n) }
            var counts = [Int](repeating: 0, count: 9 * 256)
            var next = [Int](repeating: 0, count: 256)
            counts.withUnsafeMutableBufferPointer { counts in
                for digit in digits {
                    let key = digit.key(level)
                    for pass in 0..<9 { counts[pass * 256 + key.byte(pass)] += 1 }
                }
                next.withUnsafeMutableBufferPointer { next in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        var (from, to) = (
                            digits, UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
                        )
                        for pass in 0..<9
                        where !counts[pass * 256..<(pass + 1) * 256].contains(n) {
                            var total = 0
                            for b in 0..<256 {
                                next[b] = total
                                total += counts[pass * 256 + b]
                            }
                            for digit in from {
                                let b = digit.key(level).byte(pass)
                                to[next[b]] = digit
                                next[b] += 1
                            }
                            swap(&from, &to)
                        }
                        if from.baseAddress != digits.baseAddress {
                            _ = digits.update(fromContentsOf: from)
                        }
                    }
                }
            }
        }
    }
}
