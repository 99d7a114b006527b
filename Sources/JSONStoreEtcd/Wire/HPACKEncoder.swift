/// Writes the header blocks this client sends (RFC 7541, section 6).
///
/// It keeps no dynamic table (a request's few fields are small, and the server's table
/// stays as it is): a field the static table has whole is its index, one whose name it
/// has is that index and the value, any other is its name and value; never indexed when
/// `sensitive` names it (a token: 6.2.3), so no intermediary keeps it. Each string is
/// Huffman-coded when that is shorter.
enum HPACKEncoder {
    /// Header names whose values no table anywhere may keep.
    static let sensitive: Set<[UInt8]> = [Array("authorization".utf8), Array("token".utf8)]

    static func encode(_ fields: [HPACK.Field]) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            if let index = HPACK.staticTable.firstIndex(of: field) {
                integer(index + 1, prefix: 7, flags: 0x80, into: &out)
                continue
            }
            let never = sensitive.contains(field.name)
            let flags: UInt8 = never ? 0x10 : 0x00
            if let index = HPACK.staticTable.firstIndex(where: { $0.name == field.name }) {
                integer(index + 1, prefix: 4, flags: flags, into: &out)
            } else {
                out.append(flags)
                string(field.name, into: &out)
            }
            string(field.value, into: &out)
        }
        return out
    }

    /// `value` in the low `prefix` bits of a byte whose high bits are `flags`, the rest
    /// seven bits a byte (5.1).
    static func integer(_ value: Int, prefix: Int, flags: UInt8, into out: inout [UInt8]) {
        let mask = 1 << prefix - 1
        guard value >= mask else {
            out.append(flags | UInt8(value))
            return
        }
        out.append(flags | UInt8(mask))
        var rest = value - mask
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    /// A string literal (5.2), Huffman-coded when that is shorter.
    static func string(_ bytes: [UInt8], into out: inout [UInt8]) {
        if HPACKHuffman.encodedCount(bytes) < bytes.count {
            let coded = HPACKHuffman.encode(bytes)
            integer(coded.count, prefix: 7, flags: 0x80, into: &out)
            out += coded
        } else {
            integer(bytes.count, prefix: 7, flags: 0, into: &out)
            out += bytes
        }
    }
}
