/// Turns a schema and the documents it refers to into a `SchemaProgram`, once.
///
/// Every document is first scanned for the schema resources it embeds (`$id`) and its
/// anchors, following only the keywords that hold subschemas (an `$id` inside an `enum` is
/// data). Nodes are then made from a work list, not by recursion, so a schema nested
/// 10,000 deep compiles as a flat one does; a `$ref` becomes the number of its target's
/// node, made once however many point to it.
final class SchemaCompiler {
    /// A subschema found: its value, the resource it is in, and where in it.
    struct Located {
        var value: JSONValue
        var base: URIReference
        var pointer: JSONPointer
        var vocabularies: SchemaVocabularies

        var key: String { base.description + "#" + pointer.description }
    }

    let registry: SchemaRegistry
    let assertsFormat: Bool
    var program = SchemaProgram()
    /// Each node's location key → its number.
    private var numbers: [String: Int] = [:]
    private var work: [(node: Int, at: Located)] = []
    /// The resources found by scanning, by URI; their anchors, by `URI#name`; and the
    /// dynamic anchors of each resource.
    private var resources: [String: Located] = [:]
    private var anchors: [String: Located] = [:]
    private var dynamicAnchors: [String: [String: Located]] = [:]
    private var resourceNumbers: [String: Int] = [:]

    init(registry: SchemaRegistry, assertsFormat: Bool) {
        self.registry = registry
        self.assertsFormat = assertsFormat
    }

    /// Compiles `schema`, whose own URI is `base`.
    func compile(_ schema: JSONValue, base: URIReference) throws(SchemaCompileError)
        -> SchemaProgram
    {
        let root = try scan(schema, base: base)
        program.root = try node(for: root)
        while let (number, located) = work.popLast() {
            try fill(number, from: located)
        }
        try SchemaCycles.check(program)
        program.rootScope = [program.nodes[program.root].resource]
        program.tracksProperties = program.nodes.contains { node in
            node.keywords.contains {
                if case .unevaluatedProperties = $0 { true } else { false }
            }
        }
        return program
    }

    // MARK: Nodes

    /// The number of the node for `located`, reserved (and its keywords made later) when
    /// it is new.
    func node(for located: Located) throws(SchemaCompileError) -> Int {
        let located = rebased(located)
        if let number = numbers[located.key] { return number }
        let resource = try resourceNumber(located)
        let number = program.nodes.count
        program.nodes.append(
            SchemaProgram.Node(boolean: nil, resource: resource, pointer: located.pointer))
        numbers[located.key] = number
        work.append((number, located))
        return number
    }

    /// A subschema that names itself with `$id` is the root of a resource of its own.
    private func rebased(_ located: Located) -> Located {
        guard !located.pointer.tokens.isEmpty, case .object(let object) = located.value,
            case .string(let id)? = object["$id"]
        else { return located }
        let base = URIReference(id).resolved(against: located.base).withoutFragment
        return resources[base.description]
            ?? Located(
                value: located.value, base: base, pointer: JSONPointer(),
                vocabularies: located.vocabularies)
    }

    /// The resource's number; the first time, its dynamic anchors are made nodes, for a
    /// `$dynamicRef` that reaches them through the dynamic scope.
    private func resourceNumber(_ located: Located) throws(SchemaCompileError) -> Int {
        let uri = located.base.description
        if let number = resourceNumbers[uri] { return number }
        let number = program.resources.count
        resourceNumbers[uri] = number
        program.resources.append(located.base)
        program.dynamicAnchors.append([:])
        for (name, anchor) in dynamicAnchors[uri] ?? [:] {
            program.dynamicAnchors[number][name] = try node(for: anchor)
        }
        return number
    }

    // MARK: References

    /// Where `reference` (a `$ref`'s value, read in `from`) points.
    func resolve(_ reference: String, from: Located, keyword: String) throws(SchemaCompileError)
        -> Located
    {
        let target = URIReference(reference).resolved(against: from.base)
        let document = target.withoutFragment.description
        let fragment = Self.percentDecoded(target.fragment ?? "")
        if resources[document] == nil {
            guard let value = registry.document(document) else {
                throw SchemaCompileError(
                    at: from, keyword: keyword,
                    "\(reference) names \(document), which is neither bundled nor registered")
            }
            // Known by the URI it was asked by, whatever its `$id` says.
            let root = try scan(value, base: target.withoutFragment)
            if resources[document] == nil { resources[document] = root }
        }
        guard let resource = resources[document] else {
            throw SchemaCompileError(at: from, keyword: keyword, "\(reference) names no schema")
        }
        if fragment.isEmpty { return resource }
        if fragment.hasPrefix("/") {
            guard let pointer = JSONPointer(parsing: Substring(fragment)) else {
                throw SchemaCompileError(
                    at: from, keyword: keyword, "\(reference): \(fragment) is not a JSON pointer")
            }
            // Walked token by token: an `$id` on the way begins another resource.
            var here = resource
            for token in pointer.tokens {
                guard let next = JSONPointer([token]).value(in: here.value) else {
                    throw SchemaCompileError(
                        at: from, keyword: keyword, "\(reference): nothing is at \(fragment)")
                }
                here = rebased(
                    Located(
                        value: next, base: here.base, pointer: here.pointer.appending(token),
                        vocabularies: here.vocabularies))
            }
            return here
        }
        guard let anchor = anchors[document + "#" + fragment] else {
            throw SchemaCompileError(
                at: from, keyword: keyword, "\(reference): no anchor \(fragment) in \(document)")
        }
        return anchor
    }

