import JSONStore

/// A schema every value seen satisfies, learnt from the values (`jsonstore schema infer`):
/// the types at each place (`integer` where every number is whole), `required` for the
/// members every object has and no others (`additionalProperties: false`, so a misspelt
/// member is caught), `enum` for a string member with few distinct values over many
/// items, nested objects and arrays described the same way.
struct SchemaInference {
    /// What was seen at one place of the values.
    final class Shape {
        /// How many values were seen here.
        var count = 0
        var null = false, boolean = false, string = false
        /// Numbers, and whether every one of them was whole.
        var numbers = 0
        var fractional = false
        var objects = 0
        var arrays = 0
        /// Each member seen in the objects here, in the order first seen, and how many
        /// objects had it.
        var members: [(name: String, shape: Shape)] = []
        var memberIndex: [UTF8Key: Int] = [:]
        /// The elements of the arrays here, all together.
        var elements: Shape?
        /// The distinct strings seen, while they are few.
        var strings: [String: Int]? = [:]
        var stringCount = 0

        func add(_ value: JSONValue) {
            count += 1
            switch value {
            case .null: null = true
            case .bool: boolean = true
            case .number(let number):
                numbers += 1
                if !number.isWhole { fractional = true }
            case .string(let text):
                string = true
                stringCount += 1
                if strings != nil {
                    strings![text, default: 0] += 1
                    if strings!.count > SchemaInference.enumLimit { strings = nil }
                }
            case .array(let array):
                arrays += 1
                let elements = self.elements ?? Shape()
                self.elements = elements
                for element in array { elements.add(element) }
            case .object(let object):
                objects += 1
                for member in object {
                    let key = UTF8Key(member.key)
                    let index: Int
                    if let known = memberIndex[key] {
                        index = known
                    } else {
                        index = members.count
                        memberIndex[key] = index
                        members.append((member.key, Shape()))
                    }
                    members[index].shape.add(member.value)
                }
            }
        }
    }

    /// The most distinct values a string member may have to be described by `enum`.
    static let enumLimit = 12

    private let root = Shape()

    /// Learns from one more value.
    mutating func add(_ value: JSONValue) { root.add(value) }

    /// The schema learnt, a 2020-12 document.
    var schema: JSONValue {
        guard case .object(let learnt) = Self.schema(of: root) else { return .bool(true) }
        var object: JSONObject = ["$schema": .string(SchemaRegistry.metaSchema)]
        for member in learnt { object[member.key] = member.value }
        return .object(object)
    }

    /// The schema of what was seen at `shape`; `member`: whether it is an object's member,
    /// the only place a choice among few strings becomes an `enum`.
    static func schema(of shape: Shape, member: Bool = false) -> JSONValue {
        var types: [String] = []
        if shape.objects > 0 { types.append("object") }
        if shape.arrays > 0 { types.append("array") }
        if shape.string { types.append("string") }
        if shape.numbers > 0 { types.append(shape.fractional ? "number" : "integer") }
        if shape.boolean { types.append("boolean") }
        if shape.null { types.append("null") }
        var schema: JSONObject = [:]
        if types.count == 1 {
            schema["type"] = .string(types[0])
        } else if !types.isEmpty {
            schema["type"] = .array(types.map(JSONValue.string))
        }
        if shape.objects > 0, !shape.members.isEmpty {
            var properties = JSONObject()
            for (name, inner) in shape.members {
                properties[name] = Self.schema(of: inner, member: true)
            }
            schema["properties"] = .object(properties)
            let required = shape.members.filter { $0.shape.count == shape.objects }
            if !required.isEmpty { schema["required"] = .array(required.map { .string($0.name) }) }
            // No member the data never had: a misspelt one is caught, and named.
            schema["additionalProperties"] = false
        }
        if let elements = shape.elements, elements.count > 0 {
            schema["items"] = Self.schema(of: elements)
        }
        // Few distinct strings over many values: the member is a choice among them.
        if member, let strings = shape.strings, types == ["string"], strings.count >= 1,
            shape.stringCount >= 8, strings.count * 4 <= shape.stringCount
        {
            let values = strings.keys.sorted { UTF8Key.less($0, $1) }
            schema["enum"] = .array(values.map(JSONValue.string))
            schema.removeValue(forKey: "type")
        }
        return .object(schema)
    }
}
