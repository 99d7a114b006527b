/// The Huffman code HPACK compresses header strings with (RFC 7541, Appendix B).
///
/// The code is canonical: a symbol's code is fixed by the lengths alone, codes of one
/// length being consecutive in the symbols' order, each length's first code the last
/// shorter one plus one, shifted. So only the lengths are kept, and the codes, and a
/// decoding table by length, are made from them once.
enum HPACKHuffman {
    /// The length in bits of the code of each byte, and of end-of-string (256), as the
    /// RFC's table gives them.
    static let lengths: [UInt8] = [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30,
    ]

    static let endOfString = 256
    static let longest = 30

    /// Each symbol's code, its bits in the low `lengths[symbol]` bits.
    static let codes: [UInt32] = {
        var codes = [UInt32](repeating: 0, count: lengths.count)
        var code: UInt32 = 0
        var length = 0
        for (n, symbol) in bySymbolLength.enumerated() {
            let next = Int(lengths[symbol])
            if n > 0 { code = (code + 1) << (next - length) }
            length = next
            codes[symbol] = code
        }
        return codes
    }()

    /// The symbols in the code's order: by length, then by value.
    static let bySymbolLength: [Int] = lengths.indices.sorted {
        (lengths[$0], $0) < (lengths[$1], $1)
    }

    /// For each length, the first code of it, and where its symbols begin in
    /// `bySymbolLength`; how many codes have it.
    static let firstCodes: [(code: UInt32, start: Int, count: Int)] = {
        var table = [(code: UInt32, start: Int, count: Int)](
            repeating: (0, 0, 0), count: longest + 1)
        for (n, symbol) in bySymbolLength.enumerated() {
            let length = Int(lengths[symbol])
            if table[length].count == 0 { table[length] = (codes[symbol], n, 0) }
            table[length].count += 1
        }
        return table
    }()

    /// `bytes` encoded: each byte's code, the last byte padded with the high bits of
    /// end-of-string (ones).
    static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encodedCount(bytes))
        var pending: UInt64 = 0
        var bits = 0
        for byte in bytes {
            let length = Int(lengths[Int(byte)])
            pending = pending << length | UInt64(codes[Int(byte)])
            bits += length
            while bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: pending >> bits))
            }
        }
        if bits > 0 {
            out.append(UInt8(truncatingIfNeeded: pending << (8 - bits) | (0xFF >> bits)))
        }
        return out
    }

    /// How many bytes `bytes` takes encoded.
    static func encodedCount(_ bytes: some Collection<UInt8>) -> Int {
        (bytes.reduce(0) { $0 + Int(lengths[Int($1)]) } + 7) / 8
    }

    /// What `encoded` decodes to; `nil` when it is not a string this code encodes: a
    /// code for end-of-string, or padding longer than seven bits or not all ones.
    static func decode(_ encoded: some Collection<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count * 8 / 5)
        var code: UInt32 = 0
        var length = 0
        for byte in encoded {
            for bit in stride(from: 7, through: 0, by: -1) {
                code = code << 1 | UInt32(byte >> bit & 1)
                length += 1
                let first = firstCodes[length]
                if first.count > 0, code >= first.code, code - first.code < first.count {
                    let symbol = bySymbolLength[first.start + Int(code - first.code)]
                    guard symbol != endOfString else { return nil }
                    out.append(UInt8(symbol))
                    (code, length) = (0, 0)
                } else if length == longest {
                    return nil
                }
            }
        }
        // What is left is padding: at most seven bits, all ones (end-of-string's first).
        guard length < 8, code == (1 << length) - 1 else { return nil }
        return out
    }
}