    /// Whether `located` declares `$dynamicAnchor` `name`.
    func declaresDynamicAnchor(_ located: Located, _ name: String) -> Bool {
        guard case .object(let object) = located.value else { return false }
        return object["$dynamicAnchor"] == .string(name)
    }

    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        return String(decoding: PercentEncoding.decoded(text.utf8), as: UTF8.self)
    }

    // MARK: Scanning

    /// Indexes the resources and anchors of a document whose URI is `base`; returns where
    /// its root is.
    private func scan(_ document: JSONValue, base: URIReference) throws(SchemaCompileError)
        -> Located
    {
        let root = Located(
            value: document, base: base.withoutFragment, pointer: JSONPointer(),
            vocabularies: .standard)
        var stack = [root]
        var first: Located?
        while var here = stack.popLast() {
            guard case .object(let object) = here.value else {
                if first == nil { first = here }
                continue
            }
            if case .string(let id)? = object["$id"] {
                let uri = URIReference(id).resolved(against: here.base)
                here.base = uri.withoutFragment
                here.pointer = JSONPointer()
            }
            if let schema = object["$schema"] {
                here.vocabularies = try vocabularies(of: schema, at: here)
            }
            if first == nil { first = here }
            if here.pointer.tokens.isEmpty, resources[here.base.description] == nil {
                resources[here.base.description] = here
            }
            let uri = here.base.description
            if case .string(let name)? = object["$anchor"] { anchors[uri + "#" + name] = here }
            if case .string(let name)? = object["$dynamicAnchor"] {
                anchors[uri + "#" + name] = here
                dynamicAnchors[uri, default: [:]][name] = here
            }
            for (path, child) in Self.subschemas(of: object) {
                stack.append(
                    Located(
                        value: child, base: here.base,
                        pointer: here.pointer.appending(contentsOf: path),
                        vocabularies: here.vocabularies))
            }
        }
        return first ?? root
    }

    /// The vocabularies a resource whose `$schema` is `schema` uses.
    private func vocabularies(of schema: JSONValue, at here: Located) throws(SchemaCompileError)
        -> SchemaVocabularies
    {
        guard case .string(let uri) = schema else {
            throw SchemaCompileError(at: here, keyword: "$schema", "$schema must be a string")
        }
        let meta = URIReference(uri).withoutFragment.description
        guard meta != SchemaRegistry.metaSchema else { return .standard }
        guard let document = registry.document(meta) else {
            throw SchemaCompileError(
                at: here, keyword: "$schema",
                "the meta-schema \(meta) is neither bundled nor registered")
        }
        guard case .object(let vocabulary)? = document["$vocabulary"] else { return .standard }
        do {
            return try SchemaVocabularies.declared(by: vocabulary)
        } catch {
            throw SchemaCompileError(
                at: here, keyword: "$schema",
                "\(meta) requires the vocabulary \(error.uri), which is not known")
        }
    }

    /// The subschemas an object schema holds, each with its path from it.
    static func subschemas(of object: JSONObject) -> [([String], JSONValue)] {
        var found: [([String], JSONValue)] = []
        for member in object {
            switch member.key {
            case "$defs", "properties", "patternProperties", "dependentSchemas":
                if case .object(let map) = member.value {
                    for entry in map { found.append(([member.key, entry.key], entry.value)) }
                }
            case "allOf", "anyOf", "oneOf", "prefixItems":
                if case .array(let list) = member.value {
                    for (i, entry) in list.enumerated() {
                        found.append(([member.key, String(i)], entry))
                    }
                }
            case "items", "contains", "additionalProperties", "propertyNames", "not", "if",
                "then", "else", "unevaluatedItems", "unevaluatedProperties":
                found.append(([member.key], member.value))
            default: break
            }
        }
        return found
    }
}

/// Why a schema cannot be compiled, and where: the keyword and the pointer to it.
struct SchemaCompileError: Error, Sendable {
    var pointer: JSONPointer
    var message: String

    init(at located: SchemaCompiler.Located, keyword: String, _ message: String) {
        pointer = located.pointer.appending(keyword)
        self.message = message
    }

    init(pointer: JSONPointer, _ message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// The error as the public API throws it: `/properties/a/pattern: …`.
    var storeError: StoreError {
        let at = pointer.description
        return StoreError(
            code: .invalidSchema, message: "\(at.isEmpty ? "/" : at): \(message)")
    }
}
