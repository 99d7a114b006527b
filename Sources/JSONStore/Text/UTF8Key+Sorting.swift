extension UTF8Key {
    /// `strings` sorted by their UTF-8 bytes, as `sorted(by: UTF8Key.less)` sorts them, but
    /// faster for many: their bytes copied once into one buffer and their positions sorted
    /// by `memcmp` of it, with no string touched while sorting (a listing of a million ids
    /// sorts in a fraction of the time).
    static func sorted(_ strings: [String]) -> [String] {
        guard strings.count > 64 else { return strings.sorted(by: less) }
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(strings.count + 1)
        for string in strings {
            starts.append(bytes.count)
            withBytes(string) { bytes.append(contentsOf: $0) }
        }
        starts.append(bytes.count)
        var order = Array(0..<strings.count)
        bytes.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                order.sort { a, b in
                    let x = UnsafeBufferPointer(rebasing: all[starts[a]..<starts[a + 1]])
                    let y = UnsafeBufferPointer(rebasing: all[starts[b]..<starts[b + 1]])
                    return compare(x, y) < 0
                }
            }
        }
        return order.map { strings[$0] }
    }
}
