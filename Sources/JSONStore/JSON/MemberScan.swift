import Glibc

/// Finds one member of an object in its JSON text without reading the others: a string is
/// skipped to its closing quote, a container to its matching bracket.
///
/// Only for text known to be valid (an item's bytes, which the reader has checked), so it
/// never reports an error; on anything else it may give `nil` or a wrong range, never read
/// out of bounds.
enum MemberScan {
    /// The range of the value of the member `key` of the object `bytes` holds (after an
    /// optional byte order mark), or `nil` if it has none.
    ///
    /// - Complexity: O(n) in the bytes before the member's end, no allocation unless a key
    ///   has an escape.
    static func valueRange(of key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var key = key
        return key.withUTF8 { wanted in
            var i = skipWhitespace(bytes, start(of: bytes))
            guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
            i += 1
            while true {
                i = skipWhitespace(bytes, i)
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
                let (keyEnd, escaped) = stringEnd(bytes, i)
                let matches = keyMatches(
                    UnsafeBufferPointer(rebasing: bytes[i..<keyEnd]), wanted, escaped: escaped)
                i = skipWhitespace(bytes, keyEnd)
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                let start = skipWhitespace(bytes, i + 1)
                let end = valueEnd(bytes, start)
                if matches { return start..<end }
                i = skipWhitespace(bytes, end)
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        }
    }

    /// Whether the string token `token` (quotes included) spells `wanted`.
    private static func keyMatches(
        _ token: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>, escaped: Bool
    ) -> Bool {
        guard escaped else {
            return token.count == wanted.count + 2
                && (wanted.isEmpty
                    || memcmp(token.baseAddress! + 1, wanted.baseAddress!, wanted.count) == 0)
        }
        guard case .string(let text)? = try? JSONReader().read(token) else { return false }
        return UTF8Key.equal(text, String(decoding: wanted, as: UTF8.self))
    }

    /// Where the text begins: after a byte order mark, if it has one.
    static func start(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return i
            }
        }
        return i
    }

    /// The end of the string starting at `start` (past its closing quote), and whether it
    /// has an escape.
    static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int)
        -> (end: Int, escaped: Bool)
    {
        var i = start + 1
        var escaped = false
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""): return (i + 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                i += 2
            default: i += 1
            }
        }
        return (bytes.count, escaped)
    }

    /// The end of the value starting at `start`.
    static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, start).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    i = stringEnd(bytes, i).end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return bytes.count
        default:
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A,
                    0x0D:
                    return i
                default: i += 1
                }
            }
            return i
        }
    }
}
