/// Reads the header blocks a server sends (RFC 7541, section 6), keeping the dynamic
/// table in step with the server's encoder.
///
/// The server is not trusted: every integer and length is checked before it is used, an
/// index must name a field, a table size update must stay within what this side allowed
/// (`SETTINGS_HEADER_TABLE_SIZE`) and come first in a block, and a block decodes to at
/// most `maxListSize` (as HTTP/2 counts it: each field's bytes and 32).
struct HPACKDecoder {
    private var table: HPACK.DynamicTable
    /// The largest table the server may ask for: what this side announced
    /// (`SETTINGS_HEADER_TABLE_SIZE`), and set again when it announces another.
    var maxTableSize: Int
    let maxListSize: Int

    init(maxTableSize: Int = 4096, maxListSize: Int = 1 << 20) {
        table = HPACK.DynamicTable(capacity: maxTableSize)
        (self.maxTableSize, self.maxListSize) = (maxTableSize, maxListSize)
    }

    /// The size the dynamic table now takes at most.
    var tableCapacity: Int { table.capacity }

    /// The fields of one whole header block (its HEADERS and CONTINUATION frames'
    /// fragments joined), in order.
    mutating func decode(_ block: [UInt8]) throws(HPACK.Error) -> [HPACK.Field] {
        var fields: [HPACK.Field] = []
        var listSize = 0
        var at = 0
        var updatesAllowed = true
        while at < block.count {
            let first = block[at]
            if first & 0x80 != 0 {
                // An indexed field (6.1).
                fields.append(try field(at: Int(try integer(block, &at, prefix: 7))))
            } else if first & 0xC0 == 0x40 {
                // A literal added to the table (6.2.1).
                let field = try literal(block, &at, prefix: 6)
                table.add(field)
                fields.append(field)
            } else if first & 0xE0 == 0x20 {
                // A dynamic table size update (6.3): first in a block only (4.2).
                guard updatesAllowed else {
                    throw HPACK.Error("a table size update after a field")
                }
                let size = try integer(block, &at, prefix: 5)
                guard size <= maxTableSize else {
                    throw HPACK.Error("a table size of \(size), past the \(maxTableSize) allowed")
                }
                table.resize(to: Int(size))
                continue
            } else {
                // A literal not added, or never to be (6.2.2, 6.2.3).
                fields.append(try literal(block, &at, prefix: 4))
            }
            updatesAllowed = false
            listSize += fields[fields.count - 1].size
            guard listSize <= maxListSize else {
                throw HPACK.Error("a header list larger than \(maxListSize) bytes")
            }
        }
        return fields
    }

    /// The field at `index`: the static table's, then the dynamic table's.
    private func field(at index: Int) throws(HPACK.Error) -> HPACK.Field {
        let statics = HPACK.staticTable.count
        guard index > 0, index <= statics + table.count else {
            throw HPACK.Error("a field indexed \(index), which the tables do not have")
        }
        return index <= statics ? HPACK.staticTable[index - 1] : table[index - statics]
    }

    /// A literal field whose name is indexed in the first byte's low `prefix` bits, or,
    /// when they are zero, follows as a string; its value follows as a string.
    private func literal(_ block: [UInt8], _ at: inout Int, prefix: Int) throws(HPACK.Error)
        -> HPACK.Field
    {
        let index = try integer(block, &at, prefix: prefix)
        let name = index == 0 ? try string(block, &at) : try field(at: Int(index)).name
        return HPACK.Field(name: name, value: try string(block, &at))
    }

    /// An integer of `prefix` bits in the first byte, continued seven bits a byte (5.1);
    /// at most 2^31 - 1, so nothing a server sends can overflow what is made of it.
    private func integer(_ block: [UInt8], _ at: inout Int, prefix: Int)
        throws(HPACK.Error) -> UInt64
    {
        let mask = UInt64(1) << prefix - 1
        var value = UInt64(block[at]) & mask
        at += 1
        guard value == mask else { return value }
        var shift: UInt64 = 0
        while true {
            guard at < block.count else { throw HPACK.Error("an integer cut short") }
            let byte = block[at]
            at += 1
            value += UInt64(byte & 0x7F) << shift
            guard value < 1 << 31 else { throw HPACK.Error("an integer past 2^31") }
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift <= 28 else { throw HPACK.Error("an integer past 2^31") }
        }
    }

    /// A string literal (5.2): its length, then its bytes, Huffman-coded when the first
    /// byte's high bit says so.
    private func string(_ block: [UInt8], _ at: inout Int) throws(HPACK.Error) -> [UInt8] {
        guard at < block.count else { throw HPACK.Error("a string cut short") }
        let huffman = block[at] & 0x80 != 0
        let length = Int(try integer(block, &at, prefix: 7))
        guard length <= block.count - at else {
            throw HPACK.Error("a string of \(length) bytes past the block's end")
        }
        let bytes = block[at..<at + length]
        at += length
        guard huffman else { return Array(bytes) }
        guard let decoded = HPACKHuffman.decode(bytes) else {
            throw HPACK.Error("a Huffman-coded string that does not decode")
        }
        return decoded
    }
}
