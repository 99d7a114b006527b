/// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers by
/// value (`1` and `1.0` are equal), objects whatever the order of their members, strings
/// by code points.
enum SchemaEquality {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return JSONNumber.equalValues(x, y)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            let (keysX, keysY) = (Set(x.keys.map(UTF8Key.init)), Set(y.keys.map(UTF8Key.init)))
            guard keysX == keysY else { return false }
            return x.allSatisfy { member in y[member.key].map { equal(member.value, $0) } ?? false }
        default: return a == b
        }
    }

    /// The first two equal elements of `array`, by index; `nil` when all differ.
    ///
    /// - Complexity: O(n) expected, elements hashed by a key that equal values share.
    static func firstDuplicate(in array: [JSONValue]) -> (Int, Int)? {
        var seen: [Int: [Int]] = [:]
        for (i, element) in array.enumerated() {
            let hash = self.hash(element)
            for j in seen[hash] ?? [] where equal(array[j], element) { return (j, i) }
            seen[hash, default: []].append(i)
        }
        return nil
    }

    /// A hash equal values share: numbers by their normalized digits and exponent,
    /// objects by their members whatever the order.
    static func hash(_ value: JSONValue) -> Int {
        var hasher = Hasher()
        switch value {
        case .number(let n):
            let number = SchemaNumber(n)
            hasher.combine(number.digits)
            hasher.combine(number.exponent)
            hasher.combine(number.negative)
        case .array(let list):
            hasher.combine(list.count)
            for element in list { hasher.combine(hash(element)) }
        case .object(let object):
            var sum = 0
            for member in object {
                var inner = Hasher()
                inner.combine(UTF8Key(member.key))
                inner.combine(hash(member.value))
                sum = sum &+ inner.finalize()
            }
            hasher.combine(sum)
        default:
            hasher.combine(value)
        }
        return hasher.finalize()
    }
}
