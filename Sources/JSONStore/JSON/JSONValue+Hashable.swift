// Equality and hashing by bytes.
//
// Strings and member names are equal when their UTF-8 bytes are, as RFC 8259 §8.3
// compares member names: `"é"` precomposed and `"é"` as `e` + U+0301 are two keys of one
// object and two different values, never one (Swift's `String ==` would make them one).

extension JSONValue {
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): UTF8Key.equal(x, y)
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x == y
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(UTF8Key(s))
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }
}

extension JSONObject.Member {
    public static func == (a: JSONObject.Member, b: JSONObject.Member) -> Bool {
        UTF8Key.equal(a.key, b.key) && a.value == b.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(UTF8Key(key))
        hasher.combine(value)
    }
}
