/// A JSON object whose members keep their order.
///
/// Keys are matched by their UTF-8 bytes (RFC 8259 §8.3), not by Unicode equivalence.
///
/// Setting an existing member keeps its place; a new member is appended; setting `nil`
/// removes one. That is what makes a rewrite of a hand-edited file a small diff.
///
/// - Complexity: Lookup is a linear scan, which beats hashing for the few members an item
///   has; objects are not meant to hold thousands of members.
public struct JSONObject: Sendable, Hashable {
    /// One member: a key and its value.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() {
        members = []
    }

    /// An object with these members, in this order. A repeated key keeps its first place
    /// and its last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        members = []
        for (key, value) in pairs { self[key] = value }
    }

    /// Members known to have distinct keys (the reader checks this).
    package init(uniqueMembers: [Member]) {
        members = uniqueMembers
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The position of `key`, if present.
    public func index(of key: String) -> Int? {
        members.firstIndex { UTF8Key.equal($0.key, key) }
    }

    /// The value of `key`; setting keeps the member's place, appends a new key, and removes
    /// the member when set to `nil`.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where UTF8Key.equal(member.key, key) { return member.value }
            return nil
        }
        set {
            if let i = index(of: key) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Removes `key` and returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = index(of: key) else { return nil }
        return members.remove(at: i).value
    }

    /// Inserts or moves `key` to the front with `value`.
    ///
    /// Builds the members anew at their exact size: every item read gets its `"id"` this
    /// way, and an insertion would double the array's capacity.
    mutating func setFirst(_ key: String, _ value: JSONValue) {
        var result: [Member] = []
        result.reserveCapacity(members.count + 1)
        result.append(Member(key: key, value: value))
        for member in members where !UTF8Key.equal(member.key, key) { result.append(member) }
        members = result
    }

    /// This object's members reordered to follow `reference`: keys that `reference` has
    /// come first in its order, then the others in their own order.
    ///
    /// Used when an item is replaced, so the file keeps the order a person gave it.
    public func ordered(like reference: JSONObject) -> JSONObject {
        guard !reference.isEmpty else { return self }
        var rank: [UTF8Key: Int] = [:]
        for (i, key) in reference.keys.enumerated() { rank[UTF8Key(key)] = i }
        let known = members.filter { rank[UTF8Key($0.key)] != nil }
            .sorted { rank[UTF8Key($0.key)]! < rank[UTF8Key($1.key)]! }
        let new = members.filter { rank[UTF8Key($0.key)] == nil }
        return JSONObject(uniqueMembers: known + new)
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text.
    public var description: String { JSONValue.object(self).description }
}
