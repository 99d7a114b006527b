extension SchemaValidator {
    /// Checks a validation keyword (one that applies no subschema).
    mutating func assert(_ keyword: SchemaKeyword, of node: Int, _ value: JSONValue) -> Bool {
        let name = keyword.name
        var problem: String?
        switch (keyword, value) {
        case (.type(let types), _):
            if !types.contains(where: { Self.value(value, is: $0) }) {
                let names = types.map(\.rawValue).joined(separator: " or ")
                problem = "\(Self.describe(value)) is not of type \(names)"
            }
        case (.enumeration(let allowed), _):
            if !allowed.contains(value) {
                let shown = allowed.values.prefix(5).map(Self.describe).joined(separator: ", ")
                problem =
                    "\(Self.describe(value)) is not one of \(shown)\(allowed.values.count > 5 ? ", …" : "")"
            }
        case (.constant(let expected), _):
            if !SchemaEquality.equal(expected, value) {
                problem = "\(Self.describe(value)) is not \(Self.describe(expected))"
            }
        case (.multipleOf(let divisor), .number(let number)):
            let fallback = (number.doubleValue, divisor.doubleValue)
            if !SchemaNumber(number).isMultiple(of: SchemaNumber(divisor), fallback: fallback) {
                problem = "\(number) is not a multiple of \(divisor)"
            }
        case (.maximum(let bound), .number(let number)):
            if JSONNumber.compareValues(number, bound) > 0 {
                problem = "\(number) is greater than the maximum \(bound)"
            }
        case (.exclusiveMaximum(let bound), .number(let number)):
            if JSONNumber.compareValues(number, bound) >= 0 {
                problem = "\(number) is not less than the exclusive maximum \(bound)"
            }
        case (.minimum(let bound), .number(let number)):
            if JSONNumber.compareValues(number, bound) < 0 {
                problem = "\(number) is less than the minimum \(bound)"
            }
        case (.exclusiveMinimum(let bound), .number(let number)):
            if JSONNumber.compareValues(number, bound) <= 0 {
                problem = "\(number) is not greater than the exclusive minimum \(bound)"
            }
        case (.maxLength(let limit), .string(let string)):
            let length = Self.codePoints(string)
            if length > limit { problem = "\(length) characters, more than maxLength \(limit)" }
        case (.minLength(let limit), .string(let string)):
            let length = Self.codePoints(string)
            if length < limit { problem = "\(length) characters, fewer than minLength \(limit)" }
        case (.pattern(let pattern), .string(let string)):
            switch pattern.matches(string) {
            case true?: break
            case false?:
                problem = "\(Self.describe(value)) does not match the pattern \(pattern.source)"
            case nil:
                problem =
                    "the pattern \(pattern.source) gave up after \(ECMARegex.stepLimit) steps on this value"
            }
        case (.maxItems(let limit), .array(let array)):
            if array.count > limit {
                problem = "\(array.count) elements, more than maxItems \(limit)"
            }
        case (.minItems(let limit), .array(let array)):
            if array.count < limit {
                problem = "\(array.count) elements, fewer than minItems \(limit)"
            }
        case (.uniqueItems, .array(let array)):
            if let (first, second) = SchemaEquality.firstDuplicate(in: array) {
                problem = "elements \(first) and \(second) are equal"
            }
        case (.maxProperties(let limit), .object(let object)):
            let count = Set(object.keys).count
            if count > limit { problem = "\(count) members, more than maxProperties \(limit)" }
        case (.minProperties(let limit), .object(let object)):
            let count = Set(object.keys).count
            if count < limit { problem = "\(count) members, fewer than minProperties \(limit)" }
        case (.required(let names), .object(let object)):
            let missing = names.filter { object[$0] == nil }
            if !missing.isEmpty {
                let list = missing.map { "\"\($0)\"" }.joined(separator: ", ")
                problem =
                    missing.count == 1
                    ? "the member \(list) is missing" : "the members \(list) are missing"
            }
        case (.dependentRequired(let dependencies), .object(let object)):
            for (name, required) in dependencies where object[name] != nil {
                let missing = required.filter { object[$0] == nil }
                if !missing.isEmpty {
                    let list = missing.map { "\"\($0)\"" }.joined(separator: ", ")
                    problem = "\"\(name)\" requires \(list)"
                    break
                }
            }
        case (.format(let format), _):
            if !format.accepts(value) {
                problem = "\(Self.describe(value)) is not a valid \(format.rawValue)"
            }
        default:
            break
        }
        guard let problem else { return true }
        fail(node, name, problem)
        return false
    }

    static func value(_ value: JSONValue, is type: SchemaType) -> Bool {
        switch (type, value) {
        case (.null, .null), (.boolean, .bool), (.object, .object), (.array, .array),
            (.number, .number), (.string, .string):
            return true
        case (.integer, .number(let number)):
            return SchemaNumber(number).isInteger
        default:
            return false
        }
    }

    /// A short form of a value for a message: scalars as JSON, containers by kind.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.text
        case .string(let s):
            let shown = s.unicodeScalars.count > 40 ? String(s.prefix(40)) + "…" : s
            return JSONValue.string(shown).description
        case .array(let a): return a.isEmpty ? "[]" : "an array"
        case .object(let o): return o.isEmpty ? "{}" : "an object"
        }
    }
}

extension SchemaValidator {
    /// The number of code points of `string`, its UTF-8 bytes that begin one counted (a
    /// walk of the view of scalars decodes each one, several times slower).
    static func codePoints(_ string: String) -> Int {
        var copy = string
        return copy.withUTF8 { bytes in bytes.count { $0 & 0xC0 != 0x80 } }
    }
}
