/// Checks one value against a `SchemaProgram`: each node's keywords in turn, collecting
/// every violation with where it is, and the annotations `unevaluatedItems` and
/// `unevaluatedProperties` need (which members and elements the keywords beside them,
/// and the subschemas those applied in place, evaluated).
///
/// Branches whose failures are not the value's (an `anyOf`'s, a `not`'s, an `if`'s) are
/// checked without collecting, and stop at their first failure.
struct SchemaValidator {
    /// What a node evaluated of the value it checked, for `unevaluated*` beside it.
    struct Evaluated {
        var properties: Set<UTF8Key> = []
        /// Elements before this index evaluated (`prefixItems`).
        var prefix = 0
        /// Every element evaluated (`items`, `unevaluatedItems`).
        var allItems = false
        /// Elements `contains` matched.
        var indices: Set<Int> = []

        mutating func merge(_ other: Evaluated) {
            properties.formUnion(other.properties)
            prefix = max(prefix, other.prefix)
            allItems = allItems || other.allItems
            indices.formUnion(other.indices)
        }
    }

    /// How deep schemas may apply to schemas before the check gives up: a `$dynamicRef`
    /// chain cannot be seen to end when compiled.
    static let depthLimit = 1_000

    let program: SchemaProgram
    var violations: [SchemaViolation] = []
    /// Whether failures are the value's own, to report (not inside an `anyOf`, a `not`).
    var collecting = true
    /// The instance path, as tokens.
    var path: [String] = []
    /// The resources entered, outermost first: the dynamic scope.
    var scope: [Int] = []
    private var depth = 0
    /// Set when the check gave up (`depthLimit`): every evaluation fails from then on,
    /// and this is the one violation reported.
    private(set) var abandoned: SchemaViolation? {
        didSet { gaveUp = abandoned != nil }
    }
    /// Whether `abandoned` is set: tested on entering every node, where a test of the
    /// optional violation copied it.
    private(set) var gaveUp = false

    init(program: SchemaProgram) {
        self.program = program
        scope = program.rootScope
    }

    /// Checks `value` against node `node`; its annotations, or `nil` when it fails.
    mutating func evaluate(_ node: Int, _ value: JSONValue) -> Evaluated? {
        if gaveUp { return nil }
        // The node's parts read one by one: a copy of the whole node retained and released
        // its keywords and its pointer for every subschema of every item.
        if let boolean = program.nodes[node].boolean {
            if !boolean { fail(node, nil, "no value is allowed here") }
            return boolean ? Evaluated() : nil
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.depthLimit else {
            abandoned = SchemaViolation(
                instancePath: JSONPointer(path).description,
                keywordLocation: program.location(of: node),
                message: "the schema applies itself more than \(Self.depthLimit) levels deep")
            return nil
        }
        let resource = program.nodes[node].resource
        let entered = scope.last != resource
        if entered { scope.append(resource) }
        defer { if entered { scope.removeLast() } }
        var evaluated = Evaluated()
        var valid = true
        // Each keyword passed from the buffer as it is: read out of the array, each was
        // copied (the retains and releases of its payload) for every item.
        let keywords = program.nodes[node].keywords
        keywords.withUnsafeBufferPointer { keywords in
            for index in keywords.indices
            where !check(keywords[index], of: node, value, &evaluated) {
                valid = false
                if !collecting { return }
            }
        }
        return valid ? evaluated : nil
    }

    /// Records a violation at the current instance path, when collecting.
    mutating func fail(_ node: Int, _ keyword: String?, _ message: String) {
        guard collecting else { return }
        var location = program.location(of: node)
        if let keyword { location += "/" + keyword }
        violations.append(
            SchemaViolation(
                instancePath: JSONPointer(path).description, keywordLocation: location,
                message: message))
    }

    /// Evaluates `node` on `value` without reporting its failures: whether it holds.
    mutating func quietly(_ node: Int, _ value: JSONValue) -> Evaluated? {
        let was = collecting
        collecting = false
        defer { collecting = was }
        return evaluate(node, value)
    }

    /// Evaluates `node` on the member or element `token` of the value. The path is kept
    /// only while violations are collected: a check that only asks whether the value holds
    /// (`isValid`, a branch tried quietly) makes no string for each member and element.
    mutating func evaluate(_ node: Int, _ value: JSONValue, at token: @autoclosure () -> String)
        -> Evaluated?
    {
        guard collecting else { return evaluate(node, value) }
        path.append(token())
        defer { path.removeLast() }
        return evaluate(node, value)
    }
}
