extension SchemaCompiler {
    /// Makes node `number`'s keywords from the schema at `located`, its subschemas reserved
    /// as nodes of their own; `unevaluated*` last, since they read what the others
    /// evaluated.
    func fill(_ number: Int, from here: Located) throws(SchemaCompileError) {
        let object: JSONObject
        switch here.value {
        case .bool(let value):
            program.nodes[number].boolean = value
            return
        case .object(let value):
            object = value
        default:
            throw SchemaCompileError(
                pointer: here.pointer,
                "a schema must be an object or a boolean, not \(here.value.typeName)")
        }
        var reader = KeywordReader(compiler: self, here: here, object: object)
        var keywords: [SchemaKeyword] = []
        if let ref = try reader.string("$ref") {
            keywords.append(.ref(try node(for: resolve(ref, from: here, keyword: "$ref"))))
        }
        if let ref = try reader.string("$dynamicRef") {
            let target = try resolve(ref, from: here, keyword: "$dynamicRef")
            let fragment = URIReference(ref).fragment ?? ""
            let dynamic =
                !fragment.isEmpty && !fragment.hasPrefix("/")
                && declaresDynamicAnchor(target, fragment)
            keywords.append(.dynamicRef(try node(for: target), anchor: dynamic ? fragment : nil))
        }
        let vocabularies = here.vocabularies
        if vocabularies.contains(.applicator) { keywords += try applicators(&reader) }
        if vocabularies.contains(.validation) { keywords += try assertions(&reader) }
        if case .string(let name)? = object["format"] {
            let asserted = assertsFormat || vocabularies.contains(.formatAssertion)
            if asserted, let format = SchemaFormat(rawValue: name) {
                keywords.append(.format(format))
            }
        }
        if vocabularies.contains(.unevaluated) {
            if let items = try reader.subschema("unevaluatedItems") {
                keywords.append(.unevaluatedItems(items))
            }
            if let properties = try reader.subschema("unevaluatedProperties") {
                keywords.append(.unevaluatedProperties(properties))
            }
        }
        program.nodes[number].keywords = keywords
    }

    private func applicators(_ reader: inout KeywordReader) throws(SchemaCompileError)
        -> [SchemaKeyword]
    {
        var keywords: [SchemaKeyword] = []
        if let list = try reader.subschemaList("allOf") { keywords.append(.allOf(list)) }
        if let list = try reader.subschemaList("anyOf") { keywords.append(.anyOf(list)) }
        if let list = try reader.subschemaList("oneOf") { keywords.append(.oneOf(list)) }
        if let node = try reader.subschema("not") { keywords.append(.not(node)) }
        if let condition = try reader.subschema("if") {
            // Even alone, `if` is evaluated: `unevaluated*` see what it evaluated.
            let then = try reader.subschema("then")
            let otherwise = try reader.subschema("else")
            keywords.append(.condition(if: condition, then: then, else: otherwise))
        }
        if let map = try reader.subschemaMap("dependentSchemas") {
            keywords.append(.dependentSchemas(map.map { (name: $0.0, node: $0.1) }))
        }
        let prefix = try reader.subschemaList("prefixItems")
        if let prefix { keywords.append(.prefixItems(prefix)) }
        if let items = try reader.subschema("items") {
            keywords.append(.items(items, from: prefix?.count ?? 0))
        }
        if let contains = try reader.subschema("contains") {
            let min = try reader.count("minContains") ?? 1
            let max = try reader.count("maxContains")
            keywords.append(.contains(contains, min: min, max: max))
        }
        let properties = try reader.subschemaMap("properties")
        if let properties {
            keywords.append(.properties(SchemaNames(properties)))
        }
        var patterns: [(pattern: SchemaPattern, node: Int)] = []
        if let map = try reader.subschemaMap("patternProperties") {
            for (source, node) in map {
                patterns.append(
                    (try reader.pattern(source, keyword: "patternProperties"), node))
            }
            keywords.append(.patternProperties(patterns))
        }
        if let additional = try reader.subschema("additionalProperties") {
            keywords.append(
                .additionalProperties(
                    additional, named: SchemaNames(properties ?? []),
                    patterns: patterns.map(\.pattern)))
        }
        if let names = try reader.subschema("propertyNames") {
            keywords.append(.propertyNames(names))
        }
        return keywords
    }

    private func assertions(_ reader: inout KeywordReader) throws(SchemaCompileError)
        -> [SchemaKeyword]
    {
        var keywords: [SchemaKeyword] = []
        if let type = reader.object["type"] { keywords.append(.type(try reader.types(type))) }
        if let values = reader.object["enum"] {
            guard case .array(let list) = values else {
                throw reader.error("enum", "enum must be an array")
            }
            keywords.append(.enumeration(SchemaEnum(list)))
        }
        if let value = reader.object["const"] { keywords.append(.constant(value)) }
        if let divisor = try reader.number("multipleOf") {
            guard JSONNumber.compareValues(divisor, JSONNumber(0)) > 0 else {
                throw reader.error("multipleOf", "multipleOf must be greater than 0")
            }
            keywords.append(.multipleOf(divisor))
        }
        if let bound = try reader.number("maximum") { keywords.append(.maximum(bound)) }
        if let bound = try reader.number("exclusiveMaximum") {
            keywords.append(.exclusiveMaximum(bound))
        }
        if let bound = try reader.number("minimum") { keywords.append(.minimum(bound)) }
        if let bound = try reader.number("exclusiveMinimum") {
            keywords.append(.exclusiveMinimum(bound))
        }
        if let count = try reader.count("maxLength") { keywords.append(.maxLength(count)) }
        if let count = try reader.count("minLength") { keywords.append(.minLength(count)) }
        if let source = try reader.string("pattern") {
            keywords.append(.pattern(try reader.pattern(source, keyword: "pattern")))
        }
        if let count = try reader.count("maxItems") { keywords.append(.maxItems(count)) }
        if let count = try reader.count("minItems") { keywords.append(.minItems(count)) }
        if case .bool(true)? = reader.object["uniqueItems"] { keywords.append(.uniqueItems) }
        if let count = try reader.count("maxProperties") {
            keywords.append(.maxProperties(count))
        }
        if let count = try reader.count("minProperties") {
            keywords.append(.minProperties(count))
        }
        if let names = try reader.strings("required") { keywords.append(.required(names)) }
        if case .object(let map)? = reader.object["dependentRequired"] {
            var dependencies: [(name: String, required: [String])] = []
            for member in map {
                guard let names = try reader.strings(member.value, "dependentRequired") else {
                    continue
                }
                dependencies.append((member.key, names))
            }
            keywords.append(.dependentRequired(dependencies))
        }
        return keywords
    }
}
