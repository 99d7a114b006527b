/// Values made from a tape and its bytes, on access: the same values the reader makes.
extension JSONTape {
    /// The string at `index` (a key or a value), its escapes decoded.
    func string(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = text(at: index)
        guard entries[index].count != 0 else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self)
        }
        // The tape exists, so the string is valid: the reader decodes it again.
        var parser = JSONParser(bytes: bytes, maxDepth: 0)
        parser.i = text.lowerBound - 1
        return (try? parser.string()) ?? ""
    }

    /// The number at `index`.
    func number(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> JSONNumber {
        let text = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[text(at: index)]), as: UTF8.self)
        return JSONNumber(uncheckedText: text)
    }

    /// The value of the outermost object's member `key`, if the text is an object that has
    /// one.
    func value(ofMember key: String, in bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        guard entries.first?.kind == .object else { return nil }
        return member(key, of: 0, in: bytes).map { value(at: $0.value, in: bytes) }
    }

    /// Whether the keys at `a` and `b` are the same string.
    func sameKey(_ a: Int, _ b: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Without escapes `b`'s text is its string, as `keyMatches` takes a key.
        guard entries[b].count == 0 else {
            return UTF8Key.equal(string(at: a, in: bytes), string(at: b, in: bytes))
        }
        return keyMatches(UnsafeBufferPointer(rebasing: bytes[text(at: b)]), at: a, in: bytes)
    }

    /// The value at `index`, made whole.
    func value(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> JSONValue {
        let entry = entries[index]
        switch entry.kind {
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(entry.count)
            var child = index + 1
            for _ in 0..<entry.count {
                let key = string(at: child, in: bytes)
                members.append(.init(key: key, value: value(at: child + 1, in: bytes)))
                child = next(after: child + 1)
            }
            return .object(JSONObject(uniqueMembers: members))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(entry.count)
            var child = index + 1
            for _ in 0..<entry.count {
                elements.append(value(at: child, in: bytes))
                child = next(after: child)
            }
            return .array(elements)
        case .string: return .string(string(at: index, in: bytes))
        case .number: return .number(number(at: index, in: bytes))
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        }
    }
}
