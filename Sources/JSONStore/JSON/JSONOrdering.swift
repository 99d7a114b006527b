/// A total order on JSON values for sorting: missing < null < false < true < numbers <
/// strings < arrays < objects; numbers by exact decimal value (`9007199254740993` after
/// `9007199254740992`, `2` equal to `2.0`), strings by their UTF-8 bytes (which is
/// code point order), arrays element by element, objects by their text.
package enum JSONOrdering {
    package enum Result { case less, equal, greater }

    package static func compare(_ a: JSONValue?, _ b: JSONValue?) -> Result {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? .less : .greater }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y ? .equal : (!x ? .less : .greater)
        case (.number(let x), .number(let y)):
            return order(JSONNumber.compareValues(x, y))
        case (.string(let x), .string(let y)): return order(UTF8Key.compare(x, y))
        case (.array(let x), .array(let y)):
            for (ex, ey) in zip(x, y) {
                let c = compare(ex, ey)
                if c != .equal { return c }
            }
            return x.count < y.count ? .less : (y.count < x.count ? .greater : .equal)
        case (.object, .object):
            return order(UTF8Key.compare(a!.description, b!.description))
        default: return .equal
        }
    }

    static func order(_ comparison: Int) -> Result {
        comparison < 0 ? .less : (comparison > 0 ? .greater : .equal)
    }

    private static func rank(_ value: JSONValue?) -> Int {
        switch value {
        case nil: 0
        case .null: 1
        case .bool: 2
        case .number: 3
        case .string: 4
        case .array: 5
        case .object: 6
        }
    }
}
