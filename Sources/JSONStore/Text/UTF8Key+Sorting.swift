extension UTF8Key {
    /// `strings` sorted by their UTF-8 bytes, as `sorted(by: UTF8Key.less)` sorts them, but
    /// faster for many (`SortBuffer`).
    static func sorted(_ strings: [String]) -> [String] {
        var buffer = SortBuffer()
        for string in strings { buffer.append(string) }
        return buffer.sorted()
    }

    /// Strings to sort by their UTF-8 bytes, kept as those bytes one after another in one
    /// buffer: a listing appends each name's id as the directory gives it, and makes no
    /// string of it until the sort hands the ids out in order.
    ///
    /// The sort reads each string's first sixteen bytes once, in the order they were
    /// appended, as two big-endian integers (`Digit`), and sorts by the first eight, then
    /// the strings that share them by the next eight (a most-significant-first radix sort
    /// of 64-bit digits); only strings that share sixteen bytes are compared byte by byte.
    /// A string of sixteen bytes or fewer is made again from its digits: for such strings
    /// (most ids) the buffer is read in order, never at random; a longer one is read where
    /// it is, to be compared past sixteen bytes and to be made (a listing of a million ids
    /// sorts in a fraction of the time).
    struct SortBuffer {
        private var bytes: [UInt8] = []
        /// Where each string ends in `bytes`; it begins where the one before ends.
        private var ends: [Int] = []

        var count: Int { ends.count }

        mutating func append(_ string: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: string)
            ends.append(bytes.count)
        }

        mutating func append(_ string: String) {
            withBytes(string) { append($0) }
        }

        /// The strings, sorted by their bytes.
        func sorted() -> [String] {
            bytes.withUnsafeBufferPointer { all in
                ends.withUnsafeBufferPointer { ends in
                    let strings = Strings(bytes: all, ends: ends)
                    guard count > 64, count < Int(UInt32.max) else {
                        return (0..<count).map { String(decoding: strings[$0], as: UTF8.self) }
                            .sorted(by: less)
                    }
                    var order = (0..<count).map { Digit(strings[$0], index: $0) }
                    order.withUnsafeMutableBufferPointer { Self.sort($0, strings) }
                    return order.map { digit in
                        digit.string ?? String(decoding: strings[Int(digit.index)], as: UTF8.self)
                    }
                }
            }
        }

        /// Sorts `order` by the first eight bytes, then each run that shares them by the
        /// next eight, then each run that shares sixteen by the rest of the strings' bytes.
        private static func sort(_ order: UnsafeMutableBufferPointer<Digit>, _ strings: Strings) {
            var scratch: [Digit] = []
            sort(order, level: 0, scratch: &scratch)
            forEachRun(order, level: 0) { run in
                sort(run, level: 1, scratch: &scratch)
                forEachRun(run, level: 1) { same in
                    var same = same
                    same.sort { a, b in
                        strings.compare(Int(a.index), Int(b.index), from: 16) < 0
                    }
                }
            }
        }

        /// Sorts `run` by the digit of `level`: by its bytes when long, else by comparing.
        private static func sort(
            _ run: UnsafeMutableBufferPointer<Digit>, level: Int, scratch: inout [Digit]
        ) {
            if run.count > radixAbove {
                Digit.radixSort(run, level: level, scratch: &scratch)
            } else {
                var run = run
                run.sort { a, b in a.key(level) < b.key(level) }
            }
        }

        /// Calls `body` with each run of more than one digit alike at `level` whose strings
        /// go on past it (`run` sorted at that level).
        private static func forEachRun(
            _ run: UnsafeMutableBufferPointer<Digit>, level: Int,
            _ body: (UnsafeMutableBufferPointer<Digit>) -> Void
        ) {
            var start = 0
            while start < run.count {
                let key = run[start].key(level)
                var end = start + 1
                while end < run.count, run[end].key(level) == key { end += 1 }
                if end - start > 1, run[start].goesOn(level) {
                    body(UnsafeMutableBufferPointer(rebasing: run[start..<end]))
                }
                start = end
            }
        }
    }

    /// Above how many strings a run of the same digits is sorted by the next digit's
    /// bytes (`Digit.radixSort`) rather than by comparing them.
    static let radixAbove = 512

    /// The strings of a `SortBuffer`, by their positions.
    struct Strings {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>

        subscript(i: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]])
        }

        /// Compares the strings `i` and `j` from their byte `start` on, as `compare` does.
        func compare(_ i: Int, _ j: Int, from start: Int) -> Int {
            let (x, y) = (self[i], self[j])
            return UTF8Key.compare(
                UnsafeBufferPointer(rebasing: x[min(start, x.count)...]),
                UnsafeBufferPointer(rebasing: y[min(start, y.count)...]))
        }
    }
}
