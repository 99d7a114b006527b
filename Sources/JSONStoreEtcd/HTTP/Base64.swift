import JSONStore

/// Base64 (RFC 4648, with padding), as etcd's JSON gateway writes keys and values.
enum Base64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let a = iterator.next() {
            let b = iterator.next()
            let c = iterator.next()
            out.append(alphabet[Int(a >> 2)])
            out.append(alphabet[Int((a & 0x03) << 4 | (b ?? 0) >> 4)])
            out.append(
                b.map { alphabet[Int(($0 & 0x0F) << 2 | (c ?? 0) >> 6)] } ?? UInt8(ascii: "="))
            out.append(c.map { alphabet[Int($0 & 0x3F)] } ?? UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, or `nil` if it is not base64.
    ///
    /// - Complexity: O(n), four characters a step into a buffer sized once: a range of a
    ///   large prefix decodes every key and value it holds.
    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// The bytes the base64 text `input` encodes, or `nil` if it is not base64.
    static func decode(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        var count = input.count
        while count > 0, input[count - 1] == UInt8(ascii: "=") { count -= 1 }
        guard input.count - count <= 2 else { return nil }
        let table = values  // once, not a lazy global's check per byte
        let length = count / 4 * 3 + max(0, count % 4 - 1)
        guard count % 4 != 1 else { return nil }
        var failed = false
        let out = [UInt8](uninitializedCount: length) { buffer, initialized in
            var i = 0
            var o = 0
            table.withUnsafeBufferPointer { table in
                while i + 4 <= count {
                    let a = table[Int(input[i])]
                    let b = table[Int(input[i + 1])]
                    let c = table[Int(input[i + 2])]
                    let d = table[Int(input[i + 3])]
                    if (a | b | c | d) == 0xFF || (a | b | c | d) > 63 {
                        failed = true
                        return
                    }
                    let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[o] = UInt8(word >> 16)
                    buffer[o + 1] = UInt8((word >> 8) & 0xFF)
                    buffer[o + 2] = UInt8(word & 0xFF)
                    i += 4
                    o += 3
                }
                var accumulator: UInt32 = 0
                var bits = 0
                while i < count {
                    let value = table[Int(input[i])]
                    if value == 0xFF {
                        failed = true
                        return
                    }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        buffer[o] = UInt8((accumulator >> UInt32(bits)) & 0xFF)
                        o += 1
                    }
                    i += 1
                }
            }
            initialized = failed ? 0 : o
        }
        return failed ? nil : out
    }
}
