extension JSONWriter {
    /// Writes the JSON text `bytes`, known to be valid (an item's bytes), as the writer
    /// would write the value it holds, without making that value: strings are escaped
    /// again (copied when they have no escape), numbers and literals copied, containers
    /// laid out anew. With `id`, the outermost value, an object, gets a member `"id": id`
    /// first.
    ///
    /// Iterative, with a stack of the open containers, so nesting is bounded by memory,
    /// not by the thread's stack.
    static func rewrite(
        _ bytes: UnsafeBufferPointer<UInt8>, id: String?, into out: inout [UInt8], indent: Int,
        pretty: Bool, strict: Bool
    ) {
        var i = MemberScan.start(of: bytes)
        var open = OpenContainers()
        var id = id
        func skipWhitespace() { i = MemberScan.skipWhitespace(bytes, i) }
        /// Writes the key at `i` and the colon after it, at the next line of its object.
        func key() {
            newline(&out, indent + open.count, pretty)
            skipWhitespace()
            string()
            skipWhitespace()
            i += 1  // the colon
            out.append(UInt8(ascii: ":"))
            if pretty { out.append(UInt8(ascii: " ")) }
        }
        func string() {
            let start = i
            let (end, escaped) = MemberScan.stringEnd(bytes, i)
            i = end
            guard escaped else {
                let inner = start + 1..<max(start + 1, end - 1)
                return writeString(
                    bytes: UnsafeBufferPointer(rebasing: bytes[inner]), into: &out, strict: strict)
            }
            let text = (try? JSONReader().read(UnsafeBufferPointer(rebasing: bytes[start..<end])))?
                .stringValue
            writeString(text ?? "", into: &out, strict: strict)
        }
        value: while true {
            skipWhitespace()
            guard i < bytes.count else { return }
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[i] == UInt8(ascii: "{")
                i += 1
                skipWhitespace()
                let empty =
                    i < bytes.count
                    && (bytes[i] == UInt8(ascii: "}") || bytes[i] == UInt8(ascii: "]"))
                if let given = id {
                    id = nil
                    out.append(UInt8(ascii: "{"))
                    open.append(true)
                    newline(&out, indent + 1, pretty)
                    writeString("id", into: &out, strict: strict)
                    out.append(UInt8(ascii: ":"))
                    if pretty { out.append(UInt8(ascii: " ")) }
                    writeString(given, into: &out, strict: strict)
                    guard empty else {
                        out.append(UInt8(ascii: ","))
                        key()
                        continue value
                    }
                } else if empty {
                    out.append(contentsOf: isObject ? "{}".utf8 : "[]".utf8)
                    i += 1
                    break
                } else {
                    out.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
                    open.append(isObject)
                    if isObject { key() } else { newline(&out, indent + open.count, pretty) }
                    continue value
                }
            case UInt8(ascii: "\""):
                string()
            default:
                let start = i
                i = MemberScan.valueEnd(bytes, i)  // a number or a literal
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            }
            // After a value: the next one of its container, or the container's end.
            while let isObject = open.last {
                skipWhitespace()
                guard i < bytes.count else { return }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    out.append(UInt8(ascii: ","))
                    if isObject { key() } else { newline(&out, indent + open.count, pretty) }
                    continue value
                }
                i += 1
                open.removeLast()
                newline(&out, indent + open.count, pretty)
                out.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
            return
        }
    }
}

/// Whether each open container is an object, innermost last: a bit each, the first 64
/// without an allocation (an item is written once per listing line).
private struct OpenContainers {
    private var bits: UInt64 = 0
    private var deeper: [Bool] = []
    private(set) var count = 0

    var last: Bool? {
        guard count > 0 else { return nil }
        return count <= 64 ? (bits >> UInt64(count - 1)) & 1 == 1 : deeper.last
    }

    mutating func append(_ isObject: Bool) {
        if count < 64 {
            let bit: UInt64 = 1 << UInt64(count)
            bits = isObject ? bits | bit : bits & ~bit
        } else {
            deeper.append(isObject)
        }
        count += 1
    }

    mutating func removeLast() {
        count -= 1
        if count >= 64 { deeper.removeLast() }
    }
}
