import JSONStore

/// What `edit --new` starts from: the members the store's schema requires, each with a
/// value of its kind (its `default`, `const` or first `enum` value when it has one, else
/// an empty one of its `type`), so the new item is one a person fills in.
enum ItemTemplate {
    /// The template under `schema` (empty without one, or for a schema that requires
    /// nothing at its top).
    static func object(for schema: StoreSchema?) -> JSONObject {
        guard let schema, case .object(let document)? = try? JSONReader().read(schema.bytes)
        else { return [:] }
        let properties = document["properties"]?.objectValue ?? [:]
        var template = JSONObject()
        for case .string(let name) in document["required"]?.arrayValue ?? [] {
            guard name != "id" else { continue }  // the id is the file's name
            template[name] = value(for: properties[name]?.objectValue ?? [:])
        }
        return template
    }

    /// An example value for the member whose schema is `schema`.
    static func value(for schema: JSONObject) -> JSONValue {
        if let value = schema["default"] ?? schema["const"] { return value }
        if let first = schema["enum"]?.arrayValue?.first { return first }
        let type: String?
        switch schema["type"] {
        case .string(let name)?: type = name
        case .array(let names)?: type = names.first?.stringValue
        default: type = nil
        }
        switch type {
        case "integer", "number": return .number(JSONNumber(0))
        case "boolean": return .bool(false)
        case "array": return .array([])
        case "object": return .object(value(forObject: schema))
        case "null": return .null
        default: return .string("")
        }
    }

    /// An object member's template: its own required members.
    private static func value(forObject schema: JSONObject) -> JSONObject {
        let properties = schema["properties"]?.objectValue ?? [:]
        var object = JSONObject()
        for case .string(let name) in schema["required"]?.arrayValue ?? [] {
            object[name] = value(for: properties[name]?.objectValue ?? [:])
        }
        return object
    }
}
