/// Reads one schema object's keyword values for `SchemaCompiler`, checking each value's
/// type (a keyword of the wrong type is an error naming it) and reserving subschemas as
/// nodes.
struct KeywordReader {
    let compiler: SchemaCompiler
    let here: SchemaCompiler.Located
    let object: JSONObject

    func error(_ keyword: String, _ message: String) -> SchemaCompileError {
        SchemaCompileError(at: here, keyword: keyword, message)
    }

    func string(_ keyword: String) throws(SchemaCompileError) -> String? {
        guard let value = object[keyword] else { return nil }
        guard case .string(let string) = value else {
            throw error(keyword, "\(keyword) must be a string, not \(value.typeName)")
        }
        return string
    }

    func number(_ keyword: String) throws(SchemaCompileError) -> JSONNumber? {
        guard let value = object[keyword] else { return nil }
        guard case .number(let number) = value else {
            throw error(keyword, "\(keyword) must be a number, not \(value.typeName)")
        }
        return number
    }

    /// A non-negative integer (`2` or `2.0`); very large ones are clamped to `Int.max`.
    func count(_ keyword: String) throws(SchemaCompileError) -> Int? {
        guard let value = object[keyword] else { return nil }
        guard case .number(let number) = value, case let parsed = SchemaNumber(number),
            parsed.isInteger, !parsed.negative
        else {
            throw error(keyword, "\(keyword) must be a non-negative integer")
        }
        return number.intValue ?? Int.max
    }

    func strings(_ keyword: String) throws(SchemaCompileError) -> [String]? {
        guard let value = object[keyword] else { return nil }
        return try strings(value, keyword)
    }

    func strings(_ value: JSONValue, _ keyword: String) throws(SchemaCompileError) -> [String]? {
        guard case .array(let list) = value else {
            throw error(keyword, "\(keyword) must be an array of strings")
        }
        var names: [String] = []
        for entry in list {
            guard case .string(let name) = entry else {
                throw error(keyword, "\(keyword) must be an array of strings")
            }
            names.append(name)
        }
        return names
    }

    func types(_ value: JSONValue) throws(SchemaCompileError) -> [SchemaType] {
        let names: [JSONValue]
        switch value {
        case .string: names = [value]
        case .array(let list): names = list
        default: throw error("type", "type must be a string or an array of strings")
        }
        var types: [SchemaType] = []
        for name in names {
            guard case .string(let text) = name, let type = SchemaType(rawValue: text) else {
                throw error("type", "type names no JSON type: \(name)")
            }
            types.append(type)
        }
        return types
    }

    func pattern(_ source: String, keyword: String) throws(SchemaCompileError) -> SchemaPattern {
        do {
            return try SchemaPattern(source)
        } catch {
            throw self.error(keyword, "the pattern \(source) does not compile: \(error.reason)")
        }
    }

    /// The node of the subschema at `keyword`.
    mutating func subschema(_ keyword: String) throws(SchemaCompileError) -> Int? {
        guard let value = object[keyword] else { return nil }
        return try node(value, [keyword])
    }

    mutating func subschemaList(_ keyword: String) throws(SchemaCompileError) -> [Int]? {
        guard let value = object[keyword] else { return nil }
        guard case .array(let list) = value, !list.isEmpty else {
            throw error(keyword, "\(keyword) must be a non-empty array of schemas")
        }
        var nodes: [Int] = []
        for (i, entry) in list.enumerated() { nodes.append(try node(entry, [keyword, String(i)])) }
        return nodes
    }

    mutating func subschemaMap(_ keyword: String) throws(SchemaCompileError) -> [(String, Int)]? {
        guard let value = object[keyword] else { return nil }
        guard case .object(let map) = value else {
            throw error(keyword, "\(keyword) must be an object of schemas")
        }
        var nodes: [(String, Int)] = []
        for member in map {
            nodes.append((member.key, try node(member.value, [keyword, member.key])))
        }
        return nodes
    }

    private func node(_ value: JSONValue, _ path: [String]) throws(SchemaCompileError) -> Int {
        let pointer = here.pointer.appending(contentsOf: path)
        guard value.isSchemaShaped else {
            throw SchemaCompileError(
                pointer: pointer, "a schema must be an object or a boolean, not \(value.typeName)")
        }
        return try compiler.node(
            for: SchemaCompiler.Located(
                value: value, base: here.base, pointer: pointer, vocabularies: here.vocabularies))
    }
}

extension JSONValue {
    fileprivate var isSchemaShaped: Bool {
        switch self {
        case .object, .bool: true
        default: false
        }
    }
}
