extension SchemaValidator {
    /// Checks a validation keyword (one that applies no subschema).
    ///
    /// Switched on the keyword alone, the value's kind matched inside: a switch on the
    /// pair copied both, a retain and release of each per keyword of every item.
    mutating func assert(_ keyword: SchemaKeyword, of node: Int, _ value: JSONValue) -> Bool {
        guard let problem = problem(keyword, value) else { return true }
        fail(node, keyword.name, problem)
        return false
    }

    /// What is wrong with `value` by `keyword`, or `nil` when it holds.
    private func problem(_ keyword: SchemaKeyword, _ value: JSONValue) -> String? {
        switch keyword {
        case .type(let types):
            if types.contains(where: { Self.value(value, is: $0) }) { return nil }
            let names = types.map(\.rawValue).joined(separator: " or ")
            return "\(Self.describe(value)) is not of type \(names)"
        case .enumeration(let allowed):
            if allowed.contains(value) { return nil }
            let shown = allowed.values.prefix(5).map(Self.describe).joined(separator: ", ")
            return
                "\(Self.describe(value)) is not one of \(shown)\(allowed.values.count > 5 ? ", …" : "")"
        case .constant(let expected):
            if SchemaEquality.equal(expected, value) { return nil }
            return "\(Self.describe(value)) is not \(Self.describe(expected))"
        case .multipleOf, .maximum, .exclusiveMaximum, .minimum, .exclusiveMinimum:
            guard case .number(let number) = value else { return nil }
            return problem(keyword, number)
        case .maxLength(let limit):
            // A code point takes one to four bytes of UTF-8: the byte count, known at
            // once, mostly settles it.
            guard case .string(let string) = value, string.utf8.count > limit else { return nil }
            let length = Self.codePoints(string)
            return length > limit ? "\(length) characters, more than maxLength \(limit)" : nil
        case .minLength(let limit):
            guard case .string(let string) = value, string.utf8.count / 4 < limit else {
                return nil
            }
            let length = Self.codePoints(string)
            return length < limit ? "\(length) characters, fewer than minLength \(limit)" : nil
        case .pattern(let pattern):
            guard case .string(let string) = value else { return nil }
            switch pattern.matches(string) {
            case true?: return nil
            case false?:
                return "\(Self.describe(value)) does not match the pattern \(pattern.source)"
            case nil:
                return
                    "the pattern \(pattern.source) gave up after \(ECMARegex.stepLimit) steps on this value"
            }
        case .maxItems, .minItems, .uniqueItems:
            guard case .array(let array) = value else { return nil }
            return problem(keyword, array)
        case .maxProperties, .minProperties, .required, .dependentRequired:
            guard case .object(let object) = value else { return nil }
            return problem(keyword, object)
        case .format(let format):
            if format.accepts(value) { return nil }
            return "\(Self.describe(value)) is not a valid \(format.rawValue)"
        default:
            return nil
        }
    }

    private func problem(_ keyword: SchemaKeyword, _ number: JSONNumber) -> String? {
        switch keyword {
        case .multipleOf(let divisor):
            let fallback = (number.doubleValue, divisor.doubleValue)
            if SchemaNumber(number).isMultiple(of: SchemaNumber(divisor), fallback: fallback) {
                return nil
            }
            return "\(number) is not a multiple of \(divisor)"
        case .maximum(let bound):
            return JSONNumber.compareValues(number, bound) > 0
                ? "\(number) is greater than the maximum \(bound)" : nil
        case .exclusiveMaximum(let bound):
            return JSONNumber.compareValues(number, bound) >= 0
                ? "\(number) is not less than the exclusive maximum \(bound)" : nil
        case .minimum(let bound):
            return JSONNumber.compareValues(number, bound) < 0
                ? "\(number) is less than the minimum \(bound)" : nil
        case .exclusiveMinimum(let bound):
            return JSONNumber.compareValues(number, bound) <= 0
                ? "\(number) is not greater than the exclusive minimum \(bound)" : nil
        default:
            return nil
        }
    }

    private func problem(_ keyword: SchemaKeyword, _ array: [JSONValue]) -> String? {
        switch keyword {
        case .maxItems(let limit):
            return array.count > limit
                ? "\(array.count) elements, more than maxItems \(limit)" : nil
        case .minItems(let limit):
            return array.count < limit
                ? "\(array.count) elements, fewer than minItems \(limit)" : nil
        case .uniqueItems:
            guard let (first, second) = SchemaEquality.firstDuplicate(in: array) else { return nil }
            return "elements \(first) and \(second) are equal"
        default:
            return nil
        }
    }

    private func problem(_ keyword: SchemaKeyword, _ object: JSONObject) -> String? {
        switch keyword {
        case .maxProperties(let limit):
            let count = Set(object.keys).count
            return count > limit ? "\(count) members, more than maxProperties \(limit)" : nil
        case .minProperties(let limit):
            let count = Set(object.keys).count
            return count < limit ? "\(count) members, fewer than minProperties \(limit)" : nil
        case .required(let names):
            guard names.contains(where: { object[$0] == nil }) else { return nil }
            let missing = names.filter { object[$0] == nil }
            let list = Self.quoted(missing)
            return missing.count == 1
                ? "the member \(list) is missing" : "the members \(list) are missing"
        case .dependentRequired(let dependencies):
            for (name, required) in dependencies where object[name] != nil {
                let missing = required.filter { object[$0] == nil }
                if !missing.isEmpty { return "\"\(name)\" requires \(Self.quoted(missing))" }
            }
            return nil
        default:
            return nil
        }
    }

    static func value(_ value: JSONValue, is type: SchemaType) -> Bool {
        switch (type, value) {
        case (.null, .null), (.boolean, .bool), (.object, .object), (.array, .array),
            (.number, .number), (.string, .string):
            return true
        case (.integer, .number(let number)):
            return number.isWhole
        default:
            return false
        }
    }

    /// Member names for a message: `"title", "status"`.
    private static func quoted(_ names: [String]) -> String {
        names.map { "\"\($0)\"" }.joined(separator: ", ")
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
