/// Two texts compared as values without making either: what `JSONValue`'s `==` decides
/// (members in their order, numbers by their text, strings by their decoded bytes), read
/// off the tapes.
extension JSONTape {
    /// Whether the value of this tape over `bytes` is the value of `other` over
    /// `otherBytes`.
    ///
    /// Two tapes of one shape have the same entries in the same order (a container's
    /// entry says how many members or elements follow it), so the values are walked entry
    /// by entry; a string is decoded only when either side has escapes.
    ///
    /// - Complexity: O(n) in the entries, no allocation but for an escaped string.
    func sameValue(
        in bytes: UnsafeBufferPointer<UInt8>, as other: JSONTape,
        in otherBytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard entries.count == other.entries.count else { return false }
        for index in entries.indices {
            let (mine, theirs) = (entries[index], other.entries[index])
            guard mine.word & 0xF == theirs.word & 0xF else { return false }
            switch mine.kind {
            case .object, .array:
                guard mine.word == theirs.word, mine.extent == theirs.extent else { return false }
            case .number:
                guard Self.same(bytes[text(at: index)], otherBytes[other.text(at: index)])
                else { return false }
            case .string:
                if mine.count == 0 && theirs.count == 0 {
                    guard Self.same(bytes[text(at: index)], otherBytes[other.text(at: index)])
                    else { return false }
                } else {
                    let (a, b) = (
                        string(at: index, in: bytes), other.string(at: index, in: otherBytes)
                    )
                    guard UTF8Key.equal(a, b) else { return false }
                }
            case .true, .false, .null:
                break
            }
        }
        return true
    }

    private static func same(
        _ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>
    )
        -> Bool
    {
        a.count == b.count && a.elementsEqual(b)
    }
}
